import torch
import torch.nn.functional as F


def plain(q, k, v, keep):  # softmax as usual; keep: True = take part
    s = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(~keep, -torch.inf)
    return torch.softmax(s, dim=-1) @ v


def safe(q, k, v, keep):  # the two extra masked_fill calls of together/attention.py
    s = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(~keep, -torch.inf)
    empty = torch.isneginf(s).all(dim=-1, keepdim=True)  # rows with no key
    return torch.softmax(s.masked_fill(empty, 0), dim=-1).masked_fill(empty, 0) @ v


# --- demo ---
torch.manual_seed(0)
L_Q, L_K, d = 3, 4, 4
q0, k0, v0 = torch.randn(L_Q, d), torch.randn(L_K, d), torch.randn(L_K, d)
keep = torch.ones(L_Q, L_K, dtype=torch.bool)
keep[1] = False  # query 1 may see no key at all
methods = {"softmax": plain, "safe": safe, "SDPA": F.scaled_dot_product_attention}
rows, grads, nans = {}, {}, {}
for name, f in methods.items():
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = f(q, k, v, keep)  # SDPA's 4th argument is attn_mask: True = take part
    out.sum().backward()
    rows[name], grads[name] = out[1].tolist(), [t.grad for t in (q, k, v)]
    nans[name] = sum(int(g.isnan().sum()) for g in grads[name])
    print(f"{name:>7}: row 1 = {rows[name]}", f"NaN in grads = {nans[name]}")
gap = max((a - b).abs().max().item() for a, b in zip(grads["safe"], grads["SDPA"]))
version = torch.__version__
print(f"max |grad safe - grad SDPA|: {gap:.1e}, torch {version}")
