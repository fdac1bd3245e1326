import torch
import torch.nn.functional as F

# two sentences of different length, as a (B, L_K) keep-mask: True = real token
keep = torch.tensor([[True, True, True, False, False],
                     [True, True, True, True, False]])

M = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))  # one line
M_where = torch.where(keep, 0.0, float("-inf"))  # the same, another line
back = M == 0  # and back: kept exactly where the additive mask is 0
print(M)
print("masked_fill == where:", torch.equal(M, M_where))
print("M == 0 gives keep back:", torch.equal(back, keep))

# scaled_dot_product_attention takes either: a bool mask (True = take part)
# or a float mask, which it adds to the scaled scores
torch.manual_seed(0)
B, L_Q, L_K, d = 2, 3, 5, 8
q, k, v = torch.randn(B, L_Q, d), torch.randn(B, L_K, d), torch.randn(B, L_K, d)
out_bool = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, :])
out_add = F.scaled_dot_product_attention(q, k, v, attn_mask=M[:, None, :])
same = torch.allclose(out_bool, out_add)
print("bool mask and additive mask give the same output:", same)
