import warnings
import torch

torch.manual_seed(0)
scores = torch.randn(3, 4, requires_grad=True)
keep = torch.tensor([[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 0, 0]]) > 0  # row 1: no key
seen = keep.any(dim=-1, keepdim=True)
ways = {  # each gives row 1 zeros; which leave a NaN on the way back?
    "masked_fill, nan_to_num": lambda s: torch.nan_to_num(torch.softmax(
        s.masked_fill(~keep, -torch.inf), dim=-1)),
    "where after only": lambda s: torch.where(seen, torch.softmax(
        torch.where(keep, s, -torch.inf), dim=-1), 0.0),
    "where before and after": lambda s: torch.where(seen, torch.softmax(
        torch.where(seen, torch.where(keep, s, -torch.inf), 0.0), dim=-1), 0.0),
}
upstream = torch.arange(12.0).view(3, 4)  # any loss: sum(weights * upstream)
grad_nans, anomaly = {}, {}
for name, f in ways.items():
    scores.grad = None
    (f(scores) * upstream).sum().backward()
    grad_nans[name] = int(scores.grad.isnan().sum())  # what reaches the scores
    with warnings.catch_warnings(record=True):  # detect_anomaly warns that it is on
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():  # stops at the first NaN made
                (f(scores) * upstream).sum().backward()
            anomaly[name] = "no error"
        except RuntimeError as error:
            anomaly[name] = str(error)
    print(f"{name}: NaN in d scores = {grad_nans[name]};",
          f"detect_anomaly: {anomaly[name]}")
