import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, L, d_model, heads = 2, 30, 512, 8  # the base Transformer: 512 wide, 8 heads
d_k = d_model // heads  # 64: each head's queries and keys
q, k, v = (torch.randn(B, heads, L, d_k) for _ in range(3))
scores = q @ k.transpose(-2, -1)  # dot products of length d_k

widths = [d_model, d_k]  # sqrt(512): the full width; sqrt(64): one head's
wrong, fixed = (torch.softmax(scores / w**0.5, dim=-1) for w in widths)
sdpa = F.scaled_dot_product_attention(q, k, v)  # divides by sqrt(q.shape[-1])
same = [torch.allclose(w @ v, sdpa, atol=1e-5) for w in (wrong, fixed)]
spread = [(scores / w**0.5).std().item() for w in widths]
top = [w.max(dim=-1).values.mean().item() for w in (wrong, fixed)]
for i, name in enumerate(["d_model", "d_k"]):
    print(f"/ sqrt({name}) = sqrt({widths[i]}): score std {spread[i]:.3f}, "
          f"mean largest weight {top[i]:.4f}, same as SDPA: {same[i]}")
