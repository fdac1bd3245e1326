import torch


def block_map(lo, hi, sinks=0, block=128):
    """Row q keeps keys lo[q]..hi[q] and the first `sinks` keys up to hi[q]; lo and
    hi non-decreasing. Returns (partial, full): blocks run with and without mask_mod."""
    if not all(torch.is_tensor(t) and t.dtype == torch.int64 for t in (lo, hi)):
        raise TypeError(f"lo, hi must be int64 tensors, got {lo!r:.40}, {hi!r:.40}")
    if lo.dim() != 1 or lo.shape != hi.shape or len(lo) % block or (lo > hi).any() or (
            (lo.diff() < 0) | (hi.diff() < 0)).any():
        raise ValueError(f"need 1-D lo <= hi, non-decreasing, of one length, a multiple"
                         f" of {block}; got {tuple(lo.shape)}, {tuple(hi.shape)}")
    L = len(lo)
    start = torch.arange(0, L, block)  # the first index of each block
    a, b, r0, r1 = start, start + block - 1, start[:, None], start[:, None] + block - 1
    row = torch.maximum(r0, torch.searchsorted(hi, a))  # first row reaching key block
    inside = (row <= r1) & (lo[row.clamp(max=L - 1)] <= b)  # some row meets lo..hi
    some = ((a < sinks) & (hi[r1] >= a)) | inside
    full = (hi[r0] >= b) & ((b < sinks) | (lo[r1] <= a.clamp(min=sinks)))
    return some & ~full, full


# --- demo: exact costs at 8k, 32k and 128k tokens, one batch and one head ---
sizes = [8192, 32768, 131072]
dense = [L * L for L in sizes]  # a bool mask: one byte per cell
blocks = [16 * (L // 128) ** 2 + 16 * (L // 128) for L in sizes]  # 8 int32 tensors
W, sinks = 1024, 4  # the sliding window: keys a query sees; the sinks added to it
names = ["causal", f"window {W}", "documents of 1000", "prefix-LM 2048",
         "chunks of 8192", f"window {W} + {sinks} sinks"]
skipped = {name: [] for name in names}  # the fraction of blocks never computed
for L in sizes:
    q, zero = torch.arange(L), torch.zeros(L, dtype=torch.int64)
    rows = [(zero, q), (q - (W - 1), q), (q - q % 1000, q), (zero, q.clamp(min=2047)),
            (q - q % 8192, q), (q - (W - 1), q, sinks)]
    for name, row in zip(names, rows):
        partial, full = block_map(*row)
        skipped[name].append(1 - (partial | full).sum().item() / (L // 128) ** 2)
for name in names:
    print(f"{name:>22}: skipped " + ", ".join(f"{s:.4f}" for s in skipped[name]))
print("dense bytes:", dense, "BlockMask bytes:", blocks)
