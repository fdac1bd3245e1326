import torch

dtype = torch.float16
row = torch.tensor([2.0, 0.0, -1.0, 1.5, 0.5])  # the scores of '나는'
hide = torch.ones(5, dtype=torch.bool)  # a row whose every key is hidden
low = torch.finfo(dtype).min  # the lowest finite float16

# wrong: -1e9 in a float32 mask, then cast to float16, is -inf: NaN again
wrong_M = torch.zeros(5).masked_fill(hide, -1e9).to(dtype)
# fixed: the lowest finite value of the scores' own dtype
fixed_M = torch.zeros(5, dtype=dtype).masked_fill(hide, low)
wrong = torch.softmax(row.to(dtype) + wrong_M, dim=-1)
fixed = torch.softmax(row.to(dtype) + fixed_M, dim=-1)
fills = ["-1e9 (float32 에서 만들어 바꿈)", f"torch.finfo({dtype}).min"]
print(fills[0], "stored as", wrong_M[0].item(), "-> weights", wrong)
print(fills[1], "=", low, "stored as", fixed_M[0].item(), "-> weights", fixed)

# finfo.min has no headroom: two additive masks summed overflow to -inf
pad_hide = torch.tensor([False, False, False, True, True])  # [PAD] keys
causal_hide = torch.tensor([False, True, True, True, True])  # later keys of '나는'
summed = (torch.zeros(5, dtype=dtype).masked_fill(pad_hide, low)
          + torch.zeros(5, dtype=dtype).masked_fill(causal_hide, low))
# fixed: combine the boolean masks first, then fill once
once = torch.zeros(5, dtype=dtype).masked_fill(pad_hide | causal_hide, low)
print("two masks added:   ", summed)
print("booleans, one fill:", once)
