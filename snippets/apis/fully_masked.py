import itertools
import warnings

import torch
from torch.nn.attention import SDPBackend as B, sdpa_kernel
from torch.nn.attention.flex_attention import create_block_mask, flex_attention
from torch.nn.functional import scaled_dot_product_attention as sdpa

S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
keep = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()  # row 3: no key
eye, dtypes = torch.eye(4), (torch.float32, torch.float16, torch.bfloat16)
fill = lambda x: lambda d: torch.where(keep, 0, x(d)).to(d)  # additive: 0 or the fill
forms = {"bool": lambda d: keep, "-inf": fill(lambda d: -torch.inf),
         "finfo.min": fill(lambda d: torch.finfo(d).min)}
mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True)
mha.load_state_dict({"in_proj_weight": eye.repeat(3, 1), "out_proj.weight": eye})
flex = lambda q, k, v, m: flex_attention(*(t.detach() for t in (q, k, v)), **(
    {"block_mask": create_block_mask(lambda b, h, i, j: m[i, j], 1, 1, 3, 4, "cpu")}
    if m.dtype == torch.bool else {"score_mod": lambda x, b, h, i, j: x + m[i, j]}))
nw = lambda n: lambda q, k, v, m: mha.to(q.dtype)(q[0], k[0], v[0], need_weights=n,
    attn_mask=~m if m.dtype == torch.bool else m)[0][None]  # MHA: True = masked out
paths = {"SDPA MATH": sdpa_kernel(B.MATH)(sdpa), "SDPA FLASH_ATTENTION": sdpa_kernel(
    B.FLASH_ATTENTION)(sdpa), "FlexAttention": flex, "MHA need_weights=True": nw(True),
    "MHA need_weights=False": nw(False)}
cells = []  # (path, mask form) by dtype: "what the row became · NaNs in q, k, v grads"
with warnings.catch_warnings():  # eager FlexAttention's notice: shown in apis/flex.py
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for path, form, d in itertools.product(paths.values(), forms.values(), dtypes):
        q, k, v = (t.to(d).clone().requires_grad_() for t in (S, 2 * eye, eye))
        w = path(q[None, None], k[None, None], v[None, None], form(d))[0, 0].float()
        if w.requires_grad:  # FlexAttention gives none: it has no backward on CPU
            w.backward(torch.ones_like(w))
        nans = sum(int(t.grad.isnan().sum()) for t in (q, k, v)) if w.grad_fn else "—"
        r, eq = w[-1], lambda x: (r - x).abs().max() < 1e-3  # row 3, which sees no key
        name = "nan" if r.isnan().all() else "0" if not r.any() else f"1/{len(r)}" if (
            eq(1 / len(r))) else "softmax(S[-1])" if eq(S[-1].softmax(-1)) else "?"
        cells.append(f"{name} · {nans}")
labels = [f"{p} · {f}" for p, f in itertools.product(paths, forms)]
for i, label in enumerate(labels):
    print(f"{label}: {' | '.join(cells[3 * i:3 * i + 3])}")
