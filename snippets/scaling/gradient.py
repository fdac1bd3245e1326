import torch
import torch.nn.functional as F

torch.manual_seed(0)  # the big tensor of seed.py: A, B of shape (30, 1024)
length, d = 30, 1024
a = torch.empty(length, d).uniform_(-3, 3)
b = torch.empty(length, d).uniform_(-3, 3)
v = torch.randn(length, 16)  # values
g = torch.randn(length, 16)  # upstream gradient dL/d(output), the same in every run
target = torch.randint(length, (length,))  # a key per query (cross-entropy)

names = ["none", "sqrt(d)", "d"]
mean_z, zero_share, median_q, max_q, frozen, mean_ce = [], [], [], [], [], []
for divisor in (1.0, d**0.5, d):
    q = a.clone().requires_grad_()  # the queries: what learning would change
    z = q @ b.T / divisor  # what softmax sees
    z.retain_grad()
    out = torch.softmax(z, dim=-1) @ v  # attention: weights times values
    out.backward(g)  # as if a loss downstream sent dL/d(out) = g
    mean_z.append(z.grad.abs().mean().item())
    zero_share.append((z.grad == 0).float().mean().item())  # exactly 0 in float32
    per_query = q.grad.norm(dim=-1)  # |dL/dq_i|: how hard query i is pushed
    median_q.append(per_query.median().item())
    max_q.append(per_query.max().item())
    frozen.append(int((per_query < 1e-6).sum()))  # queries that get ~nothing
    z_ce = z.detach().requires_grad_()  # a classifier instead: L = -log p[target]
    F.cross_entropy(z_ce, target, reduction="sum").backward()
    mean_ce.append(z_ce.grad.abs().mean().item())

for row in zip(names, mean_z, zero_share, median_q, max_q, frozen, mean_ce):
    print("divide by {:7}: mean |dL/dz| {:.1e}, exact 0 {:3.0%}, |dL/dq_i| median "
          "{:.1e} max {:.1e}, frozen {:2}, cross-entropy {:.1e}".format(*row))
