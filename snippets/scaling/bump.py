import torch


def mean_entropy(q, k):  # mean row entropy (nats) of softmax(q k^T / sqrt(d_k))
    p = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)
    return -torch.special.xlogy(p, p).sum(dim=-1).mean().item()


def kurtosis(x):  # E[z^4] of x standardised along its last axis: 3 for a normal
    z = (x - x.mean(-1, keepdim=True)) / x.std(-1, keepdim=True)
    return (z**4).mean().item()


# --- demo ---
g = torch.Generator().manual_seed(0)
L, trials, dims = 30, 400, [4, 16, 64, 256]  # L = 30 keys per row
entropy = {"U(-3, 3)": [], "|q| fixed": [], "|q| fixed, normal keys": []}
for d in dims:
    a, b = (torch.empty(trials, L, d).uniform_(-3, 3, generator=g) for _ in range(2))
    normal = torch.randn(trials, L, d, generator=g) * 3**0.5  # variance 3 as well
    fixed = a / a.norm(dim=-1, keepdim=True) * (3 * d) ** 0.5  # every |q|^2 = 3 d
    for name, (q, k) in zip(entropy, [(a, b), (fixed, b), (fixed, normal)]):
        entropy[name].append(round(mean_entropy(q, k), 3))
for name, values in entropy.items():
    print(f"{name:>22}: mean entropy at d_k = {dims}: {values}")

q = torch.empty(1000, 1, 4).uniform_(-3, 3, generator=g)  # d_k = 4: 1000 queries
s = (q * torch.empty(1000, 2000, 4).uniform_(-3, 3, generator=g)).sum(-1)  # 2000 keys
row_kurtosis, pooled_kurtosis = kurtosis(s), kurtosis(s.flatten())
q_spread = ((q**2).sum(-1) / 12).std().item()  # |q|^2 relative to its mean 3 d
print(f"d_k = 4: kurtosis within a row {row_kurtosis:.2f}, all rows pooled "
      f"{pooled_kurtosis:.2f} (normal: 3); relative spread of |q|^2: {q_spread:.2f}")
