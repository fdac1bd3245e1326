import warnings
import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def softcap(cap):
    """score_mod: score -> cap * tanh(score / cap), every score within (-cap, cap)."""
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not cap > 0:
        raise ValueError(f"cap must be a number > 0, got {cap!r}")
    return lambda score, b, h, q_idx, kv_idx: cap * (score / cap).tanh()  # no global


def capped_weights(scores, cap, keep, cap_last=False):
    """Softmax weights of scores capped, then masked (keep: bool, True = keep);
    cap=None: no cap. cap_last=True masks with -inf first, then caps: wrong."""
    if cap is not None or cap_last:
        softcap(cap)  # the same check
    if cap_last:  # the cap turns the mask's -inf into -cap
        return (cap * (scores.masked_fill(~keep, -torch.inf) / cap).tanh()).softmax(-1)
    if cap is not None:
        scores = cap * torch.tanh(scores / cap)
    return scores.masked_fill(~keep, -torch.inf).softmax(-1)


# --- demo: 2 heads, 6 tokens, causal; scores large enough for a cap of 2 to act ---
torch.manual_seed(0)
q, k, v, cap = 3 * torch.randn(1, 2, 6, 8), *torch.randn(2, 1, 2, 6, 8), 2.0
keep = torch.ones(6, 6, dtype=torch.bool).tril()
scores = q @ k.mT / 8**0.5
with warnings.catch_warnings():  # eager flex_attention on CPU warns once
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(lambda b, h, i, j: j <= i, 1, 1, 6, 6, device="cpu")
    flex = flex_attention(q, k, v, score_mod=softcap(cap), block_mask=block)
gap = (flex - capped_weights(scores, cap, keep) @ v).abs().max().item()
cap_acts = (flex - capped_weights(scores, None, keep) @ v).abs().max().item()
wrong = capped_weights(scores, cap, keep, cap_last=True)
leak = wrong.masked_fill(keep, 0).sum(-1)[..., :-1]  # rows 0..4 have masked keys
print(f"flex = dense, gap < 1e-6: {gap < 1e-6}; cap acts, > 1e-2: {cap_acts > 1e-2}")
print(f"capped after the mask: query 0's weight on masked keys > 0.05: "
      f"{bool((leak[..., 0] > 0.05).all())}, rows 0..4 > 0: {bool((leak > 0).all())}")
