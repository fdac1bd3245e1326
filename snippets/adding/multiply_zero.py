import torch

S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token
target = torch.zeros_like(S)
target[:, keep] = torch.softmax(S[:, keep], dim=-1)

zeroed = S * keep  # multiply the [PAD] scores by 0
weights = torch.softmax(zeroed, dim=-1)  # e^0 = 1: [PAD] still takes a share
pad_share = weights[:, ~keep].sum(dim=-1)
real_sum = weights[:, keep].sum(dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(weights)
print("[PAD] share:", pad_share)
print("real tokens sum:", real_sum)

# the real weights are the right ones, shrunk by the same factor (1 - share)
shrunk = torch.allclose(weights[:, keep], target[:, keep] * (1 - pad_share)[:, None])
print("real weights = target * (1 - share):", shrunk)
error = (weights - target).abs().amax(dim=-1)  # largest error per row
print("largest error per row:", error)
