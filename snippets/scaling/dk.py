import torch
import torch.nn.functional as F
from torch import nn


def split_heads(t, heads):  # (batch, length, d_model) -> (batch, heads, length, d_k)
    return t.unflatten(-1, (heads, -1)).transpose(1, 2)  # d_k = d_model // heads


# --- demo ---
torch.manual_seed(0)
batch, length = 2, 30  # 2 sentences of 30 tokens
d_model, heads, layers = 512, 8, 6  # base Transformer: 512 wide, 8 heads, 6 layers
d_k = d_model // heads  # 64: the width of one head's queries and keys

x = torch.randn(batch, length, d_model)  # token vectors entering ONE attention layer
w_q = nn.Linear(d_model, d_model, bias=False)  # all 8 heads' projections side by side
w_k = nn.Linear(d_model, d_model, bias=False)
q, k, v = split_heads(w_q(x), heads), split_heads(w_k(x), heads), split_heads(x, heads)
scale = d_k**0.5
scores = q @ k.transpose(-2, -1) / scale  # one (length x length) map per head
out = torch.softmax(scores, dim=-1) @ v
same = torch.allclose(out, F.scaled_dot_product_attention(q, k, v), atol=1e-5)
by_model = torch.softmax(q @ k.transpose(-2, -1) / d_model**0.5, dim=-1) @ v
same_by_model = torch.allclose(by_model, out, atol=1e-5)  # sqrt(512): wrong divisor

print("x      :", tuple(x.shape), "  token vectors, d_model =", d_model)
print("w_q(x) :", tuple(w_q(x).shape))
print("q, k   :", tuple(q.shape), "  per head: d_k =", d_k)
print("scores :", tuple(scores.shape), "  divided by sqrt(d_k) =", scale)
print("same as F.scaled_dot_product_attention:", same)
print("same if divided by sqrt(d_model) instead:", same_by_model)
print("layers :", layers, "  (each layer repeats this; d_k does not grow with depth)")
