import torch

S = torch.tensor([
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token
M = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
added = torch.softmax(S + M, dim=-1)  # the usual route: one softmax

# the other route: softmax first, then zero [PAD], then renormalise
zeroed = torch.softmax(S, dim=-1) * keep
sums = zeroed.sum(dim=-1)  # forget the last step and rows stop summing to 1
renormed = zeroed / sums[:, None]
print("row sums before renormalising:", sums)
print("renormalised == softmax(S + M):", torch.allclose(renormed, added))

# a [PAD] key with a large score, in float16: softmax first lets it win
S16 = S.clone()
S16[0, 3] = 20.0
S16 = S16.half()
late = torch.softmax(S16, dim=-1) * keep  # real weights underflow to 0
late = late / late.sum(dim=-1, keepdim=True)  # 0 / 0 = nan
early = torch.softmax(S16 + M.half(), dim=-1)  # [PAD] is -inf before the max
print("softmax first, row 0:", late[0])
print("mask first,    row 0:", early[0])
