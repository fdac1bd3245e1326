def accepted_path(parents, node):
    """The tree indices from the first level down to node: the cache rows to keep."""
    n = len(parents)
    if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < n:
        raise ValueError(f"node must be an index in 0..{n - 1}, got {node!r}")
    path = []
    while node != -1:
        parent = parents[node]
        if not -1 <= parent < node:
            raise ValueError(f"parents[{node}] = {parent}: a parent must come before "
                             "its child, or be -1")
        path.append(node)
        node = parent
    return path[::-1]

def longest_accepted(parents, draft, target):
    """Deepest node whose path the target agrees with, or -1. draft[i]: node i's token;
    target[i + 1]: the target's token after node i, target[0]: after the cache."""
    if not len(draft) == len(parents) == len(target) - 1:
        raise ValueError(f"want len(draft) == len(parents) == len(target) - 1, got "
                         f"{len(draft)}, {len(parents)}, {len(target)}")
    best, length = -1, {-1: 0}
    for i, p in enumerate(parents):
        accepted_path(parents, i)  # refuses a bad parents[i]
        if p in length and draft[i] == target[p + 1]:  # its parent was accepted
            length[i] = length[p] + 1
            best = i if length[i] > length[best] else best
    return best

# --- demo: the target's greedy tokens after the cache and after each node ---
parents = [-1, -1, 0, 0, 1, 2, 4]
draft = [7, 9, 4, 2, 5, 8, 3]  # node i proposes token draft[i]
target = [7, 4, 1, 6, 6, 0, 3, 6]  # after the cache: 7 (node 0), after node 0: 4 ...
node = longest_accepted(parents, draft, target)
keep = accepted_path(parents, node)  # tree rows of the KV cache to keep, in order
bonus = target[node + 1]  # the target's own next token, after the accepted path
print("accepted node:", node, "path:", keep, "tokens:", [draft[i] for i in keep])
print("bonus token:", bonus)
