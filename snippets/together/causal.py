import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

torch.manual_seed(0)
L_Q, L_K, d = 2, 4, 4  # 2 new queries, 4 keys (2 earlier tokens + the 2 new ones)
q, k = torch.randn(1, L_Q, d), torch.randn(1, L_K, d)
eye = torch.eye(L_K)[None]  # v = identity: the output is the weight matrix

top_left = torch.ones(L_Q, L_K, dtype=torch.bool).tril()  # causal=True, is_causal=True
bottom_right = torch.ones(L_Q, L_K, dtype=torch.bool).tril(L_K - L_Q)  # new tokens last
print("top-left (is_causal=True):", top_left.int(), sep="\n")
print("bottom-right (KV cache):", bottom_right.int(), sep="\n")

sdpa = F.scaled_dot_product_attention
w_causal = sdpa(q, k, eye, is_causal=True)[0]
w_lower_right = sdpa(q, k, eye, attn_mask=causal_lower_right(L_Q, L_K))[0]
same_top = torch.equal(w_causal == 0, ~top_left)  # which weights is_causal zeroes
same_bottom = torch.equal(w_lower_right == 0, ~bottom_right)
print("is_causal hides what top_left hides:", same_top)
print("causal_lower_right hides what bottom_right hides:", same_bottom)
