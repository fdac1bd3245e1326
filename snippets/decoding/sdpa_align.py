import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right
from torch.backends import cuda

torch.manual_seed(0)
sdpa = F.scaled_dot_product_attention
q, k = torch.randn(1, 5, 4), torch.randn(1, 5, 4)  # (B, L, d_k)
eye = torch.eye(5)[None]  # v = identity: the output is the weight matrix

# is_causal=True hides what torch.ones(L_Q, L_K).tril() hides, for L_Q < L_K too
top_left = torch.ones(3, 5, dtype=torch.bool).tril()
w = sdpa(q[:, :3], k, eye, is_causal=True)[0]
is_causal_top_left = torch.equal(w > 0, top_left)

# one decoding step: the new token is the last of 5 positions (L_Q = 1, L_K = 5)
bottom_right = torch.ones(1, 5, dtype=torch.bool).tril(5 - 1)  # shift L_K - L_Q
step = {"is_causal=True": sdpa(q[:, 4:], k, eye, is_causal=True)[0, 0],
        "bottom_right": sdpa(q[:, 4:], k, eye, attn_mask=bottom_right)[0, 0]}
sees = {name: int((row > 0).sum()) for name, row in step.items()}
print("one new query sees", sees, "keys")

# L_Q = 5 > L_K = 3, bottom-right: rows 0 and 1 see no key
with warnings.catch_warnings(record=True) as caught:  # torch warns of NaN here
    warnings.simplefilter("always")
    bias = causal_lower_right(5, 3)
warned = str(caught[0].message)
out = sdpa(q, k[:, :3], eye[:, :3, :3], attn_mask=bias)[0]  # (5, 3) weights
out_bool = sdpa(q, k[:, :3], eye[:, :3, :3], attn_mask=bias._materialize())[0]
empty_rows = out[:2].tolist()  # what SDPA returns where no key is seen
version = torch.__version__.split("+")[0]  # measured with this torch, on CPU
same_as_bool = torch.equal(out, out_bool)
params = cuda.SDPAParams(q, k[:, :3], eye[:, :3, :3], None, 0.0, False, False)
fused = cuda.can_use_flash_attention(params) or cuda.can_use_efficient_attention(params)
print("is_causal=True is top-left:", is_causal_top_left)
print("warning:", warned)
print("rows 0, 1 (no key):", empty_rows, "nan anywhere:", bool(out.isnan().any()))
print("CausalBias and its bool mask agree:", same_as_bool, "torch", version)
print("flash or memory-efficient kernel usable (what _dispatch asks):", fused)
