import warnings
import torch
from torch.nn.attention.flex_attention import (and_masks, create_block_mask,
                                               flex_attention)


def document(lengths, L):  # packed sequences: a query sees its own document only
    lengths = torch.as_tensor(lengths)
    if lengths.dtype not in (torch.int32, torch.int64) or lengths.dim() != 1:
        raise TypeError(f"lengths must be a 1-D list of ints, got {lengths.dtype} "
                        f"of shape {tuple(lengths.shape)}")
    if (lengths < 1).any() or int(lengths.sum()) != L:
        raise ValueError(f"lengths {lengths.tolist()} must be >= 1 and sum to L={L}")
    doc = torch.repeat_interleave(torch.arange(len(lengths)), lengths)
    return lambda b, h, q, kv: doc[q] == doc[kv]


def layer(x, pos, w, mask_mod):  # one attention layer; learned positions pos
    h = (x + pos)[None, None]  # (1, 1, L, d)
    q, k, v = h @ w[0], h @ w[1], h @ w[2]
    block = create_block_mask(mask_mod, 1, 1, len(x), len(x), device="cpu")
    return flex_attention(q, k, v, block_mask=block)[0, 0]


# --- demo: two documents packed into one row of L = 3 + 5 tokens ---
torch.manual_seed(0)  # x: tokens, table: a learned position per index, w: W_Q, W_K, W_V
x, table, w = torch.randn(8, 8), torch.randn(8, 8), torch.randn(3, 8, 8) / 8**0.5
lengths, reset = [3, 5], torch.tensor([0, 1, 2, 0, 1, 2, 3, 4])  # position ids reset
causal = lambda b, h, q, kv: kv <= q  # noqa: E731
docs = and_masks(causal, document(lengths, 8))
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    alone = torch.cat([layer(x[:3], table[:3], w, causal),  # each document by itself
                       layer(x[3:], table[:5], w, causal)])
    packed = {"causal only": layer(x, table, w, causal),
              "document mask": layer(x, table, w, docs),
              "document mask + reset positions": layer(x, table[reset], w, docs)}
gap = {name: (out - alone).abs().amax(-1) for name, out in packed.items()}  # per token
same = {n: [bool(g[:3].max() < 1e-6), bool(g[3:].max() < 1e-6)] for n, g in gap.items()}
print(*(f"{n:>31}: as if alone (doc 1, doc 2): {s}" for n, s in same.items()), sep="\n")
