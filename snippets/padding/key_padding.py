import torch

torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3])  # three sentences: 2, 5 and 3 tokens
B, H, L, d_k = len(lengths), 2, int(lengths.max()), 8
keep = torch.arange(L) < lengths[:, None]  # (B, L): True = real token
q, k = torch.randn(B, H, L, d_k), torch.randn(B, H, L, d_k)
scores = q @ k.transpose(-2, -1) / d_k**0.5  # (B, H, L_Q, L_K)

key_keep = keep[:, None, None, :]  # (B, 1, 1, L_K): one row per sentence
masked = scores.masked_fill(~key_keep, float("-inf"))  # True in ~key_keep = masked
weights = torch.softmax(masked, dim=-1)
print("scores  ", tuple(scores.shape))
print("key_keep", tuple(key_keep.shape))
print("masked  ", tuple(masked.shape))
torch.set_printoptions(precision=4, sci_mode=False)
print(weights[0, 0])  # sentence 0 (length 2), head 0
pad_weight = weights.masked_select(~key_keep)  # every weight on a [PAD] key
print("largest weight on a [PAD] key:", pad_weight.max().item())
rows_sum_to_one = torch.allclose(weights.sum(dim=-1), torch.ones(B, H, L))
print("every row sums to 1:", rows_sum_to_one)
