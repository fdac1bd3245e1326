import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

# The CPU flash kernel's key block, measured. With float16 inputs the kernel makes each
# block's weights against the max seen so far, and stores them in float16.
# Head h: key 0 scores 0, key h + 1 scores 20 (the row's max), every other key -30.
# v is 1e4 at key 0 only, so the output is 1e4 times key 0's weight.
n = 1024
k = torch.zeros(1, n - 1, n, 8, dtype=torch.float16)
k[..., 0] = -30.0
k[0, :, 0, 0] = 0.0
k[0, torch.arange(n - 1), torch.arange(1, n), 0] = 20.0
q, v = torch.zeros(1, n - 1, 1, 8, dtype=torch.float16), torch.zeros_like(k)
q[..., 0], v[0, :, 0, 0] = 1.0, 1e4
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    out = F.scaled_dot_product_attention(q, k, v, scale=1.0)[0, :, 0, 0]
# In the max's block, key 0 weighs e^-20: 0 in float16. In an earlier block it weighs 1,
# then the float32 rescale by e^-20 keeps it. Where it first counts, block two starts.
counted = out != 0
kv_block = int(counted.int().argmax()) + 1  # the max at key kv_block: key 0 counts
step = bool((counted == (torch.arange(1, n) >= kv_block)).all())  # and from there on
print(f"key 0 counts once the max is at key {kv_block} or later: {step}")
print(f"output around there: {out[kv_block - 3:kv_block + 1].tolist()}")
