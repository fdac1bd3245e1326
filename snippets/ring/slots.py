def _count(name, n, least):
    if isinstance(n, bool) or not isinstance(n, int) or n < least:
        raise ValueError(f"{name} must be an int >= {least}, got {n!r}")


def ring_slot(position, window, sinks=0):
    """The slot that holds the token at `position` in a cache of sinks + window
    slots: the first `sinks` tokens keep slots 0 .. sinks - 1 for good; every later
    token takes its turn in the ring of `window` slots after them, over the token
    `window` positions before it."""
    _count("position", position, 0)
    _count("window", window, 1)
    _count("sinks", sinks, 0)
    if position < sinks:
        return position
    return sinks + (position - sinks) % window


def ring_positions(tokens, window, sinks=0):
    """The position each slot holds once `tokens` tokens are written (-1: empty)."""
    _count("tokens", tokens, 0)
    _count("window", window, 1)
    _count("sinks", sinks, 0)
    held = [-1] * (sinks + window)
    for p in range(tokens):
        held[ring_slot(p, window, sinks)] = p
    return held


# --- demo: a ring of 4 slots, 10 tokens decoded one at a time ---
W, L = 4, 10
history = [ring_positions(t + 1, W) for t in range(L)]  # after writing token t
cells = [[p if p >= 0 else "·" for p in row] for row in history]  # ·: empty
slot_of = [ring_slot(t, W) for t in range(L)]
print(f"{slot_of=}")
for t, row in enumerate(cells):
    print(f"t={t}", " ".join(f"{p:>2}" for p in row))
