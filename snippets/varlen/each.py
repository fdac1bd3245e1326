import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.bias import causal_lower_right


def check_cu(cu, total=None, name="cu_seqlens"):  # offsets of packed sequences
    cu = torch.as_tensor(cu)
    ints = cu.dtype in (torch.int32, torch.int64) and cu.dim() == 1 and len(cu) > 1
    problem = ("must be 1-D ints like [0, n, ...]" if not ints else
               "must start at 0" if cu[0] != 0 else
               "must increase (each sequence >= 1 token)" if (cu.diff() < 1).any() else
               "" if total in (None, cu[-1]) else f"must end at {total} tokens")
    if problem:
        raise ValueError(f"{name} {problem}, got {cu.tolist()}")
    return cu.long()


def attend_each(q, k, v, cu_q, cu_k):  # reference: each sequence alone, bottom-right
    cu_q, cu_k = check_cu(cu_q, q.size(-2), "cu_q"), check_cu(cu_k, k.size(-2), "cu_k")
    n_q, n_k = cu_q.diff(), cu_k.diff()
    if len(n_q) != len(n_k) or (n_q > n_k).any():  # bottom-right: queries <= keys
        raise ValueError(f"cu_q, cu_k need as many sequences, each with queries <= "
                         f"keys: got {n_q.tolist()} queries, {n_k.tolist()} keys")
    return torch.cat([sdpa(q[..., a:b, :], k[..., c:d, :], v[..., c:d, :],
                           attn_mask=causal_lower_right(b - a, d - c))  # torch's mask
                      for a, b, c, d in zip(cu_q, cu_q[1:], cu_k, cu_k[1:])], dim=-2)


# --- demo: align.py's sequences; the packed masks built another way (block_diag) ---
cu_q, cu_k = torch.tensor([0, 2, 4, 5]), torch.tensor([0, 3, 8, 10])
torch.manual_seed(0)
q, k, v = torch.randn(5, 8), torch.randn(10, 8), torch.randn(10, 8)  # one head
alone = attend_each(q, k, v, cu_q, cu_k)  # (total_q, d)
ones = [torch.ones(a, b, dtype=torch.bool) for a, b in zip(cu_q.diff(), cu_k.diff())]
same = torch.block_diag(*ones)  # then one alignment for the whole packed row:
keep = {"per sequence": torch.block_diag(*(o.tril(o.size(1) - len(o)) for o in ones)),
        "global top-left": same.tril(), "global bottom-right": same.tril(10 - 5)}
gap = {n: (sdpa(q, k, v, attn_mask=m) - alone).abs().amax(-1) for n, m in keep.items()}
for n, g in gap.items():
    print(f"{n:>19}: rows off by > 1e-6: {torch.where(g > 1e-6)[0].tolist()}")
