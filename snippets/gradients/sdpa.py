import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = (torch.randn(1, 1, L, d) for _ in range(3))  # (B, H, L, d)
keep = torch.ones(L, L, dtype=torch.bool)  # True = take part
keep[1] = False  # query 1 may see no key at all
masks = {"bool": keep, "float -inf": torch.zeros(L, L).masked_fill(~keep, -torch.inf)}
backends = {"math": SDPBackend.MATH, "flash": SDPBackend.FLASH_ATTENTION}
row, nans, dq_zero, grads, kernel = {}, {}, {}, {}, {}
for b, backend in backends.items():
    for m, mask in masks.items():
        q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
        with sdpa_kernel(backend):  # this kernel only, or an error
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out.sum().backward()
        name = f"{b}, {m}"
        kernel[name], todo = [], [out.grad_fn]  # the backward graph, node by node
        while todo:
            f = todo.pop()
            kernel[name] += [type(f).__name__] if f else []
            todo += [g for g, _ in f.next_functions] if f else []
        row[name] = out[0, 0, 1].tolist()  # the row with no key
        nans[name] = [int(t.grad.isnan().sum()) for t in (q, k, v)]
        dq_zero[name] = bool((q.grad[0, 0, 1] == 0).all())  # the empty query learns 0
        grads[name] = torch.cat([t.grad.flatten() for t in (q, k, v)])
        print(f"{name:>17}: row 1 = {row[name]}, NaN in dq, dk, dv = {nans[name]}, dq "
              f"of row 1 is 0: {dq_zero[name]}, backward:", *sorted(set(kernel[name])))
gap = max((g - grads["math, bool"]).abs().max().item() for g in grads.values())
version = torch.__version__
print(f"the four agree in every gradient to 1e-6: {gap < 1e-6}, torch {version}")
