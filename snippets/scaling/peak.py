import torch


def median_query_grad(a, b, v, g, divisor):  # median |dL/dq_i|, softmax(q k^T / c) v
    q = a.clone().requires_grad_()
    (torch.softmax(q @ b.T / divisor, dim=-1) @ v).backward(g)
    return q.grad.norm(dim=-1).median().item()


# --- demo ---
torch.manual_seed(0)  # the big tensor of seed.py and gradient.py: (30, 1024)
length, d = 30, 1024
a = torch.empty(length, d).uniform_(-3, 3)
b = torch.empty(length, d).uniform_(-3, 3)
v, g = torch.randn(length, 16), torch.randn(length, 16)  # values, upstream gradient
divisors = [2 ** (i / 4) for i in range(45)]  # 1 ... 2048, four steps per doubling
peak, at_peak, at_sqrt, score_std = {}, {}, {}, {}
for name, scale in {"U(-3, 3), variance 3": 1.0, "variance 1": 3**-0.5}.items():
    medians = [median_query_grad(a * scale, b * scale, v, g, c) for c in divisors]
    i = max(range(len(divisors)), key=medians.__getitem__)
    peak[name] = divisors[i] / d**0.5  # the best divisor, in units of sqrt(d)
    at_peak[name], at_sqrt[name] = medians[i], medians[20]  # divisors[20]: sqrt(d)
    score_std[name] = ((a * scale) @ (b * scale).T / divisors[i]).std().item()
    print(f"{name}: peak at divisor {divisors[i]:.1f} = {peak[name]:.2f} sqrt(d); "
          f"median {at_peak[name]:.3g} there, {at_sqrt[name]:.3g} at sqrt(d); "
          f"score std at the peak {score_std[name]:.2f}")
