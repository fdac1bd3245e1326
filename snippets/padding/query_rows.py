import torch


def attend(x, keep, w_q, w_k, w_v):  # x: (B, L, d), keep: (B, L) True = real token
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5  # (B, L_Q, L_K)
    scores = scores.masked_fill(~keep[:, None, :], float("-inf"))  # hide [PAD] keys
    return torch.softmax(scores, dim=-1) @ v


# --- demo ---
torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3])
B, L, d = len(lengths), int(lengths.max()), 4
keep = torch.arange(L) < lengths[:, None]
x = torch.randn(B, L, d)
x[~keep] = torch.randn(d)  # every [PAD] has the same embedding
w_q, w_k, w_v = torch.randn(3, d, d)
out = attend(x, keep, w_q, w_k, w_v)  # (B, L_Q, d): one row per query, [PAD] too
torch.set_printoptions(precision=4, sci_mode=False)
print(out[0])  # sentence 0: two real rows, then three [PAD] rows

# each sentence on its own, with no padding at all
alone = [attend(x[b : b + 1, :n], keep[b : b + 1, :n], w_q, w_k, w_v)[0]
         for b, n in enumerate(lengths.tolist())]
real_same = all(torch.allclose(out[b, :n], a, atol=1e-6)  # up to float rounding
                for b, (n, a) in enumerate(zip(lengths.tolist(), alone)))
print("real rows equal the sentence alone:", real_same)
pad_norms = out[~keep].norm(dim=-1)  # [PAD] query rows are not zero
print("norms of the [PAD] rows:", pad_norms)

both = keep[:, :, None] & keep[:, None, :]  # (B, L_Q, L_K): hide [PAD] rows too
scores = (x @ w_q) @ (x @ w_k).transpose(-2, -1) / d**0.5
hidden = torch.softmax(scores.masked_fill(~both, float("-inf")), dim=-1)
nan_rows = int(hidden.isnan().any(dim=-1).sum())
print("NaN rows when the [PAD] query rows are hidden too:", nan_rows)
