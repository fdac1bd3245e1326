import torch

dtypes = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
names = [str(dtype).removeprefix("torch.") for dtype in dtypes]
at_neg_inf = [torch.exp(torch.tensor(float("-inf"), dtype=d)) for d in dtypes]
is_zero = [bool(e == 0) for e in at_neg_inf]  # exactly zero, not just small
sign_bit = [bool(e.signbit()) for e in at_neg_inf]  # False: it is +0, not -0
for name, e, s in zip(names, at_neg_inf, sign_bit):
    print(f"{name:>8}: exp(-inf) = {e.item()}, sign bit set: {s}")

# float32: a finite input can give the very same zero, by rounding
z = torch.tensor([float("-inf"), -200.0])
e = torch.exp(z)
same = torch.equal(e[0], e[1])
print("exp(-inf), exp(-200):", e.tolist(), "same bits:", same)

special = torch.exp(torch.tensor([float("inf"), float("nan")]))
print("exp(inf), exp(nan):", special.tolist())

# a row where every key is masked: 0 / 0
row = torch.exp(torch.tensor([float("-inf"), float("-inf")]))
print("all masked:", row.tolist(), "sum:", row.sum().item(), "->", row / row.sum())
