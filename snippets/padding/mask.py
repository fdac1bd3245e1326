import torch


def padding_mask(lengths, max_len=None):
    """Keep-mask (B, L): True = real token, False = [PAD]. Row b keeps lengths[b]."""
    if isinstance(lengths, (list, tuple)):
        lengths = torch.tensor(lengths, dtype=None if lengths else torch.long)
    if not isinstance(lengths, torch.Tensor):
        raise TypeError(f"lengths must be a tensor or list, got {type(lengths)}")
    if lengths.is_floating_point() or lengths.dtype == torch.bool:
        raise TypeError(f"lengths must hold integers, got dtype {lengths.dtype}")
    if lengths.dim() != 1 or len(lengths) == 0:
        raise ValueError(f"lengths must be 1-D (B,), B >= 1, got {lengths.shape}")
    if (lengths < 0).any():
        i = int(lengths.argmin())
        raise ValueError(f"lengths[{i}] = {lengths[i]} is negative")
    if max_len is None:
        max_len = max(int(lengths.max()), 1)  # all-empty batch: one [PAD] column
    if type(max_len) is not int:
        raise TypeError(f"max_len must be an int, got {type(max_len)}")
    if max_len < 1:
        raise ValueError(f"max_len must be >= 1, got {max_len}")
    if (lengths > max_len).any():
        j = int(lengths.argmax())
        raise ValueError(f"lengths[{j}] = {lengths[j]} > max_len = {max_len}")
    return torch.arange(max_len, device=lengths.device) < lengths[:, None]


# --- demo ---
keep = padding_mask([2, 5, 3])
print(keep)
wider = padding_mask(torch.tensor([2, 5, 3]), max_len=6)
print("max_len=6:", tuple(wider.shape), "True per row:", wider.sum(dim=-1).tolist())
calls, errors = [([2.0, 1.0],), ([[2, 3]],), ([2, -1, 3],), ([2, 7, 3], 5)], []
for args in calls:  # bad inputs: the arguments of each call
    try:
        padding_mask(*args)
    except (TypeError, ValueError) as error:
        errors.append(f"{type(error).__name__}: {error}")
        print(f"padding_mask({', '.join(map(str, args))}) -> {errors[-1]}")
