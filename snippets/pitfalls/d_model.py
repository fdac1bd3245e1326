import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, L, d_model, heads = 2, 30, 512, 8  # the base Transformer: 512 wide, 8 heads
d_k = d_model // heads  # 64: each head's queries and keys
q, k, v = (torch.randn(B, heads, L, d_k) for _ in range(3))
scores = q @ k.transpose(-2, -1)  # dot products of length d_k

wrong = torch.softmax(scores / d_model**0.5, dim=-1)  # sqrt(512): the full width
fixed = torch.softmax(scores / d_k**0.5, dim=-1)  # sqrt(64): one head's width
sdpa = F.scaled_dot_product_attention(q, k, v)  # divides by sqrt(q.shape[-1])
same = [torch.allclose(w @ v, sdpa, atol=1e-5) for w in (wrong, fixed)]
spread = [(scores / c).std().item() for c in (d_model**0.5, d_k**0.5)]
top = [w.max(dim=-1).values.mean().item() for w in (wrong, fixed)]
divisors = [f"√d_model = √{d_model}", f"√d_k = √{d_k}"]
for i, name in enumerate(divisors):
    print(f"/ {name}: score std {spread[i]:.3f}, mean largest weight {top[i]:.4f}, "
          f"same as SDPA: {same[i]}")
