import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

inf = float("inf")
print("exp(-inf - (-inf)) =", torch.exp(torch.tensor(-inf) - -inf).item())
# row 0: every key hidden; row 1: its first block of 3 keys hidden, then real scores
x = torch.tensor([[-inf] * 6, [-inf, -inf, -inf, 1.0, 2.0, 0.5]])
block, rows = 3, {}
for guard in (False, True):
    m, l = torch.full((2,), -inf), torch.zeros(2)  # running max and sum per row
    for start in range(0, x.shape[-1], block):
        xb = x[:, start:start + block]
        m_new = torch.maximum(m, xb.amax(dim=-1))
        shift = torch.where(torch.isneginf(m_new), 0.0, m_new) if guard else m_new
        l = l * torch.exp(m - shift) + torch.exp(xb - shift[:, None]).sum(dim=-1)
        m = m_new
    shift = torch.where(torch.isneginf(m), 0.0, m) if guard else m
    l_safe = torch.where(l == 0, 1.0, l) if guard else l  # l = 0: no key at all
    name = "guarded" if guard else "unguarded"
    rows[name] = torch.exp(x - shift[:, None]) / l_safe[:, None]
    print(f"{name}: m = {m.tolist()}, l = {l.tolist()}\n{rows[name]}")
rows["torch.softmax"] = torch.softmax(x, dim=-1)
rows["torch._safe_softmax"] = torch._safe_softmax(x, -1)
q, k, v = torch.zeros(1, 1, 2, 1), torch.zeros(1, 1, 6, 1), torch.eye(6)[None, None]
# q k^T = 0, so the scores are the mask x; v = identity, so the output is the weights
rows["SDPA (CPU flash)"] = F.scaled_dot_product_attention(q, k, v, attn_mask=x)[0, 0]
with sdpa_kernel(SDPBackend.MATH):  # softmax, then _safe_softmax's zeros
    rows["SDPA (math)"] = F.scaled_dot_product_attention(q, k, v, attn_mask=x)[0, 0]
for name in list(rows)[2:]:
    print(f"{name}:\n{rows[name]}")
