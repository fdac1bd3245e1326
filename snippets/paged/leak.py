import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa

# Page 3 held an old sequence's first 4 tokens. The old sequence ended and its pages
# went back to the free list, unerased. A new sequence of 6 tokens then got pages
# 4 and 3, so its last page holds 2 new tokens and, behind them, 2 of the old ones.
P, d = 4, 8
g = torch.Generator().manual_seed(0)
pool_k, pool_v = torch.zeros(2, 6, P, d)
kv = {}  # each sequence's own keys and values, in order
for name, table, n in [("old", [3, 1], 8), ("new", [4, 3], 6)]:
    kv[name] = k, v = torch.randn(2, n, d, generator=g)
    t = torch.arange(n)  # token t: page table[t // P], slot t % P
    pool_k[torch.tensor(table)[t // P], t % P] = k
    pool_v[torch.tensor(table)[t // P], t % P] = v
q = torch.randn(1, d, generator=g)  # the new sequence's next query
keys, values = pool_k[table].flatten(0, 1), pool_v[table].flatten(0, 1)  # 8 slots
keep = torch.arange(len(keys)) < n  # the tail mask: slots 6, 7 are not the sequence's
out = {"tail masked": sdpa(q, keys, values, attn_mask=keep),
       "tail not masked": sdpa(q, keys, values)}
gap = {name: (o - sdpa(q, k, v)).abs().max().item() for name, o in out.items()}
weights = torch.softmax(q @ keys.T / d**0.5, dim=-1)[0]  # unmasked: who gets a share
stale = weights[~keep].sum().item()  # the share taken by the old sequence's tokens
tail_is_old = torch.equal(keys[~keep], kv["old"][0][2:4])  # old tokens 2 and 3
owners = ["new"] * (n % P) + ["old"] * (P - n % P)  # page 3, slot by slot
print("page 3 holds:", owners, "- the old tokens 2, 3:", tail_is_old)
print("largest gap from its own cache:", {s: round(x, 4) for s, x in gap.items()})
print(f"weight on the old tokens without the mask: {stale:.3f}")
