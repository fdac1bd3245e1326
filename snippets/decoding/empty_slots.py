import torch
import torch.nn.functional as F

torch.manual_seed(0)
sdpa = F.scaled_dot_product_attention
cap, n, d = 8, 5, 4  # a cache of 8 slots, 5 written so far
q = torch.randn(1, 1, d)  # the new token's query (B, L_Q, d_k)
k = torch.full((1, cap, d), float("nan"))  # NaN stands for whatever torch.empty held
v = torch.full((1, cap, d), float("nan"))
k[:, :n], v[:, :n] = torch.randn(n, d), torch.randn(n, d)
keep = (torch.arange(cap) < n)[None]  # (1, L_K): the unused slots are masked
additive = torch.zeros(1, cap).masked_fill(~keep, float("-inf"))
filled = keep[..., None]  # (1, L_K, 1): which rows of k and v are written

tries = {  # the name says what is done about the unused slots
    "bool mask": sdpa(q, k, v, attn_mask=keep),
    "-inf float mask": sdpa(q, k, v, attn_mask=additive),
    "torch.where on k only": sdpa(q, torch.where(filled, k, 0.0), v, attn_mask=keep),
    "torch.where on v only": sdpa(q, k, torch.where(filled, v, 0.0), attn_mask=keep),
    "torch.where on k and v": sdpa(q, torch.where(filled, k, 0.0),
                                   torch.where(filled, v, 0.0), attn_mask=keep),
    "zeroed cache": sdpa(q, k.nan_to_num(0.0), v.nan_to_num(0.0), attn_mask=keep),
    "masked_fill, where on v": torch.softmax(  # scores replaced, not added to
        (q @ k.transpose(1, 2) / d**0.5).masked_fill(~keep, float("-inf")), dim=-1
    ) @ torch.where(filled, v, 0.0),
    "slice [:n]": sdpa(q, k[:, :n], v[:, :n]),
}
reference = tries["slice [:n]"]
names = list(tries)
nans = [int(out.isnan().sum()) for out in tries.values()]
same = [torch.allclose(out, reference) for out in tries.values()]
for name, count, ok in zip(names, nans, same):
    print(f"{name:>24}: {count} NaN of {reference.numel()}, same as slice: {ok}")
