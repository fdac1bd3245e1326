import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
q, k, v = (torch.randn(1, 1, 4, 8) for _ in range(3))  # (B, H, L, d_k)
keep = torch.tensor([[True, True, True, False]])  # (1, L_K): key 3 is [PAD]
tril = torch.ones(4, 4, dtype=torch.bool).tril()  # True = take part, as SDPA reads it
mha = torch.nn.MultiheadAttention(8, 1, batch_first=True)
x = torch.randn(1, 4, 8)
seen = {}  # what each call did: its error or warning, or what it returned
try:  # MHA: is_causal is only a hint, attn_mask must come with it
    mha(x, x, x, is_causal=True)
except RuntimeError as error:
    seen["mha_causal"] = str(error).split(". ")[0]
with sdpa_kernel(SDPBackend.MATH):  # SDPA's math kernel: not both
    try:
        F.scaled_dot_product_attention(q, k, v, attn_mask=keep, is_causal=True)
    except RuntimeError as error:
        seen["math_both"] = str(error)
both = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, is_causal=True)
seen["cpu_both_is_and"] = torch.equal(  # default CPU dispatch: flash kernel, ANDs them
    both, F.scaled_dot_product_attention(q, k, v, attn_mask=keep & tril))
with warnings.catch_warnings(record=True) as caught:  # bool padding, float attn_mask
    warnings.simplefilter("always")
    mha(x, x, x, key_padding_mask=~keep, attn_mask=torch.zeros(4, 4))
seen["mixed_masks"] = str(caught[0].message)
nan_v = v.clone()
nan_v[..., 3, :] = float("nan")  # e.g. an unwritten KV-cache slot, masked out
out = F.scaled_dot_product_attention(q, k, nan_v, attn_mask=keep)
seen["nan_in_masked_v"] = bool(out.isnan().all())  # weight 0 times NaN is NaN
try:  # a 1-D mask (L_K,) with 4-D q, k, v
    F.scaled_dot_product_attention(q, k, v, attn_mask=keep[0])
except IndexError as error:
    seen["one_d_mask"] = str(error)
e4m3 = torch.tensor([-float("inf"), -1e9]).to(torch.float8_e4m3fn).float().tolist()
seen["float8_e4m3fn"] = e4m3  # no infinity in this format: both saturate
for name, what in seen.items():
    print(f"{name}: {what}")
