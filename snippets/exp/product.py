import math

import torch

# e^(a+b) = e^a * e^b, checked in float64 over a wide range
torch.manual_seed(0)
pairs, low, high = 100_000, -300, 300
a, b = torch.empty(2, pairs, dtype=torch.float64).uniform_(low, high)
gap = (torch.exp(a + b) / (torch.exp(a) * torch.exp(b)) - 1).abs().max().item()
print("largest relative gap, exp(a + b) vs exp(a) * exp(b):", gap)

# a mask adds M to a score s, so it multiplies exp(s) by exp(M)
s = torch.tensor([2.0, 1.0, 0.5, -1.0, 3.0])
M = torch.tensor([0.0, float("-inf"), -1e9, math.log(0.5), 0.0])
factor = torch.exp(M)  # 1 keeps, 0 removes, 0.5 halves
added = torch.exp(s + M)
multiplied = torch.exp(s) * factor
print("exp(M):         ", factor)
print("exp(s + M):     ", added)
print("exp(s) * exp(M):", multiplied)
print("same up to rounding:", torch.allclose(added, multiplied))

# normalising gives the attention weights: softmax(s + M)
weights = added / added.sum()
print("weights:", weights)
print("== softmax(s + M):", torch.allclose(weights, torch.softmax(s + M, dim=-1)))
