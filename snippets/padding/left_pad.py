import torch

lengths = torch.tensor([2, 5, 3])
B, L = len(lengths), int(lengths.max())
right = torch.arange(L) < lengths[:, None]  # [w1, w2, PAD, PAD, PAD]
left = torch.arange(L) >= (L - lengths)[:, None]  # [PAD, PAD, PAD, w1, w2]
causal = torch.tril(torch.ones(L, L, dtype=torch.bool))  # (L_Q, L_K)

empty, nan_rows, keeps = {}, {}, {}
for name, pad_keep in [("right", right), ("left", left)]:
    keeps[name] = causal & pad_keep[:, None, :]  # (B, L_Q, L_K)
    empty[name] = (~keeps[name].any(dim=-1)).sum(dim=-1)  # rows that see no key
    scores = torch.zeros(B, L, L).masked_fill(~keeps[name], float("-inf"))
    nan_rows[name] = int(torch.softmax(scores, dim=-1).isnan().any(dim=-1).sum())
    print(f"{name:>5} padding: empty rows per sentence {empty[name].tolist()},",
          f"NaN rows after softmax {nan_rows[name]}")
print(keeps["left"][0].int())  # sentence 0, left padded: the first three rows
