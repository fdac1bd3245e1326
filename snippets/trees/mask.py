import torch


def check_parents(parents):
    """parents[i]: node i's parent, earlier in the list; -1: the cache's last token."""
    if isinstance(parents, torch.Tensor):
        parents = parents.tolist()
    if len(parents) == 0:
        raise ValueError("a tree needs at least one node, got parents = []")
    for i, p in enumerate(parents):
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"parents[{i}] must be an int, got {type(p).__name__}")
        if not -1 <= p < len(parents):
            raise ValueError(f"parents[{i}] = {p} is not in -1..{len(parents) - 1}")
        if p >= i:
            raise ValueError(f"parents[{i}] = {p}: a parent must come before its child")
    return list(parents)

def ancestor_mask(parents):
    """(N, N) keep-mask: node i sees node j if j is i or one of i's ancestors."""
    parents = check_parents(parents)
    keep = torch.eye(len(parents), dtype=torch.bool)
    for i, p in enumerate(parents):
        if p != -1:
            keep[i] |= keep[p]  # the parent's row is complete: it came first
    return keep

def tree_depths(parents):
    """Each node's depth: 0 for a child of the cache, its parent's depth + 1 below."""
    depth = []
    for p in check_parents(parents):
        depth.append(0 if p == -1 else depth[p] + 1)
    return torch.tensor(depth)

# --- demo: seven draft tokens after the cache, breadth-first ---
parents = [-1, -1, 0, 0, 1, 2, 4]
keep, depth = ancestor_mask(parents), tree_depths(parents)
grid = [["■" if x else "⬚" for x in row] for row in keep.tolist()]
print(*("".join(row) for row in grid), sep="\n")
print("depth:", depth.tolist())
