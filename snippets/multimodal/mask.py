import torch


def image_blocks(token_type_ids):
    """(B, L) ints, 1 = image token, 0 = text -> block ids: -1 for text, and 0, 1, ...
    for each run of image tokens in a row, as Gemma 3 numbers them."""
    t = token_type_ids
    if not isinstance(t, torch.Tensor) or t.dim() != 2 or t.is_floating_point() \
            or t.dtype == torch.bool or t.is_complex():
        raise ValueError(f"token_type_ids must be a 2-D integer tensor, got {t!r}")
    if ((t != 0) & (t != 1)).any():
        raise ValueError(f"token_type_ids must be 0 or 1, got {t.unique().tolist()}")
    starts = (t == 1) & (torch.nn.functional.pad(t, (1, 0))[:, :-1] == 0)
    return torch.where(t == 1, starts.cumsum(1) - 1, -1)


def multimodal_mask(blocks, window=None):
    """keep (B, L, L), True = query i sees key j: j <= i, or i and j in the same block
    (id >= 0); with a window, then AND j > i - window (Gemma 3's sliding layers)."""
    b = blocks
    if not isinstance(b, torch.Tensor) or b.dim() != 2 or b.is_floating_point() \
            or b.dtype == torch.bool or b.is_complex() or (b < -1).any():
        raise ValueError(f"blocks must be a 2-D integer tensor of ids >= -1, got {b!r}")
    if window is not None and (type(window) is not int or window < 1):
        raise ValueError(f"window must be None or an int >= 1, got {window!r}")
    i, j = torch.arange(b.shape[1])[:, None], torch.arange(b.shape[1])[None]
    same = (b[:, :, None] == b[:, None, :]) & (b[:, :, None] >= 0)
    keep = (j <= i) | same
    return keep if window is None else keep & (j > i - window)


# --- demo: 2 text tokens, an image of 4, 2 text tokens; a window of 3 ---
types, W = torch.tensor([[0, 0, 1, 1, 1, 1, 0, 0]]), 3
blocks = image_blocks(types)
masks = {"full": multimodal_mask(blocks)[0], "window": multimodal_mask(blocks, W)[0]}
print("blocks:", blocks[0].tolist())
for name, keep in masks.items():
    print(name)
    print("\n".join("".join("■" if x else "⬚" for x in row) for row in keep))
