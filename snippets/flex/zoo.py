import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.flex_attention import (and_masks, create_block_mask,
                                               create_mask, flex_attention, or_masks)


def size(name, n, low=0):  # True, or a clear error for a bad window, prefix, ...
    if isinstance(n, bool) or not isinstance(n, int) or n < low:
        raise ValueError(f"{name} must be an int >= {low}, got {n!r}")
    return True


def causal(offset=0):  # key <= query + offset; offset L_K - L_Q: bottom-right
    return size("offset", offset, -2**62) and (lambda b, h, q, kv: kv <= q + offset)

def window(n):  # with causal(): a query sees at most n keys, itself included
    return size("window", n) and (lambda b, h, q, kv: q - kv < n)

def first(n):  # the first n keys: a prefix (prefix-LM) or attention sinks
    return size("first", n) and (lambda b, h, q, kv: kv < n)

def chunk(n):  # a query sees the keys of its own chunk of n tokens only
    return size("chunk", n, 1) and (lambda b, h, q, kv: q // n == kv // n)


# --- demo: each mask through flex_attention and, made dense, through SDPA ---
q, k, v = torch.randn(3, 1, 2, 8, 8, generator=torch.Generator().manual_seed(0))
zoo = {"causal": causal(), "window": and_masks(causal(), window(3)),
       "prefix-LM": or_masks(causal(), first(4)),
       "chunked": and_masks(causal(), chunk(4)),
       "window + sinks": and_masks(causal(), or_masks(window(3), first(2)))}
keep, gap = {}, {}  # keep: the dense (1, 1, L, L) bool mask, True = take part
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see the page
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for name, mask_mod in zoo.items():
        keep[name] = create_mask(mask_mod, 1, 1, 8, 8, device="cpu")
        block = create_block_mask(mask_mod, 1, 1, 8, 8, device="cpu")
        gap[name] = (flex_attention(q, k, v, block_mask=block)
                     - sdpa(q, k, v, attn_mask=keep[name])).abs().max().item()
