import torch

S = torch.tensor([  # the adding chapter's scores
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token
M = torch.zeros(5).masked_fill(~keep, float("-inf"))

wrong = torch.softmax(S, dim=-1) * keep  # [PAD] zeroed AFTER softmax
fixed = torch.softmax(S + M, dim=-1)  # masked BEFORE softmax
torch.set_printoptions(precision=4, sci_mode=False)
print("zeroed after softmax:", wrong, "row sums:", wrong.sum(dim=-1), sep="\n")
print("added before softmax:", fixed, "row sums:", fixed.sum(dim=-1), sep="\n")

# the output shrinks with the row sum: the values are mixed with too little weight
v = torch.ones(5, 2)  # every value is [1, 1]: a correct output is [1, 1] too
print("output row 0, zeroed after:", (wrong @ v)[0])
print("output row 0, added before:", (fixed @ v)[0])
renormed = torch.allclose(wrong / wrong.sum(dim=-1, keepdim=True), fixed)
print("zeroed, then divided by the row sum == added:", renormed)
