import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa


def new_page(cache):  # a page no sequence holds, now held once
    free = (cache["refs"] == 0).nonzero().flatten().tolist()
    if not free: raise ValueError(f"no free page: all {len(cache['refs'])} are in use")
    cache["refs"][free[0]] = 1
    return free[0]

def append(cache, seq, kv):  # kv: (2, ...), one token's key and value, after the last
    table, n = cache["tables"].get(seq, []), cache["lengths"].get(seq, 0)
    if n % cache["kv"].shape[1] == 0:  # the last page is full, or there is none
        table.append(new_page(cache))
    elif cache["refs"][table[-1]] > 1:  # partly filled and shared: copy on write
        old, table[-1] = table[-1], new_page(cache)
        cache["refs"][old] -= 1
        cache["kv"][table[-1]] = cache["kv"][old]
    cache["kv"][table[-1], n % cache["kv"].shape[1]] = kv
    cache["tables"][seq], cache["lengths"][seq] = table, n + 1  # all went well

def fork(cache, parent, child):  # child goes on from parent's tokens: nothing copied
    cache["tables"][child] = list(cache["tables"][parent])
    cache["lengths"][child] = cache["lengths"][parent]
    cache["refs"][cache["tables"][child]] += 1

# --- demo: A holds a prompt of 6 tokens; B forks A; each appends a token of its own ---
P, d, g = 4, 8, torch.Generator().manual_seed(0)
cache = {"kv": torch.zeros(8, P, 2, d), "refs": torch.zeros(8, dtype=torch.long),
         "tables": {}, "lengths": {}}  # kv: 8 pages of P (key, value) slots
own = dict.fromkeys("AB", torch.randn(6, 2, d, generator=g))  # each one's own K, V
for kv in own["A"]: append(cache, "A", kv)
fork(cache, "A", "B")
before = {s: t[:] for s, t in cache["tables"].items()}, cache["refs"].tolist()
for s in "AB": own[s] = torch.cat([own[s], torch.randn(1, 2, d, generator=g)])
for s in "AB": append(cache, s, own[s][-1])  # A first: it copies the shared page
after = {s: t[:] for s, t in cache["tables"].items()}, cache["refs"].tolist()
q = torch.randn(1, d, generator=g)  # then one decode step for each, from its pages
gap = {s: (sdpa(q, *cache["kv"][t].flatten(0, 1)[:7].unbind(1)) - sdpa(
    q, *own[s].unbind(1))).abs().max().item() for s, t in after[0].items()}
