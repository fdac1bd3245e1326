import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa


def check(block_table, length, page_size, n_pages=None):  # the table, or a ValueError
    if page_size <= 0: raise ValueError(f"page_size must be > 0, got {page_size}")
    if length < 0: raise ValueError(f"length must be >= 0, got {length}")
    table = torch.as_tensor(block_table, dtype=torch.long).reshape(-1)
    if len(table) * page_size < length:
        raise ValueError(f"a block table of {len(table)} pages holds "
                         f"{len(table) * page_size} tokens, fewer than length {length}")
    if n_pages is not None and ((table < 0) | (table >= n_pages)).any():
        raise ValueError(f"block table {table.tolist()} names a page outside "
                         f"the pool's pages 0..{n_pages - 1}")
    return table

def gather_kv(pool_k, pool_v, block_table, length):
    """(n_pages, P, ...) pools -> the sequence's (length, ...) keys and values."""
    table = check(block_table, length, pool_k.shape[1], len(pool_k))
    return pool_k[table].flatten(0, 1)[:length], pool_v[table].flatten(0, 1)[:length]

def paged_mask(block_table, length, page_size):
    """Keep-mask over every slot of the sequence's pages: False on the unused tail."""
    table = check(block_table, length, page_size)
    return torch.arange(len(table) * page_size) < length


# --- demo: one decode step for a sequence of 10 tokens in pages 6, 2, 5 ---
P, n, table, d = 4, 10, [6, 2, 5], 8
g = torch.Generator().manual_seed(0)
pool_k, pool_v = torch.randn(2, 8, P, d, generator=g) * 3  # other sequences' stale K/V
q, (k, v) = torch.randn(1, d, generator=g), torch.randn(2, n, d, generator=g)
page, slot = torch.tensor(table)[torch.arange(n) // P], torch.arange(n) % P  # token t's
pool_k[page, slot], pool_v[page, slot] = k, v  # the sequence, written into its pages
keep = paged_mask(table, n, P)  # 12 slots in 3 pages; the last 2 are the unused tail
out = {"gather_kv": sdpa(q, *gather_kv(pool_k, pool_v, table, n)), "paged_mask": sdpa(
    q, pool_k[table].flatten(0, 1), pool_v[table].flatten(0, 1), attn_mask=keep)}
gap = {name: (o - sdpa(q, k, v)).abs().max().item() for name, o in out.items()}
print(f"keep: {keep.int().tolist()}\nlargest gap from the contiguous cache:",
      {name: round(x, 4) for name, x in gap.items()})
