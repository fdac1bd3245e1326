import torch
import torch.nn.functional as F

def left_pad(prompts, pad_id=0):
    """Token lists -> ids (B, L) with [PAD] in front, keep (B, L): True = real token."""
    if not prompts or any(len(p) == 0 for p in prompts):
        raise ValueError(f"want prompts of one or more tokens each, got {prompts}")
    L = max(len(p) for p in prompts)
    ids = torch.tensor([[pad_id] * (L - len(p)) + list(p) for p in prompts])
    if ids.is_floating_point() or ids.dtype == torch.bool:
        raise TypeError(f"token ids must be ints, got {ids.dtype}")
    return ids, torch.arange(L) >= L - torch.tensor([len(p) for p in prompts])[:, None]

def position_ids(keep):
    """keep (B, L) bool -> each token's place in its own prompt, from 0 ([PAD]: 0)."""
    if keep.dtype != torch.bool or keep.dim() != 2:
        raise TypeError(f"keep must be 2-D bool, got {keep.dim()}-D {keep.dtype}")
    return (keep.long().cumsum(dim=-1) - 1).clamp(min=0)

def forward(ids, keep, pos, tok, place, w_q, w_k, w_v):
    """One attention layer on token + learned position embeddings; padding + causal."""
    if ids.min() < 0: raise ValueError(f"ids must be >= 0, got {ids.tolist()}")
    if pos.min() < 0: raise ValueError(f"pos must be >= 0, got {pos.tolist()}")
    x, L = tok[ids] + place[pos], ids.shape[1]  # x: (B, L, d_model)
    mask = keep[:, None, :] & torch.ones(L, L, dtype=torch.bool).tril()  # (B, L_Q, L_K)
    return F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, attn_mask=mask)

# --- demo: three prompts in one left-padded batch, against each prompt alone ---
g = torch.Generator().manual_seed(0)  # 10 tokens, 8 places, W_Q, W_K, W_V, d_model 6
params = [torch.randn(n, 6, generator=g) / 6**0.5 for n in (10, 8, 6, 6, 6)]
ids, keep = left_pad(prompts := [[3, 1], [4, 1, 5, 9, 2], [6, 5, 3]])
alone = [forward(*left_pad([p]), torch.arange(len(p)), *params)[0] for p in prompts]
gaps = {}  # per prompt: largest difference from running it alone, over its tokens
starts = {"no_reset": torch.arange(5).expand(3, 5), "reset": position_ids(keep)}
for name, pos in starts.items():
    out = forward(ids, keep, pos, *params)
    gaps[name] = [(out[b, keep[b]] - a).abs().max().item() for b, a in enumerate(alone)]
    print(f"{name}: {[round(x, 3) for x in gaps[name]]}")
print("position_ids:", starts["reset"].tolist())  # [PAD] rows below see no key at all
print("[PAD] rows:", int((~keep).sum()), "all 0:", bool((out[~keep] == 0).all()))
