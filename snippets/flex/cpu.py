import warnings
import torch
from torch.nn.attention import flex_attention as flex

torch.manual_seed(0)
q, k, v = (torch.randn(1, 1, 8, 4) for _ in range(3))
block = flex.create_block_mask(lambda b, h, q_idx, kv_idx: kv_idx <= q_idx, 1, 1, 8, 8,
                               device="cpu")
# torch warns once per process; forget that it did, so this run shows the warning
flex._WARNINGS_SHOWN.discard("flex_attention_performance")
with warnings.catch_warnings(record=True) as caught:  # caught on purpose, shown below
    warnings.simplefilter("always")
    out = flex.flex_attention(q, k, v, block_mask=block)
said = [str(w.message).split("\n")[0] for w in caught]  # its first line
print(*said, sep="\n")
try:  # backward: does eager flex_attention on CPU give gradients?
    flex.flex_attention(q.requires_grad_(), k, v, block_mask=block).sum().backward()
    backward = "gradients"
except NotImplementedError as error:
    backward = f"NotImplementedError: {error}"
print(backward)
