import torch

torch.manual_seed(0)
z = torch.randn(10000, 8) * 3  # 10000 rows of 8 finite scores
dtypes = [torch.float32, torch.float64]
smallest, largest, worst_sum, exact_rows = [], [], [], []
for dtype in dtypes:
    p = torch.softmax(z.to(dtype), dim=-1)
    sums = p.sum(dim=-1)
    smallest.append(p.min().item())
    largest.append(p.max().item())
    worst_sum.append((sums - 1).abs().max().item())  # distance from exactly 1
    exact_rows.append((sums == 1).float().mean().item())  # share of rows exactly 1
    print(dtype, "min:", smallest[-1], "max:", largest[-1])
    print("  max |row sum - 1|:", worst_sum[-1], " rows exactly 1:", exact_rows[-1])

# far-apart scores: the open interval (0, 1) closes in floating point
far = torch.tensor([0.0, -20.0, -120.0])
far32 = torch.softmax(far, dim=-1)
far64 = torch.softmax(far.double(), dim=-1)
print("float32:", far32.tolist())
print("float64:", far64.tolist())
