import torch

torch.manual_seed(0)  # the padding chapter's batch: lengths 2, 5 and 3
lengths = torch.tensor([2, 5, 3])
B, H, L = len(lengths), 2, int(lengths.max())
keep = torch.arange(L) < lengths[:, None]  # (B, L): True = real token
scores = torch.randn(B, H, L, L)  # (B, H, L_Q, L_K)
pad_keys = ~keep[:, None, None, :].expand(B, H, L, L)  # cells whose key is [PAD]

# wrong: (B, 1, L, 1) lines the mask up with the QUERY axis (rows)
wrong = torch.softmax(scores.masked_fill(~keep[:, None, :, None], float("-inf")), -1)
# fixed: (B, 1, 1, L) lines it up with the KEY axis (columns)
fixed = torch.softmax(scores.masked_fill(~keep[:, None, None, :], float("-inf")), -1)

nan_rows = [int(w.isnan().any(dim=-1).sum()) for w in (wrong, fixed)]
leak = [w[pad_keys & ~w.isnan()].max().item() for w in (wrong, fixed)]  # on [PAD] keys
# the query axis (wrong), then the key axis (fixed)
masks = ["keep[:, None, :, None]", "keep[:, None, None, :]"]
shapes = ["(B, 1, L_Q, 1)", "(B, 1, 1, L_K)"]
for i, mask in enumerate(masks):
    print(f"{mask} → {shapes[i]}: NaN rows {nan_rows[i]} of {B * H * L}, "
          f"largest weight on a [PAD] key {leak[i]:.4f}")
