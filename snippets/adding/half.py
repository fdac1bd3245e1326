import torch

keep = torch.tensor([True, True, True, False, False])  # True = real token
scores = torch.tensor([2.0, 0.0, -1.0, 1.5, 0.5], dtype=torch.float16)

# built in float32, then cast: -1e9 silently turns into -inf
cast = torch.zeros(5).masked_fill(~keep, -1e9).to(torch.float16)
print("float32 mask cast to float16:", cast)

# filled straight into float16: torch refuses
try:
    scores.masked_fill(~keep, -1e9)
    refused = "no complaint"
except Exception as err:
    refused = str(err)
print("masked_fill(-1e9) on float16:", refused)

# torch.where with a Python number: the number takes float16, and -1e9 becomes -inf
where = torch.where(keep, scores, -1e9)
print("torch.where(keep, scores, -1e9):", where)

# finfo.min plus a modest negative score already overflows
low = torch.finfo(torch.float16).min
extra = torch.tensor([-15.0, -16.0]).half()  # two modest negative scores
summed = torch.tensor([low, low]).half() + extra
print("finfo.min - 15, finfo.min - 16:", summed)
