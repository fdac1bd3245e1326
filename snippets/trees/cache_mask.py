import torch


def tree_attention_mask(parents, cache_len):
    """(N, cache_len + N) keep-mask: each node sees the cache, itself, its ancestors."""
    if isinstance(cache_len, bool) or not isinstance(cache_len, int) or cache_len < 0:
        raise ValueError(f"cache_len must be an int >= 0, got {cache_len!r}")
    parents = parents.tolist() if isinstance(parents, torch.Tensor) else list(parents)
    n = len(parents)
    if n == 0:
        raise ValueError("a tree needs at least one node, got parents = []")
    keep = torch.zeros(n, cache_len + n, dtype=torch.bool)
    keep[:, :cache_len] = True  # the cached prefix: seen by every node
    for i, p in enumerate(parents):
        if isinstance(p, bool) or not isinstance(p, int) or not -1 <= p < n:
            raise ValueError(f"parents[{i}] = {p!r} is not a node index in -1..{n - 1}")
        if p >= i:
            raise ValueError(f"parents[{i}] = {p}: a parent must come before its child")
        keep[i, cache_len + i] = True
        if p != -1:
            keep[i, cache_len:] |= keep[p, cache_len:]  # row p is complete already
    return keep

# --- demo: draw.py's tree after 3 cached tokens; a chain; a depth-first order ---
parents, cache_len = [-1, -1, 0, 0, 1, 2, 4], 3
keep = tree_attention_mask(parents, cache_len)
depth = keep[:, cache_len:].sum(dim=-1) - 1  # ancestors seen, itself not counted
position_ids = cache_len + depth  # the cache holds positions 0..2
chain = tree_attention_mask([-1, 0, 1, 2], cache_len)  # each node the next one's parent
bottom_right = torch.ones(4, cache_len + 4, dtype=torch.bool).tril(cache_len)
chain_is_causal = torch.equal(chain, bottom_right)
order = [0, 2, 5, 3, 1, 4, 6]  # the same tree, listed depth-first; at: new index
at = {old: new for new, old in enumerate(order)}
dfs = [-1 if parents[i] == -1 else at[parents[i]] for i in order]
cols = list(range(cache_len)) + [cache_len + i for i in order]
same_tree = torch.equal(tree_attention_mask(dfs, cache_len), keep[order][:, cols])
print(keep.int())
print("position_ids:", position_ids.tolist())
print("chain = bottom-right causal:", chain_is_causal)
print("depth-first order, the same mask:", same_tree)
