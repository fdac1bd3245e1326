import torch

f64 = torch.float64  # as close to the real numbers as torch gets
z = torch.tensor([float("-inf"), -5.0, -1.0, 0.0, 1.0, 5.0, float("inf")], dtype=f64)
e = torch.exp(z)
for zi, ei in zip(z.tolist(), e.tolist()):
    print(f"exp({zi:>4}) = {ei:.6g}")

# a dense grid of finite inputs: every output is positive and larger than the last
grid = torch.linspace(-700, 700, 100_001, dtype=f64)
exp_grid = torch.exp(grid)
positive = bool((exp_grid > 0).all())
increasing = bool((exp_grid.diff() > 0).all())
print("points:", grid.numel(), "all positive:", positive, "increasing:", increasing)
print("smallest, largest:", exp_grid.min().item(), exp_grid.max().item())
