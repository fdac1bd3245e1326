import torch


def check_probs(p):  # fail loudly on anything that is not a softmax output
    if not p.is_floating_point():
        raise TypeError(f"p must be a floating-point tensor, got {p.dtype}")
    if (p < 0).any() or not torch.allclose(p.sum(-1), p.new_ones(()), atol=1e-4):
        raise ValueError("p must be probabilities (rows sum to 1)")
    return p


def entropy(p):  # per row, in nats; 0 * log(0) counts as 0
    return -torch.special.xlogy(check_probs(p), p).sum(dim=-1)


def jacobian(p):  # d softmax(z) / dz for each row: diag(p) - p p^T
    p = check_probs(p)
    return torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)


def make_dot_product_tensor(length, dim):  # as in seed.py
    a, b = (torch.empty(length, dim).uniform_(-3, 3) for _ in range(2))  # a, then b
    return a @ b.T


# --- demo ---
torch.manual_seed(0)  # the same four score matrices as seed.py
length, big_dim, small_dim = 30, 1024, 10
big = make_dot_product_tensor(length, big_dim)
small = make_dot_product_tensor(length, small_dim)
scores = [big, big / big_dim**0.5, small, small / small_dim**0.5]
weights = [torch.softmax(s, dim=-1) for s in scores]
weights += [torch.full((1, length), 1 / length), torch.eye(length)]  # references
names = ["1) S (d=1024)", "2) S/√1024", "3) S (d=10)", "4) S/√10",
         "(1/30, …, 1/30)", "(1, 0, …, 0)"]  # the references: uniform, one-hot
mean_entropy = torch.stack([entropy(p).mean() for p in weights])  # max: log(30)
mean_max = torch.stack([p.max(dim=-1).values.mean() for p in weights])
jac_norm = torch.stack([jacobian(p).norm(dim=(-2, -1)).mean() for p in weights])
for row in zip(names, mean_entropy, mean_max, jac_norm):
    print("{}: mean_entropy {:.4f}, mean_max {:.4f}, jac_norm {:.4f}".format(*row))
