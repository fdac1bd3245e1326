import torch
import torch.nn.functional as F

# Which boolean mask shapes SDPA takes with enable_gqa=True, each against the reference:
# K and V expanded to the query heads, then plain attention with the mask broadcast.
g, B, H_q, H_kv, L = torch.Generator().manual_seed(0), 2, 4, 2, 6
q, k, v = (torch.randn(B, h, L, 8, generator=g) for h in (H_q, H_kv, H_kv))
K, V = (x.repeat_interleave(H_q // H_kv, dim=1) for x in (k, v))  # (B, H_q, L, 8)
shapes = {"(B, 1, L_q, L_k)": 1, "(B, H_q, L_q, L_k)": H_q, "(B, H_kv, L_q, L_k)": H_kv}
took = {}  # the mask's shape -> max |SDPA - reference|, or the error SDPA raised
for name, heads in shapes.items():
    keep = (torch.rand(B, heads, L, L, generator=g) < 0.5) | torch.eye(L).bool()
    try:
        out = F.scaled_dot_product_attention(q, k, v, keep, enable_gqa=True)
        ref = (q @ K.mT / 8**0.5).masked_fill(~keep, -torch.inf).softmax(-1) @ V
        took[name] = (out - ref).abs().max().item()
    except RuntimeError as error:
        took[name] = f"RuntimeError: {error}"
print(*(f"{name}: {t if isinstance(t, str) else t < 1e-6}" for name, t in took.items()),
      sep="\n")
