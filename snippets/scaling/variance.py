import torch


def dot_products(n, d, low=-3.0, high=3.0):  # n samples of q . k, entries U(low, high)
    if not (n >= 1 and d >= 1 and low < high):
        raise ValueError(f"need n, d >= 1 and low < high, got {n, d, low, high}")
    q = torch.empty(n, d).uniform_(low, high)
    k = torch.empty(n, d).uniform_(low, high)
    return (q * k).sum(dim=-1)


# --- demo ---
torch.manual_seed(0)
sigma2 = 6**2 / 12  # variance of U(-3, 3): (b - a)^2 / 12 = 3
sigma2_measured = torch.empty(1_000_000).uniform_(-3, 3).var().item()
print(f"variance of U(-3, 3): theory {sigma2}, measured {sigma2_measured:.4f}")

n = 20_000  # pairs per d: enough for a std within about 1%
dims = [1, 4, 16, 64, 256, 1024]
theory, measured, by_sqrt, by_d = [], [], [], []
for d in dims:
    s = dot_products(n, d)
    theory.append(sigma2 * d**0.5)  # Var(q . k) = d sigma^4, so std = sigma^2 sqrt(d)
    measured.append(s.std().item())
    by_sqrt.append((s / d**0.5).std().item())  # / sqrt(d): std sigma^2 = 3 for every d
    by_d.append((s / d).std().item())  # / d: std 3 / sqrt(d), shrinking to 0

ratio = torch.tensor(measured) / torch.tensor(theory)
worst = (ratio - 1).abs().max().item()  # largest relative miss over all d
for row in zip(dims, theory, measured, by_sqrt, by_d):
    print("d={:5d}: std theory {:7.3f}, measured {:7.3f}, /sqrt(d) {:.3f}, /d {:.4f}"
          .format(*row))
print(f"largest |measured / theory - 1|: {worst:.4f}")
