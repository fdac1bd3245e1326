import torch

dtypes = [torch.float32, torch.float16, torch.bfloat16]
names = [str(dtype).removeprefix("torch.") for dtype in dtypes]
fills = ["-inf", "-1e9", "-1e4", "finfo.min"]
keep = torch.tensor([True, True, True, False, False])  # True = real token
row = torch.tensor([2.0, 0.0, -1.0, 1.5, 0.5])  # the first token's row
high = torch.tensor([2.0, 0.0, -1.0, 300.0, 0.5])  # a [PAD] key scoring 300
cast, leak, twice, full = ([[None] * 3 for _ in fills] for _ in range(4))

for i, name in enumerate(fills):
    for j, dtype in enumerate(dtypes):
        value = torch.finfo(dtype).min if name == "finfo.min" else float(name)
        # build the mask in float32, then cast it to the scores' dtype
        M = torch.zeros(5).masked_fill(~keep, value).to(dtype)
        cast[i][j] = f"{M[3].item():.6g}"  # the fill as this dtype stores it
        # weight on the [PAD] scoring 300, then the first weight of a fully masked row
        leak[i][j] = torch.softmax(high.to(dtype) + M, dim=-1)[3].item()
        twice[i][j] = f"{(M + M)[3].item():.6g}"  # two masks added together
        full[i][j] = torch.softmax(row.to(dtype) + M[3], dim=-1)[0].item()

for title, table in [("fill as stored", cast), ("weight on [PAD] scoring 300", leak),
                     ("two masks added", twice), ("fully masked row, weight 0", full)]:
    print(title)
    for name, cells in zip(fills, table):
        print(f"  {name:>9}:", "  ".join(f"{c:>12.6g}" if isinstance(c, float)
                                         else f"{c:>12}" for c in cells))
