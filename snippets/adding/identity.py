import torch


def normalize(x):
    return x / x.sum(dim=-1, keepdim=True)  # divide each row by its sum


# --- demo ---
S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token
M = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))

p = torch.softmax(S, dim=-1)  # softmax with no mask at all
gate = torch.exp(M)  # e^0 = 1 keeps, e^-inf = 0 removes
gated = p * gate
rhs = normalize(gated)
lhs = torch.softmax(S + M, dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print("e^M:", gate)
print(gated)
print(rhs)
print("softmax(S + M) == normalize(softmax(S) * e^M):", torch.allclose(lhs, rhs))

# the identity holds for any finite M too, e.g. a distance penalty (ALiBi-like)
bias = -0.5 * torch.arange(5.0)
with_bias = torch.softmax(S + bias, dim=-1)
same_for_bias = torch.allclose(with_bias, normalize(p * torch.exp(bias)))
print("also for a finite bias:", same_for_bias)
