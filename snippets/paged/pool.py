import torch


def scatter_kv(pool_k, pool_v, block_table, k, v):
    """Write a sequence's (length, ...) keys and values into its pages, in order:
    token t goes to page block_table[t // P], slot t % P (P tokens a page)."""
    n_pages, page_size = pool_k.shape[:2]
    table = torch.as_tensor(block_table, dtype=torch.long)
    if len(table) * page_size < len(k):
        raise ValueError(f"a block table of {len(table)} pages holds "
                         f"{len(table) * page_size} tokens, fewer than {len(k)}")
    if ((table < 0) | (table >= n_pages)).any():
        raise ValueError(f"block table {table.tolist()} names a page outside "
                         f"the pool's pages 0..{n_pages - 1}")
    t = torch.arange(len(k))
    rows = table[t // page_size] * page_size + t % page_size  # in the flat pool
    pool_k.view(-1, *pool_k.shape[2:])[rows] = k
    pool_v.view(-1, *pool_v.shape[2:])[rows] = v


# --- demo: three sequences of 6, 9 and 3 tokens in one pool of 8 pages ---
P, n_pages, d = 4, 8, 2  # page size: P tokens a page
lengths = {"A": 6, "B": 9, "C": 3}
tables = {"A": [5, 1], "B": [0, 3, 6], "C": [4]}  # logical block i -> page
g = torch.Generator().manual_seed(0)
pool_k, pool_v = torch.zeros(2, n_pages, P, d)
for name, n in lengths.items():
    scatter_kv(pool_k, pool_v, tables[name], *torch.randn(2, n, d, generator=g))
owner = {page: (s, i) for s, table in tables.items() for i, page in enumerate(table)}
free = [page for page in range(n_pages) if page not in owner]
unused = [len(tables[s]) * P - n for s, n in lengths.items()]  # last page's tail
for page in range(n_pages):  # page | its slots | whose tokens it holds
    s, i = owner.get(page, (None, 0))
    used = min(P, lengths[s] - i * P) if s else 0
    first, last = i * P, i * P + used - 1  # the tokens this page holds
    span = f"{s} {first}–{last}" if last > first else f"{s} {first}" if s else ""
    print(f"{page} │ {' '.join('■' * used + '⬚' * (P - used))} │ {span}".rstrip())
