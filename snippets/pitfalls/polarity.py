import torch
import torch.nn.functional as F

T = 4
keep = torch.ones(T, T, dtype=torch.bool).tril()  # True = may look (keep-mask)
scores = torch.zeros(T, T)  # equal scores, as in the causal chapter

# masked_fill fills where the mask is True: give it the cells to HIDE
wrong = torch.softmax(scores.masked_fill(keep, float("-inf")), dim=-1)
fixed = torch.softmax(scores.masked_fill(~keep, float("-inf")), dim=-1)

# SDPA's boolean attn_mask is the other way round: True = take part
q = k = torch.zeros(1, T, 1)  # equal scores again
v = torch.eye(T)[None]  # identity values: the output is the weight matrix
sdpa = F.scaled_dot_product_attention
sdpa_wrong = sdpa(q, k, v, attn_mask=~keep)[0]
sdpa_fixed = sdpa(q, k, v, attn_mask=keep)[0]
# a float mask is ADDED to the scores: 1.0 hides nothing
sdpa_float = sdpa(q, k, v, attn_mask=keep.float())[0]

torch.set_printoptions(precision=4)
results = {"masked_fill(keep)": wrong, "masked_fill(~keep)": fixed,
           "SDPA attn_mask=~keep": sdpa_wrong, "SDPA attn_mask=keep": sdpa_fixed,
           "SDPA attn_mask=keep.float()": sdpa_float}
first = torch.stack([w[0] for w in results.values()])  # the first row of each
last = torch.stack([w[-1] for w in results.values()])
for name, top, bottom in zip(results, first, last):
    print(f"{name}\n  first row {top}\n  last row  {bottom}")
