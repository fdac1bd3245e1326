# The draft tree as text: parents[i] is node i's parent, -1 the cache's last token
parents, cache_len = [-1, -1, 0, 0, 1, 2, 4], 3
children = {p: [i for i, q in enumerate(parents) if q == p] for p in [-1, *parents]}
lines = [f"cache ({cache_len} tokens)"]
stack = [(c, "", c == children[-1][-1]) for c in reversed(children[-1])]
while stack:  # depth-first, first child on top
    node, indent, last = stack.pop()
    lines.append(f"{indent}{'└' if last else '├'}── {node}")
    kids, indent = children.get(node, []), indent + ("    " if last else "│   ")
    stack += [(c, indent, c == kids[-1]) for c in reversed(kids)]
leaves = [i for i in range(len(parents)) if i not in parents]
print(*lines, sep="\n")
print("leaves:", leaves)
