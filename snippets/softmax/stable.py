import torch


def _check(z):
    if not isinstance(z, torch.Tensor):
        raise TypeError(f"softmax needs a torch.Tensor, got {type(z).__name__}")
    if not z.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got dtype {z.dtype}")


def naive_softmax(z, dim=-1):
    """exp, sum, divide. Overflows once a score passes log(finfo(dtype).max)."""
    _check(z)
    return torch.exp(z) / torch.exp(z).sum(dim=dim, keepdim=True)


def stable_softmax(z, dim=-1):
    """Subtracts the max first. A row of only -inf gives zeros (torch.softmax: NaN)."""
    _check(z)
    m = z.amax(dim=dim, keepdim=True).detach()
    m = torch.where(torch.isneginf(m), 0.0, m)  # all -inf: shift by 0, not by -inf
    e = torch.exp(z - m)  # every exponent <= 0, so no overflow
    s = e.sum(dim=dim, keepdim=True)  # >= 1 (the max gives exp(0)), or 0 if all -inf
    return e / torch.where(s == 0, 1.0, s)  # 0 / 1 = 0 instead of 0 / 0 = NaN


# --- demo ---
inf = float("-inf")
scores = torch.tensor([[1000.0, 999.0, inf], [0.0, inf, inf], [inf, inf, inf]])
inputs = ["[" + ", ".join(f"{x:g}" for x in row) + "]" for row in scores.tolist()]
naive, stable = naive_softmax(scores), stable_softmax(scores)
reference = torch.softmax(scores, dim=-1)
print("naive_softmax:", naive, "stable_softmax:", stable, sep="\n")
print("torch.softmax:", reference, sep="\n")
for bad in (torch.tensor([1, 2, 3]), torch.tensor([True, False]), [1.0, 2.0]):
    try:
        stable_softmax(bad)
    except TypeError as error:
        print("TypeError:", error)
