import torch
import torch.nn.functional as F


def attend_cached(q, k, v, cached_k, cached_v):
    """New tokens' q, k (..., n, d_k), v (..., n, d_v) after cached keys and values
    (..., p, d_k), (..., p, d_v): the queries are the last n of p + n positions."""
    shapes = [tuple(t.shape) for t in (q, k, v, cached_k, cached_v)]
    if q.shape != k.shape or k.shape[:-1] != v.shape[:-1] or q.dim() < 2 \
            or cached_k.shape[:-1] != cached_v.shape[:-1] \
            or cached_k.shape[:-2] != k.shape[:-2] \
            or (cached_k.shape[-1], cached_v.shape[-1]) != (k.shape[-1], v.shape[-1]):
        raise ValueError(f"q, k, v, cached_k, cached_v {shapes}: want (..., n, d_k) "
                         "twice, (..., n, d_v), (..., p, d_k), (..., p, d_v)")
    keys, values = torch.cat([cached_k, k], dim=-2), torch.cat([cached_v, v], dim=-2)
    n, total = q.shape[-2], keys.shape[-2]
    keep = torch.ones(n, total, dtype=torch.bool).tril(total - n)  # chunk_mask(n, p)
    return F.scaled_dot_product_attention(q, keys, values, attn_mask=keep)


# --- demo: one system prompt of 12 tokens, two requests that go on with 3 and 5 ---
g = torch.Generator().manual_seed(0)  # one attention layer: d_model 8, W_Q, W_K, W_V
w_q, w_k, w_v = (torch.randn(8, 8, generator=g) / 8**0.5 for _ in range(3))
prefix = torch.randn(12, 8, generator=g)
suffixes = [torch.randn(n, 8, generator=g) for n in (3, 5)]
p_k, p_v = prefix @ w_k, prefix @ w_v  # the prefix's keys and values: computed once
gaps = []
for s in suffixes:
    shared = attend_cached(s @ w_q, s @ w_k, s @ w_v, p_k, p_v)
    x = torch.cat([prefix, s])  # the request in full, its prefix computed again
    full = F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, is_causal=True)
    gaps.append((shared - full[len(prefix):]).abs().max().item())
p, lens = len(prefix), [len(s) for s in suffixes]
kept = {"in full": sum((p + n) * (p + n + 1) // 2 for n in lens),  # causal pairs
        "prefix cached": p * (p + 1) // 2 + sum(n * p + n * (n + 1) // 2 for n in lens)}
tokens = {"in full": sum(p + n for n in lens), "prefix cached": p + sum(lens)}
ratio = kept["prefix cached"] / kept["in full"]
print("max |shared prefix - full| per request:", [f"{x:.1e}" for x in gaps])
print(f"query-key pairs kept: {kept}, ratio {ratio:.3f}\ntokens run: {tokens}")
