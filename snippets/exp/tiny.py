import math

import torch

dtypes = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
names = [str(dtype).removeprefix("torch.") for dtype in dtypes]
normal = [torch.finfo(d).smallest_normal for d in dtypes]  # finfo.tiny is the same
zero = [torch.zeros((), dtype=d) for d in dtypes]
subnormal = [torch.nextafter(o, o + 1).item() for o in zero]  # next number above 0
# round to nearest: below half the smallest subnormal, 0
predicted = [math.log(s) - math.log(2) for s in subnormal]
for row in zip(names, normal, subnormal, predicted):
    print("{:>8}  normal {:.4g}  subnormal {:.4g}  ln(subnormal/2) {:.4f}".format(*row))

# below the normal range the results keep fewer and fewer significant bits
exact = torch.exp(torch.tensor([-80.0, -100.0], dtype=torch.float64))
f32 = torch.exp(torch.tensor([-80.0, -100.0]))
rel_err = (f32.double() / exact - 1).tolist()
steps = f32[1].item() / subnormal[1]  # exp(-100) in units of the smallest subnormal
print("float32 relative error at z = -80, -100:", rel_err)
print("float32 exp(-100) =", steps, "x smallest subnormal")

# for speed, a CPU can flush subnormals to 0 (False if this CPU cannot)
flush_supported = torch.set_flush_denormal(True)
flushed = torch.exp(torch.tensor([-100.0])).item()
torch.set_flush_denormal(False)  # back to the default
print("float32 exp(-100) with subnormals flushed to 0:", flushed)
