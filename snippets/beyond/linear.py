import torch


def _features(q, k, v, keep):  # phi(k) = elu(k) + 1; a padded key's phi(k) = 0
    if q.dim() < 2 or q.shape != k.shape or k.shape[:-1] != v.shape[:-1]:
        raise ValueError(f"want q, k (..., L, d) and v (..., L, d_v): {q.shape}, "
                         f"{k.shape}, {v.shape}")
    if keep is not None and (keep.dtype != torch.bool or keep.shape[-1] != k.shape[-2]):
        raise ValueError(f"keep must be bool (..., L) with L = {k.shape[-2]}")
    return (torch.nn.functional.elu(k) + 1) * (1 if keep is None else keep[..., None])


def linear_dense(q, k, v, keep=None, eps=0.0):
    """Causal linear attention the slow way: A = phi(Q) phi(K)^T times a 0/1
    lower triangle (L x L), out_i = (A v)_i / (sum_j A_ij + eps)."""
    a = (torch.nn.functional.elu(q) + 1) @ _features(q, k, v, keep).mT
    a = a * torch.ones_like(a).tril()  # the causal mask multiplies: 1 if j <= i
    return a @ v / (a.sum(-1, keepdim=True) + eps)


def linear_scan(q, k, v, keep=None, eps=0.0):
    """The same with running sums, no L x L matrix: S_i = sum_{j<=i} phi(k_j) v_j^T,
    z_i = sum_{j<=i} phi(k_j), out_i = phi(q_i) S_i / (phi(q_i) . z_i + eps)."""
    fk, fq = _features(q, k, v, keep), torch.nn.functional.elu(q) + 1
    s = (fk[..., :, None] * v[..., None, :]).cumsum(-3)  # (..., L, d, d_v)
    num = (fq[..., None, :] @ s).squeeze(-2)
    return num / ((fq * fk.cumsum(-2)).sum(-1, keepdim=True) + eps)


# --- demo: 2 heads, 6 tokens; the first 2 keys are left padding ---
torch.manual_seed(0)
q, k, v = torch.randn(2, 6, 4), torch.randn(2, 6, 4), torch.randn(2, 6, 3)
keep = torch.tensor([False, False, True, True, True, True])
gap = (linear_dense(q, k, v) - linear_scan(q, k, v)).abs().max().item()
bare, eps = linear_scan(q, k, v, keep), linear_scan(q, k, v, keep, eps=1e-6)
real = (eps[:, 2:] - linear_scan(q[:, 2:], k[:, 2:], v[:, 2:])).abs().max().item()
print(f"padded rows: eps = 0 gives nan {bare[:, :2].isnan().all().item()}, "
      f"eps = 1e-6 gives 0 {(eps[:, :2] == 0).all().item()}")
print(f"gap < 1e-5: dense vs. running sum {gap < 1e-5}, "
      f"real rows vs. the padding cut off {real < 1e-5}")
