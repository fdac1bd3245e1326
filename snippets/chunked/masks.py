import torch


def chunk_mask(chunk_len, cached_len):
    """(chunk_len, cached_len + chunk_len) keep-mask of a prefill chunk: its queries
    are the last chunk_len positions: each sees all cached keys, its chunk causally."""
    for name, n, least in [("chunk_len", chunk_len, 1), ("cached_len", cached_len, 0)]:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"{name} must be an int, got {type(n).__name__}")
        if n < least:
            raise ValueError(f"{name} must be at least {least}, got {n}")
    total = cached_len + chunk_len  # bottom-right: the diagonal shifts by cached_len
    return torch.ones(chunk_len, total, dtype=torch.bool).tril(cached_len)


# --- demo: a prompt of 8 tokens prefilled in chunks of 3: tokens 0-2, 3-5, 6-7 ---
L, C = 8, 3
starts = list(range(0, L, C))  # tokens cached before each chunk
masks = [chunk_mask(min(C, L - s), s) for s in starts]
grids = [[["■" if x else "⬚" for x in row] for row in m.tolist()] for m in masks]
queries = [[f"q{s + i}" for i in range(len(m))] for s, m in zip(starts, masks)]
keys = [[f"k{j}" for j in range(m.shape[1])] for m in masks]
for s, grid in zip(starts, grids):
    print(f"chunk after {s} cached tokens:")
    print(*("".join(row) for row in grid), sep="\n")
# the chunks' rows, each padded with False to L keys, stack up to the full causal mask
padded = [torch.cat([m, m.new_zeros(len(m), L - m.shape[1])], dim=1) for m in masks]
stacks_to_causal = torch.equal(torch.cat(padded), torch.ones(L, L).tril().bool())
print("stacked chunk masks == full causal mask:", stacks_to_causal)
