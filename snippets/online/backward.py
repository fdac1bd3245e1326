import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

# the gradient rebuilt from the stored lse, as the CPU flash backward does
torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, n, 8, dtype=torch.float64) for n in (4, 6, 6))
mask = torch.zeros(4, 6, dtype=torch.float64)
mask[0] = -torch.inf  # query 0 sees no key
mask[2, 3:] = -torch.inf
d_out = torch.randn(1, 2, 4, 8, dtype=torch.float64)  # dL/d(out), from the layer above
leaves = [t.clone().requires_grad_() for t in (q, k, v)]
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    result = F.scaled_dot_product_attention(*leaves, attn_mask=mask)
node = type(result.grad_fn).__name__  # the backward autograd will run
result.backward(d_out)
flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu  # -> (out, lse)
out, lse = flash(q, k, v, attn_mask=mask)  # the forward keeps only out and lse
scale = 8**-0.5
p = torch.exp(q @ k.mT * scale + mask - lse[..., None])  # P again, from the lse
d_v = p.mT @ d_out
d_p = d_out @ v.mT
D = (d_out * out).sum(-1, keepdim=True)  # rowsum(dO * O): no P needed
d_s = p * (d_p - D)  # the softmax backward, with D for rowsum(P * dP)
d_q, d_k = d_s @ k * scale, d_s.mT @ q * scale
gaps = [(mine - leaf.grad).abs().max().item()
        for mine, leaf in zip((d_q, d_k, d_v), leaves)]
D_gap = (D - (p * d_p).sum(-1, keepdim=True)).abs().max().item()
empty_grad = leaves[0].grad[0, :, 0].abs().max().item()  # query 0's gradient
print(node)
print(f"max |rebuilt - autograd| for dq, dk, dv: {[f'{g:.1e}' for g in gaps]}")
print(f"max |rowsum(dO*O) - rowsum(P*dP)|: {D_gap:.1e}; query 0's dq: {empty_grad}")
