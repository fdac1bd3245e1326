import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = (torch.randn(1, 1, L, d) for _ in range(3))  # (B, H, L, d)
keep = torch.tensor([[True, True, False]])  # (1, L_K): key 2 is masked for every query
M = torch.zeros(L).masked_fill(~keep, -torch.inf)
sdpa = F.scaled_dot_product_attention
paths = {  # each hides key 2; the scores are q k^T / sqrt(d)
    "masked_fill": lambda q, k, v: torch.softmax((q @ k.mT / d**0.5).masked_fill(
        ~keep, -torch.inf), dim=-1) @ v,
    "S + M": lambda q, k, v: torch.softmax(q @ k.mT / d**0.5 + M, dim=-1) @ v,
    "SDPA math": lambda q, k, v: sdpa(q, k, v, attn_mask=keep),
    "SDPA flash": lambda q, k, v: sdpa(q, k, v, attn_mask=keep),
}
backend = {"SDPA math": SDPBackend.MATH, "SDPA flash": SDPBackend.FLASH_ATTENTION}
cases = [(w, x) for w in "kv" for x in (torch.nan, torch.inf)]  # what is in row 2
nans, labels = {p: [] for p in paths}, []  # NaN count of [out, dq, dk, dv], per case
for where, bad in cases + [("k and v, zeroed first", torch.nan)]:
    for p, f in paths.items():
        t = {"k": k0.clone(), "v": v0.clone()}
        for n in "kv":
            if n in where:
                t[n][..., 2, :] = bad  # e.g. an unwritten KV-cache slot
        if "zeroed" in where:  # the rule: make the masked rows safe before use
            t = {n: x.masked_fill(~keep.mT, 0.0) for n, x in t.items()}
        q, k, v = (x.clone().requires_grad_() for x in (q0, t["k"], t["v"]))
        with sdpa_kernel(backend.get(p, SDPBackend.MATH)):  # only SDPA reads it
            out = f(q, k, v)
        out.sum().backward()
        nans[p].append([int(x.isnan().sum()) for x in (out, q.grad, k.grad, v.grad)])
    labels.append(f"{where} = {bad}")
    print(f"{labels[-1]}:", {p: c[-1] for p, c in nans.items()})
