import math

import torch

def last_true(pred, z, steps=10_000):
    """Largest z of its dtype with pred(z); pred is True below a point, False above."""
    if z.isnan(): raise ValueError(f"z must be a number to walk from, got {z.item()}")
    for _ in range(steps):  # one number of the dtype a step; a far start stops
        if not pred(z):
            z = torch.nextafter(z, z.new_tensor(-math.inf))  # down
        elif pred(above := torch.nextafter(z, z.new_tensor(math.inf))):
            z = above  # up, while the next number still holds
        else:
            return z
    raise ValueError(f"pred did not change within {steps} numbers of the start z "
                     f"(stopped at {z.item()}): start nearer the edge")

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
exp_over, exp_above = ([torch.exp(z).item() for z in zs] for zs in (edge, step_up))
above = [z.item() for z in step_up]
for row in zip(names, log_max, under, over, exp_over, above, exp_above):
    print("{}: ln(max) = {:.4f}, exp(z) == 0 for z <= {}\n"
          "    exp({}) = {:.4g}, exp({}) = {}".format(*row))
