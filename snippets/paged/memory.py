import math
import torch


def padded_waste(lengths):
    """Unused token slots when every sequence is given the longest one's length."""
    if not lengths or min(lengths) < 0:
        raise ValueError(f"lengths must be a non-empty list of lengths >= 0: {lengths}")
    return len(lengths) * max(lengths) - sum(lengths)

def paged_waste(lengths, page_size):
    """Unused token slots when each sequence holds whole pages of page_size tokens:
    only the tail of each last page."""
    if page_size <= 0:
        raise ValueError(f"page_size must be > 0, got {page_size}")
    if not lengths or min(lengths) < 0:
        raise ValueError(f"lengths must be a non-empty list of lengths >= 0: {lengths}")
    return sum(math.ceil(n / page_size) * page_size - n for n in lengths)


# --- demo: K and V memory left unused, padded against paged ---
# one token's K and V in every layer: 2 (K, V) x 32 layers x 32 heads x 128 x 2 bytes
mib = 2 * 32 * 32 * 128 * 2 / 2**20  # float16; an example model, not a measured one
g = torch.Generator().manual_seed(0)
batches = {"A, B, C": ([6, 9, 3], 4),  # the pool above, pages of 4 tokens
           "8 requests": (torch.randint(1, 2049, (8,), generator=g).tolist(), 16)}
names, padded, paged, used = list(batches), [], [], []
for lengths, page_size in batches.values():
    padded.append(padded_waste(lengths) * mib)  # MiB of K/V slots holding nothing
    paged.append(paged_waste(lengths, page_size) * mib)
    used.append(sum(lengths) * mib)
    print(f"lengths {lengths}, page size {page_size}: unused slots padded",
          padded_waste(lengths), "paged", paged_waste(lengths, page_size))
times = [a / b for a, b in zip(padded, paged)]  # padding wastes this many times more
share = {"padded": [w / (w + u) for w, u in zip(padded, used)],  # of what is reserved
         "paged": [w / (w + u) for w, u in zip(paged, used)]}
