import torch
import torch.nn.functional as F

torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = torch.randn(L, d), torch.randn(L, d), torch.randn(L, d)
keep = torch.ones(L, L, dtype=torch.bool)
keep[1] = False  # query row 1 may see no key at all
empty = ~keep.any(dim=-1, keepdim=True)  # (L, 1): True for that row
one_kept = keep | (empty & (torch.arange(L) == 0))  # let it see key 0 only
inf, low = float("-inf"), torch.finfo(torch.float32).min


def attend(q, k, v, mask, fill, fix=lambda w: w):
    s = (q @ k.T / d**0.5).masked_fill(~mask, fill)
    return fix(torch.softmax(s, dim=-1)) @ v


def clear(out):  # the empty row is ignored downstream anyway: set it to 0
    return out.masked_fill(empty, 0)


methods = {  # each: (q, k, v) -> output (L, d)
    "-inf 그대로": lambda q, k, v: attend(q, k, v, keep, inf),
    "-inf, 뒤에 줄을 0 으로": lambda q, k, v: clear(attend(q, k, v, keep, inf)),
    "finfo.min, 뒤에 줄을 0 으로": lambda q, k, v: clear(attend(q, k, v, keep, low)),
    "가중치에 nan_to_num": lambda q, k, v: attend(q, k, v, keep, inf, torch.nan_to_num),
    "한 칸 남기고, 뒤에 줄을 0 으로":
        lambda q, k, v: clear(attend(q, k, v, one_kept, inf)),
    "SDPA, bool keep-mask": lambda q, k, v: F.scaled_dot_product_attention(
        q[None], k[None], v[None], attn_mask=keep)[0],
}
row, grad_nans = [], []
for name, method in methods.items():
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = method(q, k, v)
    out[~empty[:, 0]].sum().backward()  # the loss leaves the empty row out
    row.append(out[1].tolist())
    grad_nans.append(sum(int(t.grad.isnan().sum()) for t in (q, k, v)))
    print(f"{name}: row 1 = {out[1].tolist()}, NaN in grads = {grad_nans[-1]}")
