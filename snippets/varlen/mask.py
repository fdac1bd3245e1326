import torch
import torch.nn.functional as F


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


def document_ids(cu_seqlens):  # token t -> the index of the sequence it belongs to
    n = check_cu(cu_seqlens).diff()
    return torch.arange(len(n)).repeat_interleave(n)


def document_mask(cu_seqlens, causal=True):  # keep mask (total, total): True = attend
    doc = document_ids(cu_seqlens)
    keep = doc[:, None] == doc[None, :]  # the same sequence: the diagonal blocks
    return keep.tril() if causal else keep


# --- demo: sequences of 3, 5 and 2 tokens concatenated into one row ---
lengths = torch.tensor([3, 5, 2])
cu = torch.cat([torch.tensor([0]), lengths.cumsum(0)])  # cumulative offsets
doc, keep = document_ids(cu), document_mask(cu)
print(f"cu_seqlens:   {cu.tolist()}\ndocument_ids: {doc.tolist()}")
print(*(" ".join("■⬚"[not x] for x in row) for row in keep), sep="\n")
torch.manual_seed(0)
q, k, v = (torch.randn(2, int(cu[-1]), 8) for _ in range(3))  # (heads, total, d)
packed = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
alone = torch.cat([F.scaled_dot_product_attention(  # each sequence by itself, causal
    q[:, a:b], k[:, a:b], v[:, a:b], is_causal=True) for a, b in zip(cu, cu[1:])], 1)
gap = (packed - alone).abs().max().item()
print("max |packed - each alone| < 1e-6:", gap < 1e-6)
