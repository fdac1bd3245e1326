import torch


def kinds():  # each convention: its name and element type
    return dict(keep=bool, hide=bool, additive=float, finfo_min=float, hf=int,
                keras=int)


def to_keep(m, kind):
    """A mask m in convention `kind` -> bool keep (True = takes part), checked."""
    if kind not in kinds():
        raise ValueError(f"unknown convention {kind!r}: one of {list(kinds())}")
    t = float if m.is_floating_point() else int if m.dtype != torch.bool else bool
    if t != kinds()[kind]:
        raise TypeError(f"a {kind!r} mask is {kinds()[kind].__name__}, not {m.dtype}")
    o = 1 if t is not float else -torch.inf if kind == "additive" else torch.finfo(
        m.dtype).min  # the one value allowed beside 0
    if not (m.eq(0) | m.eq(o)).all():
        raise ValueError(f"{kind!r} holds 0 and {o} only: {m.unique().tolist()}")
    return ~m if kind == "hide" else m.eq(0) if t is float else m.bool()


def from_keep(keep, kind, dtype=torch.float32):
    """Bool keep -> convention `kind`; the float ones in `dtype`."""
    if keep.dtype != torch.bool or kind not in kinds() or not dtype.is_floating_point:
        raise ValueError(f"want bool, kinds(), float: {keep.dtype} {kind!r} {dtype}")
    fill = -torch.inf if kind == "additive" else torch.finfo(dtype).min
    return {"keep": keep, "hide": ~keep, "hf": keep.long(), "keras": keep.int()}.get(
        kind, torch.zeros(keep.shape, dtype=dtype).masked_fill(~keep, fill))


# --- demo ---
keep = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()  # the probe's
made, errors = {kind: from_keep(keep, kind, torch.float16) for kind in kinds()}, []
for mask, kind in [(2 * made["finfo_min"], "finfo_min"), (made["additive"], "keras")]:
    try:
        to_keep(mask, kind)  # bad inputs: each raises, naming the problem
    except (TypeError, ValueError) as error:
        errors.append(f"{type(error).__name__}: {error}")
print(*(f"{kind}: {m[0].tolist()}" for kind, m in made.items()), *errors, sep="\n")
