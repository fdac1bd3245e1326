import torch


def naive_softmax(z):  # the definition, as written
    e = torch.exp(z)
    return e / e.sum(dim=-1, keepdim=True)


def stable_softmax(z):  # subtract the row maximum first: same result, no overflow
    return naive_softmax(z - z.amax(dim=-1, keepdim=True))


# --- demo ---
big = torch.tensor([1000.0, 999.0, 998.0])  # exp(1000) is inf in float32
half = torch.tensor([12.0, 11.0, 10.0], dtype=torch.float16)  # exp(12) is inf too
inputs = [", ".join(f"{x:g}" for x in z.tolist()) for z in (big, half)]
dtypes = [str(z.dtype).removeprefix("torch.") for z in (big, half)]
wrong = [naive_softmax(z) for z in (big, half)]
fixed = [stable_softmax(z) for z in (big, half)]
reference = [torch.softmax(z, dim=-1) for z in (big, half)]
torch.set_printoptions(precision=4)
for z, w, f, r in zip((big, half), wrong, fixed, reference):
    print(z.dtype, "exp(z) =", torch.exp(z))
    print("  naive:         ", w)
    print("  max subtracted:", f)
    print("  torch.softmax: ", r)
