import torch

torch.manual_seed(0)  # the softmax chapter's 10000 rows of 8 scores
z = torch.randn(10000, 8) * 3
p = torch.softmax(z, dim=-1)
sums = p.sum(dim=-1)

wrong = (sums == 1).all().item()  # exact comparison: fails on rounding
exact_share = (sums == 1).float().mean().item()
fixed = torch.allclose(sums, torch.ones_like(sums))  # with a tolerance
worst = (sums - 1).abs().max().item()
print("all rows == 1:", wrong, f"(exactly 1 in {exact_share:.1%} of the rows)")
print("torch.allclose(sums, 1):", fixed, f"(largest |sum - 1| = {worst:.1e})")
