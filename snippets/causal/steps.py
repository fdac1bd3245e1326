import torch

T = 4
scores = torch.zeros(T, T)  # step 1: every score is 0
mask = torch.tril(torch.ones(T, T))
masked = scores.masked_fill(mask == 0, float("-inf"))  # step 2: hide the upper triangle
print(masked)

exp_scores = torch.exp(masked)  # step 3a: exp(0) = 1, exp(-inf) = 0
row_sums = exp_scores.sum(dim=-1, keepdim=True)  # step 3b: one sum per row
weights = exp_scores / row_sums  # step 3c: divide by the row sum
print(exp_scores)
print(row_sums)
print(weights)

same = torch.allclose(weights, torch.softmax(masked, dim=-1))
print("same as torch.softmax:", same)
