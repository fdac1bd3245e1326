import torch

T = 4
mask = torch.tril(torch.ones(T, T))
masked = torch.zeros(T, T).masked_fill(mask == 0, float("-inf"))

by_row = torch.softmax(masked, dim=-1)  # each row (one current position) sums to 1
by_col = torch.softmax(masked, dim=0)  # each column sums to 1: the wrong direction
print(by_col)
print("row sums with dim=0:", by_col.sum(dim=-1))
print("column sums with dim=0:", by_col.sum(dim=0))
print("dim=1 equals dim=-1:", torch.equal(torch.softmax(masked, dim=1), by_row))
