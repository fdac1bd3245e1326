import torch


def attend_split(q, k, v, mask):
    """Attention of q (..., L_Q, d_k) over one split of the keys, k (..., n, d_k) and v
    (..., n, d_v), keep-mask (..., L_Q, n) -> (out, lse); a row with no key: 0, -inf."""
    if q.shape[:-2] != k.shape[:-2] or q.shape[-1] != k.shape[-1] \
            or k.shape[:-1] != v.shape[:-1]:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: "
                         "want (..., L_Q, d_k), (..., n, d_k), (..., n, d_v)")
    if mask.dtype != torch.bool:
        raise TypeError(f"mask must be a bool keep-mask, got {mask.dtype}")
    scores = (q @ k.mT * q.shape[-1] ** -0.5).masked_fill(~mask, -torch.inf)
    lse = torch.logsumexp(scores, dim=-1)  # -inf where the row keeps no key, or n = 0
    shift = torch.where(torch.isneginf(lse), 0.0, lse)[..., None]  # not -inf - -inf
    return torch.exp(scores - shift) @ v, lse


def merge(parts):
    """[(out, lse), ...] of splits of one set of keys -> (out, lse) over all of them."""
    if not parts:
        raise ValueError("merge needs at least one split, got an empty list")
    lse = torch.logsumexp(torch.stack([part_lse for _, part_lse in parts]), dim=0)
    shift = torch.where(torch.isneginf(lse), 0.0, lse)[..., None]  # no key anywhere
    out = sum(torch.exp(part_lse[..., None] - shift) * o for o, part_lse in parts)
    return out, lse  # each split weighs its share of the sum of exp, e^(lse_s - lse)


# --- demo: one decoding query, 2 heads, 48 cache slots, 37 filled, in 1 to 8 splits ---
g = torch.Generator().manual_seed(0)
q, (k, v) = torch.randn(2, 1, 16, generator=g), torch.randn(2, 2, 48, 16, generator=g)
keep = (torch.arange(48) < 37)[None]  # (L_Q, L_K): the 11 unused slots are masked
full = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=keep)
counts, empty, gaps = list(range(1, 9)), [], []
for n in counts:  # n splits of the 48 slots, cut as tensor_split cuts them
    ks, vs, ms = k.tensor_split(n, -2), v.tensor_split(n, -2), keep.tensor_split(n, -1)
    empty.append(sum(not m.any() for m in ms))  # splits that keep no key
    out, lse = merge([attend_split(q, *split) for split in zip(ks, vs, ms)])
    gaps.append((out - full).abs().max().item())
print("all-masked:", empty, "max |merged - full|:", [f"{x:.0e}" for x in gaps])
