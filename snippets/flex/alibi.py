import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def alibi(slopes):  # score_mod: score - slope[h] * (q - kv), far keys score lower
    if not (torch.is_tensor(slopes) and slopes.is_floating_point()) or (
            slopes.dim() != 1 or (slopes <= 0).any()):
        raise ValueError(f"slopes must be a 1-D float tensor of positive numbers, "
                         f"one per head; got {slopes!r:.60}")
    return lambda score, b, h, q, kv: score - slopes[h] * (q - kv)


def causal(b, h, q, kv):
    return kv <= q


# --- demo: ALiBi through flex_attention and, as a dense float bias, through SDPA ---
torch.manual_seed(0)
H, L = 4, 6
slopes = 2.0 ** (-8 * torch.arange(1, H + 1) / H)  # ALiBi's geometric slopes
q, k, v = (torch.randn(1, H, L, 8) for _ in range(3))
i = torch.arange(L)
bias = slopes[:, None, None] * (i - i[:, None])  # -slope * (q - kv), (H, L, L)
bias = bias.masked_fill(i > i[:, None], -torch.inf)  # and causal: future keys -inf
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(causal, 1, 1, L, L, device="cpu")
    out = flex_attention(q, k, v, score_mod=alibi(slopes), block_mask=block)
    flipped = flex_attention(q, k, v, block_mask=block,  # the wrong sign: far keys win
                             score_mod=lambda s, b, h, qi, kv: s + slopes[h] * (qi - kv))
gap = (out - sdpa(q, k, v, attn_mask=bias)).abs().max().item()
wrong_sign = (flipped - sdpa(q, k, v, attn_mask=bias)).abs().max().item()
print("bias of head 0, last query row:", bias[0, -1].tolist())
print(f"max |flex - SDPA| < 1e-6: {gap < 1e-6}; sign flipped: {wrong_sign:.2f}")
