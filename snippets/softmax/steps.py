import torch

scores = torch.tensor([
    [2.0, 1.0, 0.1, -1.0],
    [-1.0, -2.0, -2.9, -4.0],  # the first row minus 3
    [-3.0, -3.0, -3.0, -3.0],  # all equal
])
exp_scores = torch.exp(scores)  # step 1: every entry becomes positive
row_sums = exp_scores.sum(dim=-1, keepdim=True)  # step 2: one sum per row
weights = exp_scores / row_sums  # step 3: divide by the row sum

torch.set_printoptions(precision=4, sci_mode=False)
print(exp_scores)
print(row_sums)
print(weights)
same = torch.allclose(weights, torch.softmax(scores, dim=-1))
print("same as torch.softmax:", same)
