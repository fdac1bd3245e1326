import torch


def online_attention(q, k, v, keep, block):
    """softmax(q k^T / sqrt(d_k), keep False hidden) v, keys in blocks -> (out, lse)."""
    dtypes = [getattr(t, "dtype", type(t).__name__) for t in (q, k, v, keep)]
    if len(set(dtypes[:3])) > 1 or not (torch.is_tensor(q) and q.is_floating_point()) \
            or dtypes[3] != torch.bool:
        raise TypeError(f"want float q, k, v of one dtype and a bool keep: {dtypes}")
    scores = (*q.shape[:-1], k.shape[-2])  # (..., L_Q, L_K)
    if min(q.dim(), k.dim(), v.dim()) < 2 or q.shape[:-2] != k.shape[:-2] \
            or k.shape[:-1] != v.shape[:-1] or q.shape[-1] != k.shape[-1] \
            or keep.dim() > len(scores) or any(a not in (1, b) for a, b in
                                               zip(keep.shape[::-1], scores[::-1])):
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}, "
                         f"keep {tuple(keep.shape)}: want (..., L_Q, d_k), (..., L_K, "
                         "d_k), (..., L_K, d_v), keep broadcasting to (..., L_Q, L_K)")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be an int >= 1, got {block!r}")
    keep, q = keep.expand(scores), q * q.shape[-1] ** -0.5
    m = torch.full((*scores[:-1], 1), -torch.inf, dtype=q.dtype)  # running max
    l, acc = torch.zeros_like(m), torch.zeros(*scores[:-1], v.shape[-1], dtype=q.dtype)
    for j in range(0, k.shape[-2], block):  # l: sum of exp(s - m), acc: that @ v
        b = slice(j, j + block)  # this block's keys
        s = (q @ k[..., b, :].mT).masked_fill(~keep[..., b], -torch.inf)
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        shift = torch.where(torch.isneginf(m_new), 0.0, m_new)  # no key yet: 0
        r, p = torch.exp(m - shift), torch.exp(s - shift)  # r rescales the old sums
        l, acc, m = l * r + p.sum(-1, keepdim=True), acc * r + p @ v[..., b, :], m_new
    out = acc / torch.where(l == 0, 1.0, l)  # no key at all: l = 0 and out = 0
    return out, (m + torch.log(l)).squeeze(-1)  # lse: -inf for a row with no key


# --- demo: 2 heads, 5 queries, 7 keys; query 0 sees no key ---
torch.manual_seed(0)
q, k, v = torch.randn(2, 5, 4), torch.randn(2, 7, 4) * 3, torch.randn(2, 7, 3)
keep = torch.arange(7) <= torch.tensor([-1, 2, 3, 4, 5])[:, None]  # True = take part
sdpa = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=keep)
gaps = [(online_attention(q, k, v, keep, b)[0] - sdpa).abs().max() for b in range(1, 9)]
print(f"row 0: {sdpa[0, 0].tolist()}\nmax |online - SDPA|: {max(gaps):.1e}")
