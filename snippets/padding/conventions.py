import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa

torch.manual_seed(0)
L = d = 4
q, k = torch.randn(1, L, d), torch.randn(1, L, d)
s = q @ k.transpose(-2, -1) / d**0.5  # (1, L, L) scores: one example for every API
eye = torch.eye(L)[None]  # v = identity, so SDPA's output *is* its weight matrix
probe = torch.tensor([False, False, False, True])  # the mask: True at the last key
m, inf = probe.expand(L, L), float("inf")  # m: (L_Q, L_K)
mha = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True)
with torch.no_grad():  # q, k unchanged: scores are s
    mha.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))
zero_if = {"m": m, "~m": ~m,  # cells that may end up with weight 0: as shown, as run
           "torch.ones(L, L).triu(1).bool()": torch.ones(L, L).triu(1).bool(),
           "torch.zeros(L, L).bool()": torch.zeros(L, L).bool()}
rows = [  # API, mask given, its weights, that mask as an additive M: shown, then run
    ("masked_fill(m, -inf)", m, torch.softmax(s.masked_fill(m, -inf), -1),
     "torch.where(m, -inf, 0.0)", lambda m: torch.where(m, -inf, 0.0)),
    ("SDPA attn_mask (bool)", m, sdpa(q, k, eye, m),
     "torch.where(m, 0.0, -inf)", lambda m: torch.where(m, 0.0, -inf)),
    ("SDPA attn_mask (float)", m.float(), sdpa(q, k, eye, m.float()), "m", lambda m: m),
    ("SDPA is_causal=True", None, sdpa(q, k, eye, is_causal=True),
     "torch.full((L, L), -inf).triu(1)", lambda m: torch.full((L, L), -inf).triu(1)),
    ("MHA attn_mask (bool)", m, mha(q, k, k, attn_mask=m)[1],
     "torch.where(m, -inf, 0.0)", lambda m: torch.where(m, -inf, 0.0)),
    ("MHA key_padding_mask", probe[None], mha(q, k, k, key_padding_mask=probe[None])[1],
     "torch.where(m, -inf, 0.0)[:, None, :]",
     lambda m: torch.where(m, -inf, 0.0)[:, None, :]),
]
table = []  # one row per API, as the page shows it; M runs as shown
for name, mask, w, shown, to_additive in rows:
    zero = w[0].detach() == 0  # the weights this API made exactly 0, named as code
    zeroed = next(text for text, z in zero_if.items() if torch.equal(zero, z))
    same = torch.allclose(torch.softmax(s + to_additive(mask), -1), w, atol=1e-6)
    given = "None" if mask is None else f"{mask.dtype} {tuple(mask.shape)}"[6:]
    table.append((name, given, w[0, 0].detach(), zeroed, f"`{shown}`", same))
    print(f"{name:<22} | w[0] == 0: {zeroed} | M = {shown} | same: {same}")
apis, given, first, zeroed, additive, same = zip(*table)
print("torch", version := torch.__version__)
