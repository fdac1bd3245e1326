import torch


def attend(scores, hide, v, fill, clear_row):
    """hide: True = masked out. Returns the output, and how many NaN entries the
    gradient of v gets from a loss that leaves the rows with nothing to see out."""
    v = v.clone().requires_grad_()
    empty = hide.all(dim=-1, keepdim=True)  # (..., L_Q, 1)
    out = torch.softmax(scores.masked_fill(hide, fill), dim=-1) @ v
    if clear_row:
        out = out.masked_fill(empty, 0.0)  # an empty row means nothing: zero it
    out[~empty[..., 0]].sum().backward()  # the loss leaves those rows out
    return out.detach(), int(v.grad.isnan().sum())


# --- demo ---
scores = torch.tensor([[0.5, -1.0, 2.0],
                       [1.0, 3.0, -2.0]])  # two query rows, three keys
hide = torch.tensor([[False, True, False],
                     [True, True, True]])  # second row: every key hidden
v0 = torch.randn(3, 4, generator=torch.Generator().manual_seed(0))
low = torch.finfo(torch.float32).min
methods = {
    "-inf": attend(scores, hide, v0, float("-inf"), clear_row=False),
    "-inf, row set to 0": attend(scores, hide, v0, float("-inf"), clear_row=True),
    "finfo.min, row set to 0": attend(scores, hide, v0, low, clear_row=True),
}
rows = [out[1].tolist() for out, _ in methods.values()]
grad_nans = [nans for _, nans in methods.values()]
for name, row, nans in zip(methods, rows, grad_nans):
    print(f"{name:>23}: empty row {row}, NaN in v.grad: {nans} of {v0.numel()}")
