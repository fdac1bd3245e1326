import torch

# float32: the identity holds for real numbers, but exp(100) already overflows
s = torch.tensor([100.0, 100.0, 1.0])
M = torch.tensor([float("-inf"), -100.0, 0.0])
add_first = torch.exp(s + M)  # what adding a mask does
exp_first = torch.exp(s) * torch.exp(M)  # the same in exact arithmetic
print("exp(s):          ", torch.exp(s))
print("exp(s + M):      ", add_first)
print("exp(s) * exp(M): ", exp_first)

# the same rule lets softmax subtract the largest score: e^(z - c) = e^z * e^(-c),
# and the common factor e^(-c) cancels when the row is divided by its sum
z = torch.tensor([100.0, 99.0, 98.0])
naive = torch.exp(z) / torch.exp(z).sum()  # inf / inf
shifted = torch.exp(z - z.max()) / torch.exp(z - z.max()).sum()
print("naive:  ", naive)
print("shifted:", shifted)
print("== torch.softmax:", torch.allclose(shifted, torch.softmax(z, dim=-1)))
