import torch

torch.manual_seed(0)
B, H, T = 2, 3, 4  # sentences, heads, positions
scores = torch.randn(B, H, T, T)
mask = torch.tril(torch.ones(T, T))  # (T, T) broadcasts against (B, H, T, T)
masked = scores.masked_fill(mask == 0, float("-inf"))

weights = torch.softmax(masked, dim=-1)  # last axis: the positions one row looks at
wrong = torch.softmax(masked, dim=1)  # axis 1 is now the heads
print("shape:", tuple(weights.shape))
rows_sum_to_one = torch.allclose(weights.sum(dim=-1), torch.ones(B, H, T))
print("dim=-1, every row sums to 1:", rows_sum_to_one)
print("dim=1, NaN entries:", int(wrong.isnan().sum()), "of", wrong.numel())
