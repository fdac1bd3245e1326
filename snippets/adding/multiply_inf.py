import torch

S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token

# multiply the [PAD] scores by -inf, the real ones by 1
factor = torch.where(keep, 1.0, float("-inf"))
product = S * factor  # 1.5 -> -inf, -2.0 -> +inf, 0.0 -> nan (0 * -inf)
weights = torch.softmax(product, dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(product)
print(weights)
nan_rows = weights.isnan().all(dim=-1)
print("rows that are all NaN:", nan_rows)

# a large finite factor instead of -inf: no NaN, but the sign still flips
big = torch.where(keep, 1.0, -1e9)
product_big = S * big
weights_big = torch.softmax(product_big, dim=-1)
print(product_big)
print(weights_big)
