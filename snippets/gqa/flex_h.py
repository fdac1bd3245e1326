import warnings
import torch
from torch._dynamo.exc import Unsupported
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

# Which h does a mask_mod get under enable_gqa=True: the query head's index or the KV
# head's? Keep key number h alone: each query head then outputs the value row number h.
g, H_q, H_kv, L = torch.Generator().manual_seed(0), 8, 2, 8
q, k, v = (torch.randn(1, h, L, 4, generator=g) for h in (H_q, H_kv, H_kv))
block = create_block_mask(lambda b, h, q_idx, kv_idx: kv_idx == h, 1, H_q, L, L,
                          device="cpu")
# the obvious way to look: keep each h it is given (in a default: no global is read)
record = lambda b, h, q_idx, kv_idx, seen=[]: seen.append(h) or kv_idx == h
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    out = flex_attention(q, k, v, block_mask=block, enable_gqa=True)[0, :, 0]  # query 0
    try:  # inside flex_attention a mask_mod is traced: a side effect is refused
        flex_attention(q, k, v, block_mask=create_block_mask(record, 1, H_q, L, L,
                       device="cpu"), enable_gqa=True)
        kept = "recorded"
    except Unsupported as error:
        kept = f"{type(error).__name__}: {str(error).splitlines()[0]}"
kv_head = torch.arange(H_q) // (H_q // H_kv)  # the KV head each query head reads
h_seen = [int((v[0, kv_head[j]] - out[j]).abs().sum(-1).argmin()) for j in range(H_q)]
exact = all(torch.equal(out[j], v[0, kv_head[j], h]) for j, h in enumerate(h_seen))
print("h seen by query heads 0..7:", h_seen, "exact:", exact)
print(kept)
