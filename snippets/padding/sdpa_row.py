import torch
import torch.nn.functional as F

version = torch.__version__
print("torch", version)
torch.manual_seed(0)
L, d = 3, 4
q, k, v = torch.randn(1, 1, L, d), torch.randn(1, 1, L, d), torch.randn(1, 1, L, d)
keep = torch.ones(L, L, dtype=torch.bool)
keep[1] = False  # query row 1 may see no key at all

out_bool = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)[0, 0]
additive = torch.zeros(L, L).masked_fill(~keep, float("-inf"))
out_float = F.scaled_dot_product_attention(q, k, v, attn_mask=additive)[0, 0]
manual = torch.softmax(q @ k.transpose(-2, -1) / d**0.5 + additive, dim=-1) @ v
print("SDPA, bool mask :", out_bool[1])
print("SDPA, -inf mask :", out_float[1])
print("softmax by hand :", manual[0, 0, 1])
other_rows_same = torch.allclose(out_bool[[0, 2]], manual[0, 0, [0, 2]], atol=1e-6)
print("other rows as by hand:", other_rows_same)

mha = torch.nn.MultiheadAttention(d, 1, batch_first=True)  # same row, through MHA
x = torch.randn(1, L, d)
with torch.no_grad():
    mha_out, mha_w = mha(x, x, x, attn_mask=~keep, need_weights=True)
    mha_fast, _ = mha(x, x, x, attn_mask=~keep, need_weights=False)
print("MHA need_weights=True :", mha_out[0, 1], mha_w[0, 1])
print("MHA need_weights=False:", mha_fast[0, 1])
