import torch
import torch.nn.functional as F


def split(x, h):  # (B, L, d_model) -> (B, h, L, d_k), d_k = d_model // h
    return x.unflatten(-1, (h, -1)).transpose(1, 2)


def attend(q, k, v, keep):  # softmax(q k^T / sqrt(d_k) + M) v, keep: True = take part
    s = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(~keep, -torch.inf)
    return torch.softmax(s, dim=-1) @ v


def multihead(x_q, x_kv, h, w_in, b_in, w_out, b_out, keep, attend=attend):
    """w_in (3 d_model, d_model): W_q, W_k, W_v stacked, as in nn.MultiheadAttention."""
    (w_q, w_k, w_v), (b_q, b_k, b_v) = w_in.chunk(3), b_in.chunk(3)
    q = split(F.linear(x_q, w_q, b_q), h)  # (B, h, L_Q, d_k)
    k, v = split(F.linear(x_kv, w_k, b_k), h), split(F.linear(x_kv, w_v, b_v), h)
    heads = attend(q, k, v, keep)  # (B, h, L_Q, d_k): every head at once
    merged = heads.transpose(1, 2).flatten(-2)  # merge: (B, L_Q, h * d_k = d_model)
    return F.linear(merged, w_out, b_out)  # output projection: (B, L_Q, d_model)


# --- demo ---
torch.manual_seed(0)
B, L_Q, L_K, d_model, h = 2, 3, 5, 8, 2
x_q, x_kv = torch.randn(B, L_Q, d_model), torch.randn(B, L_K, d_model)
keep = torch.arange(L_K) < torch.tensor([5, 3])[:, None]  # (B, L_K): True = real key
params = [torch.randn(3 * d_model, d_model) / d_model**0.5, torch.randn(3 * d_model),
          torch.randn(d_model, d_model) / d_model**0.5, torch.randn(d_model)]
ours = multihead(x_q, x_kv, h, *params, keep[:, None, None, :])
sdpa = multihead(x_q, x_kv, h, *params, keep[:, None, None, :],
                 attend=F.scaled_dot_product_attention)  # bool mask: True = take part
mha = torch.nn.MultiheadAttention(d_model, h, batch_first=True)
# params in MHA's order: in_proj_weight, in_proj_bias, out_proj.weight, out_proj.bias
mha.load_state_dict(dict(zip(mha.state_dict(), params)))
by_mha, _ = mha(x_q, x_kv, x_kv, key_padding_mask=~keep)  # ~: True = ignore here
gap_sdpa, gap_mha = (ours - sdpa).abs().max().item(), (ours - by_mha).abs().max().item()
print(f"output: {tuple(ours.shape)}\nmax |ours - SDPA|: {gap_sdpa:.1e}\n"
      f"max |ours - MHA| : {gap_mha:.1e}")
