import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
seen, gap, empty = {}, {}, {}  # keys per query row, max |flex - SDPA|, rows seeing none
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for L_Q, L_K in [(3, 6), (6, 3)]:  # fewer queries than keys, then more
        q = torch.randn(1, 1, L_Q, 8)
        k, v = torch.randn(1, 1, L_K, 8), torch.randn(1, 1, L_K, 8)
        for align, offset in [("top-left", 0), ("bottom-right", L_K - L_Q)]:
            def mask_mod(b, h, q_idx, kv_idx, offset=offset):  # keys up to q + offset
                return kv_idx <= q_idx + offset
            keep = torch.arange(L_K) <= torch.arange(L_Q)[:, None] + offset  # dense
            block = create_block_mask(mask_mod, 1, 1, L_Q, L_K, device="cpu")
            out = flex_attention(q, k, v, block_mask=block)[0, 0]
            name = align, L_Q, L_K
            seen[name] = keep.sum(-1).tolist()
            gap[name] = (out - sdpa(q, k, v, attn_mask=keep)).abs().max().item()
            empty[name] = out[keep.sum(-1) == 0].tolist()  # flex gives these rows 0
            print(f"{align:>12}, L_Q={L_Q}, L_K={L_K}: keys seen {seen[name]}")
aligns, l_q, l_k = zip(*seen)  # the table's row labels
