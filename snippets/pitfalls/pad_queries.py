import torch
import torch.nn.functional as F


def attend(x, keep, w_q, w_k, w_v):  # x: (B, L, d), keep: (B, L) True = real token
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5  # (B, L_Q, L_K)
    scores = scores.masked_fill(~keep[:, None, :], float("-inf"))  # hide [PAD] keys
    return torch.softmax(scores, dim=-1) @ v


torch.manual_seed(0)  # the padding chapter's batch: lengths 2, 5 and 3
lengths = torch.tensor([2, 5, 3])
B, L, d = len(lengths), int(lengths.max()), 4
keep = torch.arange(L) < lengths[:, None]
x = torch.randn(B, L, d)
x[~keep] = torch.randn(d)  # every [PAD] has the same embedding
w_q, w_k, w_v = torch.randn(3, d, d)
out = attend(x, keep, w_q, w_k, w_v)  # the [PAD] query rows are not 0
alone = attend(x[:1, :2], keep[:1, :2], w_q, w_k, w_v).mean(dim=1)  # no padding

# sentence vector: the mean over positions
wrong_mean = out.mean(dim=1)  # the [PAD] rows are averaged in
fixed_mean = (out * keep[..., None]).sum(dim=1) / lengths[:, None]  # real rows only
print("mean over all rows :", wrong_mean[0])
print("mean over real rows:", fixed_mean[0])
print("sentence 1 alone   :", alone[0])

# per-token loss: the label -100 makes cross_entropy skip a position
labels = torch.randint(0, d, (B, L)).masked_fill(~keep, 0)  # [PAD] labelled 0
wrong_loss = F.cross_entropy(out.reshape(-1, d), labels.reshape(-1)).item()
ignored = labels.masked_fill(~keep, -100).reshape(-1)
fixed_loss = F.cross_entropy(out.reshape(-1, d), ignored, ignore_index=-100).item()
real_only = F.cross_entropy(out[keep], labels[keep]).item()
print(f"loss with [PAD]: {wrong_loss:.4f}, with -100: {fixed_loss:.4f}, "
      f"real tokens only: {real_only:.4f}")
