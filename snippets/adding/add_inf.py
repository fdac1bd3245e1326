import torch

S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token

# additive mask M: 0 where kept, -inf where masked
M = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
added = S + M  # any finite score + (-inf) = -inf, whatever its sign
weights = torch.softmax(added, dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(M)
print(added)
print(weights)

filled = torch.softmax(S.masked_fill(~keep, float("-inf")), dim=-1)
same_as_fill = torch.equal(weights, filled)  # masked_fill and + M: bit for bit
only_real = torch.softmax(S[:, keep], dim=-1)  # pretend [PAD] never existed
same_as_real = torch.equal(weights[:, keep], only_real)
print("S + M equals masked_fill:", same_as_fill)
print("equals softmax over the real tokens only:", same_as_real)
print("row sums:", weights.sum(dim=-1))
