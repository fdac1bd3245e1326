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
q, k, v = torch.zeros(1, 1, 2, 6), torch.zeros(1, 1, 6, 6), torch.eye(6)[None, None]
sdpa = F.scaled_dot_product_attention  # q k^T = 0: the scores are the mask x
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):  # v = identity: the output is the weights
    rows["SDPA (CPU flash)"] = sdpa(q, k, v, attn_mask=x)[0, 0]
with sdpa_kernel(SDPBackend.MATH):  # softmax, then _safe_softmax's zeros
    rows["SDPA (math)"] = sdpa(q, k, v, attn_mask=x)[0, 0]
names = list(rows)  # each way of computing, and its two rows
no_key, late_key = [r[0] for r in rows.values()], [r[1] for r in rows.values()]
print(*(f"{name}:\n{rows[name]}" for name in names[2:]), sep="\n")
g = torch.Generator().manual_seed(0)  # the kernel's key blocks hold 512 keys (source)
qb, kb, vb = (torch.randn(1, 1, n, 8, generator=g) for n in (1, 1024, 1024))
late = (torch.arange(1024) >= 600)[None]  # keys 0..599 hidden: all of the first block
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    by_blocks = sdpa(qb, kb, vb, attn_mask=late)
late_gap = (by_blocks - sdpa(qb, kb[..., 600:, :], vb[..., 600:, :])).abs().max().item()
print(f"keys 0..599 of 1024 hidden: max |flash - SDPA on the rest| = {late_gap:.1e}")
