import torch

INT_DTYPES = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def padding_mask(lengths, max_len=None):
    """Keep-mask (B, L): True = real token, False = [PAD]. Row b keeps lengths[b]."""
    if isinstance(lengths, (list, tuple)):
        lengths = torch.tensor(lengths, dtype=None if lengths else torch.long)
    # torch._check_type / torch._check_value: raise a type / value exception if False
    torch._check_type(isinstance(lengths, torch.Tensor),
                      lambda: f"lengths must be a tensor or list, got {type(lengths)}")
    torch._check_type(lengths.dtype in INT_DTYPES,
                      lambda: f"lengths must hold integers, got dtype {lengths.dtype}")
    torch._check_value(lengths.dim() == 1 and len(lengths) > 0,
                       lambda: f"lengths must be 1-D (B,), B >= 1, got {lengths.shape}")
    i = int(lengths.argmin())
    torch._check_value(bool(lengths[i] >= 0),
                       lambda: f"lengths[{i}] = {lengths[i]} is negative")
    if max_len is None:
        max_len = max(int(lengths.max()), 1)  # all-empty batch: one [PAD] column
    torch._check_type(type(max_len) is int,
                      lambda: f"max_len must be an int, got {type(max_len)}")
    torch._check_value(max_len >= 1, lambda: f"max_len must be >= 1, got {max_len}")
    j = int(lengths.argmax())
    torch._check_value(bool(lengths[j] <= max_len),
                       lambda: f"lengths[{j}] = {lengths[j]} > max_len = {max_len}")
    return torch.arange(max_len, device=lengths.device) < lengths[:, None]


keep = padding_mask([2, 5, 3])
print(keep)
wider = padding_mask(torch.tensor([2, 5, 3]), max_len=6)
print("max_len=6:", tuple(wider.shape), "True per row:", wider.sum(dim=-1).tolist())
