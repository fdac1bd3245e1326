import math

import torch


def last_true(pred, z):
    """Largest z of its dtype with pred(z); pred is True below a point, False above."""
    while not pred(z):
        z = torch.nextafter(z, z.new_tensor(-math.inf))  # one number of the dtype down
    while pred(above := torch.nextafter(z, z.new_tensor(math.inf))):
        z = above
    return z


def exp_edges(dtype):
    """(largest z with exp(z) == 0, largest z with finite exp(z)) in this dtype."""
    info = torch.finfo(dtype)  # refuses integer and bool dtypes
    zero = torch.zeros((), dtype=dtype)
    subnormal = torch.nextafter(zero, zero + 1).item()  # smallest positive number
    start_under = math.log(subnormal) - math.log(2)  # exp rounds to 0 below half of it
    start_over = math.log(info.max)
    under = last_true(lambda z: torch.exp(z) == 0, zero + start_under)
    over = last_true(lambda z: torch.exp(z).isfinite(), zero + start_over)
    return under.item(), over.item()


# --- demo ---
dtypes = [torch.float32, torch.float16, torch.bfloat16]
names = [str(dtype).removeprefix("torch.") for dtype in dtypes]
log_max = [math.log(torch.finfo(d).max) for d in dtypes]
under, over = (list(edge) for edge in zip(*(exp_edges(d) for d in dtypes)))
edge = [torch.tensor(z, dtype=d) for z, d in zip(over, dtypes)]
step_up = [torch.nextafter(z, z + 1) for z in edge]  # the next number of the dtype
exp_over = [torch.exp(z).item() for z in edge]
exp_above = [torch.exp(z).item() for z in step_up]
above = [z.item() for z in step_up]
for row in zip(names, log_max, under, over, exp_over, above, exp_above):
    print("{}: ln(max) = {:.4f}, exp(z) == 0 for z <= {}\n"
          "    exp({}) = {:.4g}, exp({}) = {}".format(*row))
