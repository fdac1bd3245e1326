import torch

# Token slots and score cells: a padded batch, one packed row, the diagonal blocks
torch.manual_seed(0)
batches = {"3, 5, 2": torch.tensor([3, 5, 2]),
           "64 lengths in 16..1024": torch.randint(16, 1025, (64,))}
rows = {}
for name, n in batches.items():
    padded = len(n) * int(n.max())  # [PAD] fills every sequence up to the longest
    packed = int(n.sum())  # one row, cu_seqlens marks where each sequence starts
    rows[name] = {"padded slots": padded, "packed slots": packed,
                  "packed / padded": packed / padded,
                  "padded score cells": len(n) * int(n.max()) ** 2,  # B x L x L
                  "dense packed cells": packed ** 2,  # one (total, total) mask
                  "diagonal-block cells": int((n ** 2).sum())}  # what varlen computes
for name, r in rows.items():
    print(f"{name}:", *(f"  {k:>21}: {v:.3f}" if isinstance(v, float) else
                        f"  {k:>21}: {v}" for k, v in r.items()), sep="\n")
