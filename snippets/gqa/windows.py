import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention import flex_attention as fa


def head_windows(windows):
    """A mask_mod: causal, and query head h sees at most windows[h] keys, itself too."""
    w = torch.as_tensor(windows)
    if w.dtype != torch.int64 or w.dim() != 1 or len(w) == 0 or (w < 1).any():
        raise ValueError(f"windows must be ints >= 1, one a query head; got {windows}")
    return lambda b, h, q_idx, kv_idx: (kv_idx <= q_idx) & (q_idx - kv_idx < w[h])


# --- demo: a sliding window of its own for each of 4 query heads; 2 KV heads ---
g, H_q, H_kv, L = torch.Generator().manual_seed(0), 4, 2, 6
q, k, v = (torch.randn(1, h, L, 8, generator=g) for h in (H_q, H_kv, H_kv))
heads, windows = list(range(H_q)), [1, 2, 3, L]  # query head h: at most windows[h] keys
keep = fa.create_mask(head_windows(windows), 1, H_q, L, L, device="cpu")  # 1, H_q, L, L
block = fa.create_block_mask(head_windows(windows), 1, H_q, L, L, device="cpu")
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    flex = fa.flex_attention(q, k, v, block_mask=block, enable_gqa=True)
sdpa = F.scaled_dot_product_attention(q, k, v, keep, enable_gqa=True)
K, V = (x.repeat_interleave(H_q // H_kv, dim=1) for x in (k, v))  # the reference
ref = (q @ K.mT / 8**0.5).masked_fill(~keep, -torch.inf).softmax(-1) @ V
gap = {"SDPA": (sdpa - ref).abs().max().item(), "flex": (flex - ref).abs().max().item()}
seen = keep[0].sum(-1)  # keys each query sees, per query head
print(seen.tolist(), {name: d < 1e-6 for name, d in gap.items()}, sep="\n")
