import torch

keys = ["I", "go", "home", "[PAD]", "[PAD]"]
queries = keys[:3]  # the rows of the three real tokens
# scaled scores S = Q K^T / sqrt(d_k): mixed signs, one exact 0, two [PAD] columns
S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token

# the goal: softmax over the real tokens only, exact 0 on [PAD]
target = torch.zeros_like(S)
target[:, keep] = torch.softmax(S[:, keep], dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(target)
print("row sums:", target.sum(dim=-1))
