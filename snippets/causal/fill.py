import torch

T = 4
scores = torch.zeros(T, T)
mask = torch.tril(torch.ones(T, T))  # 1 = may look, 0 = hide

masked = scores.masked_fill(mask == 0, float("-inf"))  # returns a new tensor
unchanged = bool((scores == 0).all())
print("scores unchanged:", unchanged)

flipped = scores.masked_fill(mask == 1, float("-inf"))  # polarity the wrong way round
wrong = torch.softmax(flipped, dim=-1)
print(wrong)

scores.masked_fill_(mask == 0, float("-inf"))  # the trailing _ changes scores in place
in_place = torch.equal(scores, masked)
print("changed in place:", in_place)
