import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def alibi(heads, sign=-1):  # score_mod: score - slope_h * (q - kv): far keys lose
    if isinstance(heads, bool) or not isinstance(heads, int) or heads < 1:
        raise ValueError(f"heads must be an int >= 1, got {heads!r}")
    if sign not in (-1, 1):
        raise ValueError(f"sign must be -1 (ALiBi) or 1 (the wrong sign), got {sign!r}")
    return lambda score, b, h, q, kv: score + sign * 2.0 ** (-8 * (h + 1) / heads) * (
        q - kv)  # slope_h = 2^(-8 (h + 1) / heads), ALiBi's geometric slopes


def causal(b, h, q, kv):
    return kv <= q


# --- demo: ALiBi through flex_attention and, as a dense float bias, through SDPA ---
torch.manual_seed(0)
H, L = 4, 6
q, k, v = (torch.randn(1, H, L, 8) for _ in range(3))
slopes, i = 2.0 ** (-8 * torch.arange(1, H + 1) / H), torch.arange(L)
bias = slopes[:, None, None] * (i - i[:, None])  # -slope * (q - kv), (H, L, L)
bias = bias.masked_fill(i > i[:, None], -torch.inf)  # and causal: future keys -inf
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(causal, 1, 1, L, L, device="cpu")
    out = flex_attention(q, k, v, score_mod=alibi(H), block_mask=block)
    flipped = flex_attention(q, k, v, score_mod=alibi(H, sign=1), block_mask=block)
gap = (out - sdpa(q, k, v, attn_mask=bias)).abs().max().item()
wrong_sign = (flipped - sdpa(q, k, v, attn_mask=bias)).abs().max().item()
print("bias of head 0, last query row:", bias[0, -1].tolist())
print(f"max |flex - SDPA| < 1e-6: {gap < 1e-6}; sign flipped: {wrong_sign:.2f}")
