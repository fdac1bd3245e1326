import torch

T = 4
scores = torch.zeros(T, T)  # pretend every score is equal
mask = torch.tril(torch.ones(T, T))  # 1 on and below the diagonal
scores = scores.masked_fill(mask == 0, float("-inf"))  # hide the later positions
weights = torch.softmax(scores, dim=-1)
print(weights)
