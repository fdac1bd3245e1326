import torch

scores = torch.tensor([[0.5, -1.0, 2.0],
                       [1.0, 3.0, -2.0]])  # two query rows, three keys
hide = torch.tensor([[False, True, False],
                     [True, True, True]])  # second row: every key hidden
empty = hide.all(dim=-1, keepdim=True)  # (2, 1): the row with nothing to see
v0 = torch.randn(3, 4, generator=torch.Generator().manual_seed(0))


def attend(fill, clear_row):
    v = v0.clone().requires_grad_()
    out = torch.softmax(scores.masked_fill(hide, fill), dim=-1) @ v
    if clear_row:
        out = out.masked_fill(empty, 0.0)  # the empty row means nothing: zero it
    out[~empty[:, 0]].sum().backward()  # the loss leaves that row out
    return out[1].tolist(), int(v.grad.isnan().sum())


methods = {
    "-inf": attend(float("-inf"), clear_row=False),
    "-inf, row set to 0": attend(float("-inf"), clear_row=True),
    "finfo.min, row set to 0": attend(torch.finfo(torch.float32).min, clear_row=True),
}
rows = [row for row, _ in methods.values()]
grad_nans = [nans for _, nans in methods.values()]
for name, (row, nans) in methods.items():
    print(f"{name:>23}: empty row {row}, NaN in v.grad: {nans} of {v0.numel()}")
