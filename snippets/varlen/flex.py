import warnings
import torch
from torch.nn.attention.flex_attention import (create_block_mask, create_mask,
                                               flex_attention)
from torch.nn.functional import scaled_dot_product_attention as sdpa


def varlen_mask_mod(cu_q, cu_k):  # mask_mod: same sequence, bottom-right causal in it
    cu_q, cu_k = torch.as_tensor(cu_q), torch.as_tensor(cu_k)
    n_q, n_k = cu_q.diff(), cu_k.diff()
    if not (cu_q[0] == cu_k[0] == 0 and len(n_q) == len(n_k)
            and ((1 <= n_q) & (n_q <= n_k)).all()):
        raise ValueError(f"cu_q {cu_q.tolist()}, cu_k {cu_k.tolist()} must start at 0, "
                         "hold as many sequences, and 1 <= queries <= keys in each")
    doc_q, doc_k = (torch.arange(len(n)).repeat_interleave(n) for n in (n_q, n_k))
    shift = cu_k[1:] - cu_q[1:]  # per sequence: packed key index - packed query index
    return lambda b, h, q, kv: (doc_q[q] == doc_k[kv]) & (kv <= q + shift[doc_q[q]])


# --- demo: the document mask (cu_q = cu_k) and the chunked case (cu_q != cu_k) ---
torch.manual_seed(0)
gap, same = {}, {}
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex.md
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for name, cu_q, cu_k in (("document", [0, 3, 8, 10], [0, 3, 8, 10]),
                             ("chunked", [0, 2, 4, 5], [0, 3, 8, 10])):
        L_Q, L_K = cu_q[-1], cu_k[-1]
        q, k, v = (torch.randn(1, 2, n, 8) for n in (L_Q, L_K, L_K))
        mod = varlen_mask_mod(cu_q, cu_k)
        dense = create_mask(mod, 1, 1, L_Q, L_K, device="cpu")  # mod on every cell
        sizes = zip(torch.tensor(cu_q).diff(), torch.tensor(cu_k).diff())
        own = torch.block_diag(*(torch.ones(a, b).tril(b - a) for a, b in sizes))
        same[name] = dense[0, 0].equal(own.bool())  # built another way: per block
        block = create_block_mask(mod, 1, 1, L_Q, L_K, device="cpu")
        out = flex_attention(q, k, v, block_mask=block)
        gap[name] = (out - sdpa(q, k, v, attn_mask=dense)).abs().max().item()
        print(f"{name:>8}: keys per row {dense[0, 0].sum(-1).tolist()}, equals the "
              f"block_diag mask {same[name]}, |flex - SDPA| < 1e-6 {gap[name] < 1e-6}")
