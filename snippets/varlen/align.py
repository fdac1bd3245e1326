import torch


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


def varlen_causal_mask(cu_q, cu_k):  # keep mask, bottom-right per sequence
    cu_q, cu_k = check_cu(cu_q, name="cu_q"), check_cu(cu_k, name="cu_k")
    n_q, n_k = cu_q.diff(), cu_k.diff()
    if len(n_q) != len(n_k) or (n_q > n_k).any():  # bottom-right: queries <= keys
        raise ValueError(f"cu_q, cu_k need as many sequences, each with queries <= "
                         f"keys: got {n_q.tolist()} queries, {n_k.tolist()} keys")
    doc_q, doc_k = (torch.arange(len(n)).repeat_interleave(n) for n in (n_q, n_k))
    last = (cu_k[1:] - cu_q[1:])[doc_q] + torch.arange(len(doc_q))  # last key seen
    return (doc_q[:, None] == doc_k) & (torch.arange(len(doc_k)) <= last[:, None])


# --- demo: 3, 5, 2 keys (cached + new); the last 2, 2, 1 of them are new queries ---
cu_q, cu_k = torch.tensor([0, 2, 4, 5]), torch.tensor([0, 3, 8, 10])
right = varlen_causal_mask(cu_q, cu_k)
same = torch.block_diag(*(torch.ones(a, b) for a, b in zip(cu_q.diff(), cu_k.diff())))
tril = torch.ones_like(right).tril  # against one alignment for the whole packed row
masks = {"per sequence": right, "global top-left": same.bool() & tril(),
         "global bottom-right": same.bool() & tril(int(cu_k[-1] - cu_q[-1]))}
wrong = {n: (m != right).any(-1).nonzero().flatten().tolist() for n, m in masks.items()}
for n, m in masks.items():
    print(f"{n}: rows that differ {wrong[n]}",
          *(" ".join("■⬚"[not x] for x in row) for row in m), sep="\n")
