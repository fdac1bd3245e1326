import torch
import torch.nn.functional as F


def additive_mask(keep, dtype=torch.float32):
    """Bool keep-mask (True = take part) -> float: 0 where kept, -inf where hidden."""
    zeros = torch.zeros(keep.shape, dtype=dtype, device=keep.device)
    return zeros.masked_fill(~keep, float("-inf"))


def masked_attention(q, k, v, keep):
    """q: (..., L_Q, d), k, v: (..., L_K, d); keep broadcasts to (..., L_Q, L_K)."""
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    weights = torch.softmax(scores + additive_mask(keep, scores.dtype), dim=-1)
    return weights @ v, weights


# --- demo ---
torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3])
B, L, E, H = len(lengths), int(lengths.max()), 8, 2  # E = model width, H heads
keep = torch.arange(L) < lengths[:, None]  # (B, L): True = real token
x = torch.randn(B, L, E)
mha = torch.nn.MultiheadAttention(E, H, dropout=0.0, batch_first=True)

# MHA's own projections, split into heads: (B, H, L, E // H)
q, k, v = (t.unflatten(-1, (H, E // H)).transpose(1, 2)
           for t in F.linear(x, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1))
ours, w_ours = masked_attention(q, k, v, keep[:, None, None, :])
sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
out_mha, w_mha = mha(x, x, x, key_padding_mask=~keep,  # ~: True = ignore
                     need_weights=True, average_attn_weights=False)
ours_out = mha.out_proj(ours.transpose(1, 2).flatten(-2))  # merge heads, project

tol = dict(rtol=1e-5, atol=1e-6)
print("ours == SDPA (bool keep-mask):      ", torch.allclose(ours, sdpa, **tol))
print("weights == MHA (key_padding_mask):  ", torch.allclose(w_ours, w_mha, **tol))
print("output  == MHA (key_padding_mask):  ", torch.allclose(ours_out, out_mha, **tol))
wrong = F.scaled_dot_product_attention(q, k, v, attn_mask=~keep[:, None, None, :])
print("SDPA given MHA's polarity instead:  ", torch.allclose(ours, wrong, **tol))
