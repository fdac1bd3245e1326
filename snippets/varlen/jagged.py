import logging.handlers
import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa

# Three sequences of 3, 5 and 2 tokens as one nested tensor: jagged layout, no [PAD]
torch.manual_seed(0)
lengths, heads, d = (3, 5, 2), 2, 8
seqs = {x: [torch.randn(n, heads, d) for n in lengths] for x in "qkv"}  # (n, H, d)
q, k, v = (torch.nested.nested_tensor(seqs[x], layout=torch.jagged).transpose(1, 2)
           for x in "qkv")  # (B, H, j, d): j is the ragged length
kept = logging.handlers.BufferingHandler(capacity=100)  # torch logs why no SDPA kernel
log = logging.getLogger("torch.nested._internal.sdpa")  # takes the input: keep it here
log.addHandler(kept)
log.propagate = False
result, gap = {}, {}
for is_causal in (False, True):
    alone = [sdpa(*(seqs[x][i].transpose(0, 1) for x in "qkv"), is_causal=is_causal)
             for i in range(len(lengths))]  # each sequence by itself: (H, n, d)
    try:
        with warnings.catch_warnings():  # the math path converts to the older layout
            warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")
            out = sdpa(q, k, v, is_causal=is_causal)
        gap[is_causal] = max((o - a).abs().max().item()
                             for o, a in zip(out.unbind(), alone))
        result[is_causal] = f"runs, |jagged - alone| < 1e-6: {gap[is_causal] < 1e-6}"
    except RuntimeError as error:
        result[is_causal] = f"{type(error).__name__}: {error}"
    print(f"is_causal={is_causal}: {result[is_causal]}")
said = [record.getMessage() for record in kept.buffer]
print(*(f"  logged: {line}" for line in said), sep="\n")
