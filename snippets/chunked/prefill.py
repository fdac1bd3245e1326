import torch
import torch.nn.functional as F


def chunked_prefill(q, k, v, sizes):
    """Causal attention of a prompt's q, k (..., L, d_k), v (..., L, d_v), prefilled in
    chunks of these sizes: a chunk's keys join the cache, then its queries attend."""
    if q.shape != k.shape or k.shape[:-1] != v.shape[:-1] or q.dim() < 2:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: "
                         "want (..., L, d_k), (..., L, d_k), (..., L, d_v)")
    left = q.shape[-2]  # tokens of the prompt not yet prefilled
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"a chunk size must be an int >= 1, got {size!r}")
        if size > left:
            raise ValueError(f"a chunk of {size} is longer than the {left} tokens left")
        left -= size
    if left:
        raise ValueError(f"the chunks {list(sizes)} leave {left} tokens of the prompt")
    bounds = torch.tensor([0, *sizes]).cumsum(0).tolist()  # where each chunk starts
    cache_k, cache_v, outs = k[..., :0, :], v[..., :0, :], []  # an empty KV cache
    for start, end in zip(bounds, bounds[1:]):
        cache_k = torch.cat([cache_k, k[..., start:end, :]], dim=-2)  # the cache grows
        cache_v = torch.cat([cache_v, v[..., start:end, :]], dim=-2)
        keep = torch.ones(end - start, end, dtype=torch.bool).tril(start)  # chunk_mask
        outs.append(F.scaled_dot_product_attention(q[..., start:end, :], cache_k,
                                                   cache_v, attn_mask=keep))
    return torch.cat(outs, dim=-2)


# --- demo: a prompt of 10 tokens, 2 heads, every chunk size from 1 to 10 ---
gaps = {}  # dtype -> per chunk size, the largest |chunked - one pass|
for dtype in (torch.float32, torch.float64):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 10, 8, generator=g, dtype=dtype) for _ in range(3))
    whole = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # one prefill
    sizes = {c: [c] * (10 // c) + [10 % c] * (10 % c > 0) for c in range(1, 11)}
    gap = [(chunked_prefill(q, k, v, s) - whole).abs().max() for s in sizes.values()]
    gaps[str(dtype)[6:]] = torch.stack(gap)
print({name: [f"{x:.1e}" for x in d.tolist()] for name, d in gaps.items()})
