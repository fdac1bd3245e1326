import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import (AuxRequest, create_block_mask,
                                               flex_attention)

# 8 keys in two halves; query 0 sees no key of the first half
torch.manual_seed(0)
q, k, v = torch.randn(1, 1, 3, 4), torch.randn(1, 1, 8, 4), torch.randn(1, 1, 8, 4)
keep = torch.ones(3, 8, dtype=torch.bool)
keep[0, :4] = False
k1, v1, k2, v2 = k[..., :4, :], v[..., :4, :], k[..., 4:, :], v[..., 4:, :]
flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu  # -> (out, lse)
hide = torch.zeros(3, 4).masked_fill(~keep[:, :4], -torch.inf)  # additive, first half
first = {"CPU SDPA flash": flash(q, k1, v1, attn_mask=hide)}
sees = lambda b, h, q_idx, kv_idx: q_idx > 0  # noqa: E731 (query 0: no key here)
block = create_block_mask(sees, 1, 1, 3, 4, device="cpu")
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    out, aux = flex_attention(q, k1, v1, block_mask=block,
                              return_aux=AuxRequest(lse=True))
first["FlexAttention (eager)"] = (out, aux.lse)
first["FA2 source (+inf, by hand)"] = (out, aux.lse.nan_to_num(neginf=torch.inf))
out2, lse2 = flash(q, k2, v2)  # the second half: every query sees all four keys
whole = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
empty_lse, gap = {}, {}  # per source: query 0's lse in the first half, its merge error
for name, (out1, lse1) in first.items():
    lse = torch.logaddexp(lse1, lse2)[..., None]  # the online chapter's merge
    w1, w2 = torch.exp(lse1[..., None] - lse), torch.exp(lse2[..., None] - lse)
    merged = w1 * out1 + w2 * out2
    empty_lse[name] = lse1[0, 0, 0].item()
    gap[name] = (merged - whole)[0, 0, 0].abs().max().item()  # nan stays nan
same_out = (first["CPU SDPA flash"][0] - out).abs().max().item()  # outputs agree
print(f"{'first half from':>27} | lse of query 0 | query 0 merged, max error")
print(*(f"{n:>27} | {empty_lse[n]:>14} | {gap[n]:.1e}" for n in first), sep="\n")
