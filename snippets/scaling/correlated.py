import torch


def typical_score(q, k, divisor):  # (mean, std) of q_i . k_i / divisor over the rows
    if not (q.is_floating_point() and k.is_floating_point()):  # int8 products wrap
        raise TypeError(f"q and k must be float tensors, got {q.dtype} and {k.dtype}")
    if not 0 < divisor < float("inf"):
        raise ValueError(f"divisor must be a positive finite number, got {divisor}")
    s = (q * k).sum(dim=-1) / divisor
    if s.numel() < 2:
        raise ValueError(f"want two or more rows (q_i, k_i) for a std, got {s.numel()}")
    if not s.isfinite().all():
        raise ValueError(f"q_i . k_i / divisor is not finite in {s.dtype}: nan in q "
                         "or k, or a dtype too narrow for the sums (float16?)")
    return s.mean().item(), s.std().item()


# --- demo ---
torch.manual_seed(0)
n, dims = 2000, [16, 64, 256, 1024, 4096]  # n query-key pairs per width d
spread = {"/sqrt(d)": [], "/d": []}  # independent q, k (initialisation): std
aligned = {"/sqrt(d)": [], "/d": []}  # k = q + noise (after training): mean
for d in dims:
    q, k = torch.randn(n, d), torch.randn(n, d)
    k_aligned = q + torch.randn(n, d)  # a key that learned to match its query
    for name, divisor in {"/sqrt(d)": d**0.5, "/d": d}.items():
        spread[name].append(round(typical_score(q, k, divisor)[1], 3))
        aligned[name].append(round(typical_score(q, k_aligned, divisor)[0], 2))
for name in spread:
    print(f"q.k {name:8}: independent, std {spread[name]}")
    print(f"{'':13}aligned, mean {aligned[name]}")
