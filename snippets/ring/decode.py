import torch


def ring_decode(q, k, v, window, sinks=0, mask_empty=True):
    """Decode one token at a time through a cache of sinks + window slots: token t
    writes its key and value into its slot, then its query reads the cache, with the
    slots not written yet masked (unless mask_empty=False). q, k, v: (L, d)."""
    if q.dim() != 2 or q.shape != k.shape or k.shape != v.shape:
        raise ValueError(f"q, k, v must be (L, d) alike, got {q.shape}, {k.shape}, "
                         f"{v.shape}")
    if window < 1 or sinks < 0:
        raise ValueError(f"need window >= 1 and sinks >= 0, got {window}, {sinks}")
    size, d = sinks + window, q.shape[1]
    cache_k, cache_v = q.new_zeros(size, d), q.new_zeros(size, d)  # a fresh buffer
    written, out = torch.zeros(size, dtype=torch.bool), []
    for t in range(len(q)):
        slot = t if t < sinks else sinks + (t - sinks) % window
        cache_k[slot], cache_v[slot], written[slot] = k[t], v[t], True
        scores = cache_k @ q[t] / d**0.5
        scores = scores.masked_fill(~written, -torch.inf) if mask_empty else scores
        out.append(scores.softmax(-1) @ cache_v)
    return torch.stack(out)


# --- demo: 10 tokens; a window of 4, with no sinks and with 2 ---
g, L, W, d, SINKS = torch.Generator().manual_seed(0), 10, 4, 8, (0, 2)
q, k, v = (torch.randn(L, d, generator=g) for _ in range(3))
i, j, scores = torch.arange(L)[:, None], torch.arange(L)[None], q @ k.T / d**0.5
keep = {s: (j <= i) & ((i - j < W) | (j < s)) for s in SINKS}  # window_mask: mask.py
full = {s: scores.masked_fill(~keep[s], -torch.inf).softmax(-1) @ v for s in SINKS}
gap = {s: (ring_decode(q, k, v, W, s) - full[s]).abs().max().item() for s in SINKS}
unmasked = (ring_decode(q, k, v, W, mask_empty=False) - full[0]).abs().amax(-1)
wrong_rows = [t for t, e in enumerate(unmasked.tolist()) if e > 1e-6]
print({s: e < 1e-6 for s, e in gap.items()}, f"{wrong_rows=}")
