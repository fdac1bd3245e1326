import torch
import torch.nn.functional as F


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
out = attend(x, keep, w_q, w_k, w_v)

# sentence vector: mean over positions (e.g. for classification)
naive = out.mean(dim=1)  # averages the [PAD] rows in too
masked = (out * keep[..., None]).sum(dim=1) / lengths[:, None]  # real rows only
alone = attend(x[:1, :2], keep[:1, :2], w_q, w_k, w_v).mean(dim=1)  # sentence 0
print("naive mean  :", naive[0])
print("masked mean :", masked[0])
print("alone       :", alone[0])

# per-token loss (e.g. tagging): label -100 = ignore this position
labels = torch.randint(0, d, (B, L)).masked_fill(~keep, -100)
loss = F.cross_entropy(out.reshape(-1, d), labels.reshape(-1), ignore_index=-100)
real_only = F.cross_entropy(out[keep], labels[keep])  # only the real tokens
print("loss with ignore_index:", round(loss.item(), 4))
print("loss on real tokens   :", round(real_only.item(), 4))
with_pad = F.cross_entropy(out.reshape(-1, d), labels.clamp(min=0).reshape(-1))
print("[PAD] labelled class 0:", round(with_pad.item(), 4))  # the pads count
