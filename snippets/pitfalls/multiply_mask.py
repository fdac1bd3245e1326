import torch

S = torch.tensor([  # the adding chapter's scores: 3 real queries, 5 keys
    [2.0, 0.0, -1.0, 1.5, 0.5],
    [0.5, 1.0, -0.5, -2.0, 1.0],
    [-1.0, -2.5, -0.5, 0.0, -1.5],
])
keep = torch.tensor([True, True, True, False, False])  # True = real token
inf = float("-inf")

# wrong 1: times 0. A [PAD] score becomes 0, and e^0 = 1 still takes a share
times_zero = torch.softmax(S * keep, dim=-1)
# wrong 2: times -inf. Negative scores flip to +inf, 0 * -inf is NaN
times_inf = torch.softmax(S * torch.where(keep, 1.0, inf), dim=-1)
# fixed: ADD 0 to the real keys and -inf to [PAD]
M = torch.zeros(5).masked_fill(~keep, inf)
fixed = torch.softmax(S + M, dim=-1)

pad_share = [w[:, ~keep].sum(dim=-1) for w in (times_zero, times_inf, fixed)]
nan_rows = torch.stack([w.isnan().all(dim=-1) for w in (times_zero, times_inf, fixed)])
names = ["S * keep", "S * where(keep, 1, -inf)", "S + M"]
torch.set_printoptions(precision=4)
for name, share, nans in zip(names, pad_share, nan_rows):
    print(f"{name:>24}: [PAD] share per row {share}, NaN rows {nans}")
