import torch
import torch.nn.functional as F


def new_cache(capacity, d, dtype=torch.float32):
    """An empty KV cache: zeroed (capacity, d) keys and values, none filled yet."""
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
        raise ValueError(f"capacity must be a positive int, got {capacity!r}")
    k, v = torch.zeros(2, capacity, d, dtype=dtype)
    return {"k": k, "v": v, "length": 0}

def append(cache, k, v):
    """Write (n, d) keys and values after the filled rows; return all filled."""
    (cap, d), dtype, start = cache["k"].shape, cache["k"].dtype, cache["length"]
    if k.dtype != dtype or v.dtype != dtype:
        raise TypeError(f"k is {k.dtype}, v is {v.dtype}: the cache holds {dtype}")
    if k.dim() != 2 or k.shape != v.shape or k.shape[1] != d:
        raise ValueError(f"k {tuple(k.shape)}, v {tuple(v.shape)}: want (n, {d})")
    end = start + len(k)
    if end > cap:
        raise ValueError(f"cache overflow: {start} + {len(k)} > {cap} rows")
    cache["k"][start:end], cache["v"][start:end], cache["length"] = k, v, end
    return cache["k"][:end], cache["v"][:end]

def decode_step(x, cache, w_q, w_k, w_v):
    """x (n, d_model): the next n tokens, so their queries are the last n positions."""
    keys, values = append(cache, x @ w_k, x @ w_v)
    keep = torch.ones(len(x), len(keys), dtype=torch.bool).tril(len(keys) - len(x))
    return F.scaled_dot_product_attention(x @ w_q, keys, values, attn_mask=keep)

# --- demo: prefill 4 tokens, decode 4 one by one; one causal pass over all 8 ---
steps, diffs = [(0, 4), (4, 5), (5, 6), (6, 7), (7, 8)], {}  # tokens of each step
for dtype in (torch.float32, torch.float64):
    g = torch.Generator().manual_seed(0)  # 8 tokens x, then W_Q, W_K, W_V (d_model 6)
    x, *w = (torch.randn(n, 6, generator=g, dtype=dtype) / 6**0.5 for n in (8, 6, 6, 6))
    full = F.scaled_dot_product_attention(*(x @ m for m in w), is_causal=True)
    cache = new_cache(8, 6, dtype)
    gap = [(decode_step(x[a:b], cache, *w) - full[a:b]).abs().max() for a, b in steps]
    diffs[str(dtype)[6:]] = torch.stack(gap)
print({name: d.tolist() for name, d in diffs.items()})
