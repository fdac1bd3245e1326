import torch
from torch.nn.attention.varlen import varlen_attn

# torch's own variable-length attention (FlashAttention underneath) on this CPU
torch.manual_seed(0)
q, k, v = (torch.randn(n, 2, 8) for n in (5, 10, 10))  # (total tokens, heads, d)
cu_q = torch.tensor([0, 2, 4, 5], dtype=torch.int32)  # 2, 2, 1 queries
cu_k = torch.tensor([0, 3, 8, 10], dtype=torch.int32)  # 3, 5, 2 keys
try:  # window_size=(-1, 0): causal, as its docstring says
    varlen_attn(q, k, v, cu_q, cu_k, 2, 5, window_size=(-1, 0))
    said = "ran"
except NotImplementedError as error:
    said = f"{type(error).__name__}: {str(error).split('. ')[0]}"
print(said)
