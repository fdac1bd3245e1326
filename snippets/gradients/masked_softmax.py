import torch


def masked_softmax(scores, keep, dim=-1):
    """Softmax where keep (True = take part); rows with no key: 0, finite gradients."""
    if not (torch.is_tensor(scores) and scores.is_floating_point()):
        raise TypeError("scores must be a floating-point tensor, got "
                        f"{getattr(scores, 'dtype', type(scores).__name__)}")
    if not (torch.is_tensor(keep) and keep.dtype == torch.bool):
        raise TypeError("keep must be a bool tensor (True = take part), got "
                        f"{getattr(keep, 'dtype', type(keep).__name__)}")
    if keep.dim() > scores.dim() or any(
            a not in (1, b) for a, b in zip(keep.shape[::-1], scores.shape[::-1])):
        raise ValueError(f"keep {tuple(keep.shape)} does not broadcast to the scores "
                         f"{tuple(scores.shape)} without changing their shape")
    seen = keep.expand(scores.shape).any(dim=dim, keepdim=True)  # a row with a key
    z = torch.where(seen, torch.where(keep, scores, -torch.inf), 0.0)  # before: safe
    return torch.where(seen, torch.softmax(z, dim=dim), 0.0)  # after: rows of 0


# --- demo ---
scores = torch.arange(12.0).view(3, 4).cos().mul(2).requires_grad_()  # any scores
keep = torch.tensor([[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 0, 0]]) > 0  # row 1: no key
w = masked_softmax(scores, keep)
w[:, 0].sum().backward()  # any loss: here the weights of key 0
reference = torch.softmax(scores.masked_fill(~keep, -torch.inf), dim=-1)
same_rows = torch.equal(w[[0, 2]], reference[[0, 2]])  # rows with a key: as softmax
s64 = scores.detach().double().requires_grad_()  # gradcheck: finite differences
gradcheck = torch.autograd.gradcheck(masked_softmax, (s64, keep))
grad_nans = int(scores.grad.isnan().sum())  # NaN entries of d loss / d scores
print("weights:", w, "d scores:", scores.grad, sep="\n")
print(f"NaN: {grad_nans}, rows 0, 2 as softmax: {same_rows}, gradcheck: {gradcheck}")
errors = []  # each bad call's exception, as printed
for args in [(scores.long(), keep), (scores, keep.int()), (scores, keep[:, :2]),
             (scores, keep, 2), ([0.5, 1.5], keep)]:
    try:
        masked_softmax(*args)
    except (TypeError, ValueError, IndexError) as error:  # IndexError: torch's own
        errors.append(f"{type(error).__name__}: {error}")
print(*errors, sep="\n")
