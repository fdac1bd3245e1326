import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import (create_block_mask, create_mask,
                                               flex_attention)


def tree_mask_mod(parents, cache_len):
    """A mask_mod for the tree after cache_len cached keys: query q is tree node q."""
    n = len(parents)
    seen = torch.eye(n, dtype=torch.bool)  # seen[i, j]: node j is i or its ancestor
    for i, p in enumerate(parents):
        if not -1 <= p < i:
            raise ValueError(f"parents[{i}] = {p}: want -1 or a node before {i}")
        if p != -1:
            seen[i] |= seen[p]
    if cache_len < 0:
        raise ValueError(f"cache_len must be >= 0, got {cache_len}")

    def mask_mod(b, h, q_idx, kv_idx):
        node = (kv_idx - cache_len).clamp(min=0)  # a tree column's node
        return (kv_idx < cache_len) | seen[q_idx, node]
    return mask_mod


# --- demo: draw.py's tree after 3 cached keys; FlexAttention against a dense mask ---
parents, P = [-1, -1, 0, 0, 1, 2, 4], 3
N, mask_mod = len(parents), tree_mask_mod(parents, P)
torch.manual_seed(0)
q, (k, v) = torch.randn(1, 1, N, 8), torch.randn(2, 1, 1, P + N, 8)  # (B, H, L, d)
dense = create_mask(mask_mod, 1, 1, N, P + N, device="cpu")  # (1, 1, N, P + N) bool
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex.md
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(mask_mod, 1, 1, N, P + N, device="cpu")
    out = flex_attention(q, k, v, block_mask=block)
gap = (out - F.scaled_dot_product_attention(q, k, v, attn_mask=dense)).abs().max()
print(dense[0, 0].int())
print("flex_attention = SDPA, dense mask (max |diff| < 1e-5):", bool(gap < 1e-5))
