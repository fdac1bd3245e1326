import torch
import torch.nn.functional as F


def attend(q, k, v, keep, fill, fix=lambda w: w):  # keep: True = take part
    s = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(~keep, fill)
    return fix(torch.softmax(s, dim=-1)) @ v


def clear(out, keep):  # rows that see no key are ignored downstream anyway: 0 them
    return out.masked_fill(~keep.any(dim=-1, keepdim=True), 0)


# --- demo ---
torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = torch.randn(L, d), torch.randn(L, d), torch.randn(L, d)
keep = torch.ones(L, L, dtype=torch.bool)
keep[1] = False  # query row 1 may see no key at all
one_kept = keep | (~keep.any(-1)[:, None] & (torch.arange(L) == 0))  # row 1 gets key 0
inf, low = float("-inf"), torch.finfo(torch.float32).min
methods = {  # each: (q, k, v) -> output (L, d)
    "-inf 그대로": lambda q, k, v: attend(q, k, v, keep, inf),
    "-inf, 뒤에 줄을 0 으로": lambda q, k, v: clear(attend(q, k, v, keep, inf), keep),
    "finfo.min, 뒤에 줄을 0 으로":
        lambda q, k, v: clear(attend(q, k, v, keep, low), keep),
    "가중치에 nan_to_num": lambda q, k, v: attend(q, k, v, keep, inf, torch.nan_to_num),
    "한 칸 남기고, 뒤에 줄을 0 으로":
        lambda q, k, v: clear(attend(q, k, v, one_kept, inf), keep),
    "SDPA, bool keep-mask": lambda q, k, v: F.scaled_dot_product_attention(
        q[None], k[None], v[None], attn_mask=keep)[0],
}
row, grad_nans = [], []
for name, method in methods.items():
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = method(q, k, v)
    out[keep.any(dim=-1)].sum().backward()  # the loss leaves the empty row out
    row.append(out[1].tolist())
    grad_nans.append(sum(int(t.grad.isnan().sum()) for t in (q, k, v)))
    print(f"{name}: row 1 = {out[1].tolist()}, NaN in grads = {grad_nans[-1]}")
