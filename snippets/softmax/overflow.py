import math
import torch


def naive(z):
    e = torch.exp(z)
    return e / e.sum(dim=-1, keepdim=True)


def max_subtracted(z):
    return naive(z - z.amax(dim=-1, keepdim=True))  # the largest entry becomes 0


def rounded(t):
    return [round(v, 4) for v in t.tolist()]


# --- demo ---
rows = [  # the same gaps (1 and 2), so the same answer
    torch.tensor([3.0, 2.0, 1.0]),
    torch.tensor([1000.0, 999.0, 998.0]),
    torch.tensor([-1000.0, -1001.0, -1002.0]),
    torch.tensor([12.0, 11.0, 10.0], dtype=torch.float16),
]
naive_out, stable_out = [naive(z) for z in rows], [max_subtracted(z) for z in rows]
torch_out = [torch.softmax(z, dim=-1) for z in rows]
inputs = [", ".join(f"{x:g}" for x in z.tolist()) for z in rows]
dtypes = [str(z.dtype).removeprefix("torch.") for z in rows]
for z, a, b, c in zip(rows, naive_out, stable_out, torch_out):
    print(z.tolist(), z.dtype, " exp(z):", rounded(torch.exp(z)))
    print("  naive:         ", rounded(a))
    print("  max subtracted:", rounded(b))
    print("  torch.softmax: ", rounded(c))
# exp(x) overflows to inf above log(largest finite number)
limit32 = math.log(torch.finfo(torch.float32).max)
limit16 = math.log(torch.finfo(torch.float16).max)
print("exp overflows above", limit32, "(float32) and", limit16, "(float16)")
exact = torch.softmax(rows[0].double(), dim=-1)  # float64 reference
print("float64 reference:", rounded(exact))
