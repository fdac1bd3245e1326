import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def expand_kv(x, groups):
    """(B, H_kv, L, d) -> (B, H_kv * groups, L, d): each KV head, groups times."""
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError(f"groups must be an int >= 1, got {groups!r}")
    return x.repeat_interleave(groups, dim=1)

def attention_reference(q, k, v, mask):
    """softmax(q k^T / sqrt(d) + mask) v, head by head; mask: bool, True = attend,
    (B or 1, H_q or 1, L_q, L_k). A row that sees no key gives 0, as SDPA does."""
    (B, H_q, L_q, d), (H_kv, L_k) = q.shape, k.shape[1:3]
    if H_q % H_kv:
        raise ValueError(f"H_q={H_q} query heads is not a multiple of H_kv={H_kv}")
    if mask.dtype != torch.bool or mask.dim() != 4 or mask.shape[0] not in (1, B) \
            or mask.shape[1] not in (1, H_q) or mask.shape[2:] != (L_q, L_k):
        raise ValueError(f"mask must be bool, (B={B} or 1, H_q={H_q} or 1, {L_q}, "
                         f"{L_k}); got {mask.dtype} {tuple(mask.shape)}")
    k, v = expand_kv(k, H_q // H_kv), expand_kv(v, H_q // H_kv)
    scores = (q @ k.transpose(-2, -1) / d**0.5).masked_fill(~mask, float("-inf"))
    return scores.softmax(-1).where(mask.any(-1, keepdim=True), 0.0) @ v


# --- demo: SDPA and flex_attention, enable_gqa=True, against the reference ---
g, causal = torch.Generator().manual_seed(0), torch.ones(1, 1, 6, 6).tril().bool()
block = create_block_mask(lambda b, h, q, kv: kv <= q, 1, 1, 6, 6, device="cpu")
gap = {}  # design -> [max |SDPA - reference|, max |flex - reference|]
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for name, H_kv in {"MHA": 8, "GQA": 2, "MQA": 1}.items():  # 8 query heads
        q, k, v = (torch.randn(2, h, 6, 16, generator=g) for h in (8, H_kv, H_kv))
        ref = attention_reference(q, k, v, causal)
        sdpa = F.scaled_dot_product_attention(q, k, v, causal, enable_gqa=True)
        flex = flex_attention(q, k, v, block_mask=block, enable_gqa=True)
        gap[name] = [(out - ref).abs().max().item() for out in (sdpa, flex)]
print({name: [d < 1e-6 for d in diffs] for name, diffs in gap.items()})
