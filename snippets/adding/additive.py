import torch


def additive_mask(keep, dtype=torch.float32, fill=None):
    """Boolean keep-mask (True = may attend) -> 0 where kept, fill (-inf) elsewhere."""
    if not isinstance(keep, torch.Tensor) or keep.dtype != torch.bool:
        got = keep.dtype if isinstance(keep, torch.Tensor) else type(keep).__name__
        raise TypeError(f"keep must be a torch.bool tensor (True = keep), got {got}")
    if not (isinstance(dtype, torch.dtype) and dtype.is_floating_point):
        raise TypeError(f"dtype must be a floating dtype, got {dtype}")
    fill = float("-inf") if fill is None else float(fill)
    stored = torch.tensor(fill, dtype=dtype)  # -1e9 in float16 would become -inf
    if not fill < 0 or (stored.isinf() and fill != float("-inf")):
        raise ValueError(f"fill must be -inf or a negative number {dtype} can hold, "
                         f"got {fill:g}; torch.finfo(dtype).min is the safe finite one")
    zeros = torch.zeros(keep.shape, dtype=dtype, device=keep.device)
    return zeros.masked_fill(~keep, fill)


def apply_mask(scores, keep, fill=None):
    """scores + additive_mask(keep); keep must broadcast to the shape of scores."""
    mask = additive_mask(keep, scores.dtype, fill)
    try:
        fits = torch.broadcast_shapes(keep.shape, scores.shape) == scores.shape
    except RuntimeError:
        fits = False
    if not fits:
        raise ValueError(f"keep-mask shape {tuple(keep.shape)} does not broadcast to "
                         f"scores shape {tuple(scores.shape)}")
    return scores + mask


# --- demo ---
keep = torch.tensor([True, True, True, False, False])  # True = may attend
S = torch.tensor([[2.0, 0.0, -1.0, 1.5, 0.5], [0.5, 1.0, -0.5, -2.0, 1.0]])
print(additive_mask(keep))
print(additive_mask(keep, torch.float16, fill=torch.finfo(torch.float16).min))
weights = torch.softmax(apply_mask(S, keep), dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(weights)
