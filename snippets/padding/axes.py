import torch

torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3])
B, H, L = len(lengths), 2, int(lengths.max())
keep = torch.arange(L) < lengths[:, None]  # (B, L): True = real token
scores = torch.randn(B, H, L, L)  # (B, H, L_Q, L_K)

right = keep[:, None, None, :]  # (B, 1, 1, L_K): hides [PAD] *keys* (columns)
wrong = keep[:, None, :, None]  # (B, 1, L_Q, 1): hides [PAD] *queries* (rows)
w_right = torch.softmax(scores.masked_fill(~right, float("-inf")), dim=-1)
w_wrong = torch.softmax(scores.masked_fill(~wrong, float("-inf")), dim=-1)

torch.set_printoptions(precision=4, sci_mode=False)
print(w_wrong[0, 0])  # sentence 0 (length 2), head 0
nan_rows = int(w_wrong.isnan().any(dim=-1).sum())
print("NaN rows with (B, 1, L, 1):", nan_rows, "of", B * H * L)
pad_keys = ~keep[:, None, None, :].expand(B, H, L, L)
leak = w_wrong[pad_keys & ~w_wrong.isnan()].max().item()
print("largest weight on a [PAD] key, wrong axis:", round(leak, 4))
print("largest weight on a [PAD] key, right axis:", w_right[pad_keys].max().item())
