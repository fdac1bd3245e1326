import torch

T = 4
mask = torch.tril(torch.ones(T, T))  # 1 = may look, 0 = hide
scores = torch.zeros(T, T)

scores.masked_fill(mask == 0, float("-inf"))  # returns a new tensor: thrown away
wrong = torch.softmax(scores, dim=-1)
scores = scores.masked_fill(mask == 0, float("-inf"))  # keep the result
fixed = torch.softmax(scores, dim=-1)

torch.set_printoptions(precision=4)
print("result thrown away:", wrong, sep="\n")
print("result kept:", fixed, sep="\n")
future = wrong.triu(diagonal=1).sum(dim=-1)  # weight on later positions, per row
print("weight on the future, thrown away:", future)
print("weight on the future, kept:", fixed.triu(diagonal=1).sum(dim=-1))
