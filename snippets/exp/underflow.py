import math

import torch

inputs = ["0", "-1", "-10", "-20", "-100", "-1e4", "-1e9", "-inf"]
zs = [float(z) for z in inputs]
dtypes = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
names = [str(dtype).removeprefix("torch.") for dtype in dtypes]
exps = {n: torch.exp(torch.tensor(zs, dtype=d)) for n, d in zip(names, dtypes)}
power_of_ten = [z / math.log(10) for z in zs]  # e^z = 10^(z / ln 10) > 0 if z > -inf

print(f"{'z':>7}" + "".join(f"{n:>11}" for n in names))
for i, z in enumerate(inputs):
    print(f"{z:>7}" + "".join(f"{exps[n][i].item():>11.4g}" for n in names))

# per dtype, the first z of the list whose exp is exactly 0
first_zero = {n: zs[int((e == 0).nonzero()[0])] for n, e in exps.items()}
print("first exact 0:", first_zero)

# the inputs are rounded to the dtype first
stored = {n: torch.tensor([-1e4, -1e9], dtype=d).tolist()
          for n, d in zip(names, dtypes)}
print("-1e4, -1e9 stored as:", stored)
