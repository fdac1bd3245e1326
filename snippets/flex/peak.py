import itertools
import os
import torch
from torch.profiler import ProfilerActivity, profile
from torch.nn.attention.flex_attention import create_block_mask


def peak_bytes(fn, *args, **kwargs):
    """The most bytes torch's CPU allocator holds at once while fn runs: every
    allocation (+) and free (-) the profiler saw, replayed in time order."""
    os.environ["KINETO_LOG_LEVEL"] = "6"  # profiler: no log lines on stderr (read once)
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn(*args, **kwargs)
    events = sorted(prof.profiler.kineto_results.events(), key=lambda e: e.start_ns())
    sizes = [e.nbytes() for e in events if e.name() == "[memory]"]
    return max(itertools.accumulate(sizes, initial=0))


# --- demo: eager create_block_mask of a causal mask, B = H = 1 ---
sizes = [1024, 2048]
dense = [L * L for L in sizes]  # the dense bool mask: one byte per cell
peak = [peak_bytes(create_block_mask, lambda b, h, q, kv: kv <= q, 1, 1, L, L,
                   device="cpu") for L in sizes]
ratio = [p / d for p, d in zip(peak, dense)]
for L, p, r in zip(sizes, peak, ratio):
    print(f"L = {L}: peak {p} bytes, {r:.2f} x the dense bool mask")
