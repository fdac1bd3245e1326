import torch
import torch.nn.functional as F

Q = torch.tensor([[1.0, 0.0], [1.0, 1.0]])  # L_Q = 2 queries, d_k = 2
K = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])  # L_K = 3 keys, d_k = 2
V = torch.tensor([[1.0, 2.0], [3.0, 0.0], [9.0, 9.0]])  # L_K = 3 values, d_v = 2
keep = torch.tensor([True, True, False])  # the third key is [PAD]
d_k = K.shape[-1]
pad = ["" if k else " [PAD]" for k in keep.tolist()]
keys = [f"$k_{j}${p}" for j, p in enumerate(pad, 1)]  # names for the rows of K and V
values = [f"$v_{j}${p}" for j, p in enumerate(pad, 1)]

scores = Q @ K.T  # (L_Q, L_K): one dot product per (query, key) pair
scaled = scores / d_k**0.5  # divide by sqrt(2)
M = torch.zeros(3).masked_fill(~keep, float("-inf"))  # (L_K,): 0 = kept, -inf = masked
masked = scaled + M  # M broadcasts over the query rows
exps = torch.exp(masked)  # exp(-inf) = 0
weights = exps / exps.sum(dim=-1, keepdim=True)  # = torch.softmax(masked, dim=-1)
output = weights @ V  # (L_Q, d_v): each row mixes the value rows by its weights

torch.set_printoptions(precision=4)
print("scores:", scores, "scaled:", scaled, "M:", M, "masked:", masked, sep="\n")
print("exps:", exps, "weights:", weights, "output:", output, sep="\n")
by_hand = weights[0, 0] * V[0] + weights[0, 1] * V[1]  # output row 1, by hand
unmasked = torch.softmax(scaled, dim=-1)  # the weights if nothing were hidden
same = torch.allclose(output, F.scaled_dot_product_attention(Q, K, V, attn_mask=keep))
print("same as F.scaled_dot_product_attention:", same)
