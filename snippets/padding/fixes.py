import torch
import torch.nn.functional as F

def attend(q, k, v, keep, fill, additive=False, weigh=torch.softmax):  # keep: True=see
    if not fill < 0:  # nan, 0 or more: the hidden keys would take part, or give nan
        raise ValueError(f"fill must be -inf or a negative number, got {fill}")
    s = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    hidden = torch.zeros_like(s).masked_fill(~keep, fill)  # M: fill where hidden
    s = s + hidden if additive else s.masked_fill(~keep, fill)  # add M, or replace
    return weigh(s, dim=-1) @ v

def nan_to_num(s, dim):  # softmax, then every nan -> 0
    return torch.nan_to_num(torch.softmax(s, dim=dim))

def double_where(s, dim):  # rows with no key: scores 0 before softmax, weights 0 after
    empty = torch.isneginf(s).all(dim=dim, keepdim=True)
    return torch.where(empty, 0.0, torch.softmax(torch.where(empty, 0.0, s), dim=dim))

# --- demo ---
q0, k0, v0 = torch.randn(3, 3, 4, generator=torch.Generator().manual_seed(0))  # L=3,d=4
keep = torch.tensor([[1, 1, 1], [0, 0, 0], [1, 1, 1]]) > 0  # row 1 may see no key
inf, low, empty = float("-inf"), torch.finfo(torch.float32).min, ~keep.any(-1, True)
methods = {  # name -> (fill, add M, weigh, set the empty row to 0 afterwards)
    "-inf 그대로": (inf, False, torch.softmax, False),
    "-inf, 뒤에 줄을 0으로": (inf, False, torch.softmax, True),
    "finfo.min, 뒤에 줄을 0으로": (low, False, torch.softmax, True),
    "nan_to_num, masked_fill로 가림": (inf, False, nan_to_num, False),
    "nan_to_num, S + M으로 가림": (inf, True, nan_to_num, False),
    "where 두 번, S + M으로 가림": (inf, True, double_where, False),
    "SDPA, bool keep-mask": None,
}
row, grad_nans = [], []
for name, how in methods.items():
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep) if how is None else \
        attend(q, k, v, keep, *how[:3]).masked_fill(how[3] & empty, 0)
    out[~empty[:, 0]].sum().backward()  # the loss leaves the empty row out
    row.append(out[1].tolist())
    grad_nans.append([int(t.grad.isnan().sum()) for t in (q, k, v)])
    print(f"{name}: row 1 = {row[-1]}, NaN in the grads of q, k, v = {grad_nans[-1]}")
