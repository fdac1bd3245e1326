import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def sdpa_with(backend, q, k, v, mask):  # SDPA allowed to use only this kernel
    if mask is not None and mask.is_floating_point():  # a float mask is added
        if mask.unique().tolist() in ([1.0], [0.0, 1.0]):  # keep.float(): hides nothing
            raise TypeError(f"mask of only 0s and 1s ({mask.dtype}) would be added to "
                            "the scores: pass keep itself, not keep.float()")
    with sdpa_kernel(backend):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


# --- demo ---
torch.manual_seed(0)
q, k, v = (torch.randn(2, 4, 6, 16) for _ in range(3))  # (B, H, L, d_k)
keep = torch.rand(2, 1, 6, 6) > 0.3  # True = take part
keep[..., 0] = True  # every query sees key 0: no fully masked row
masks = {"bool": keep, "float": torch.zeros(2, 1, 6, 6).masked_fill(~keep, -torch.inf)}
gaps = {}
for name, mask in masks.items():
    flash = sdpa_with(SDPBackend.FLASH_ATTENTION, q, k, v, mask)  # CPU flash kernel
    math = sdpa_with(SDPBackend.MATH, q, k, v, mask)  # the formula, step by step
    gaps[name] = (flash - math).abs().max().item()
    print(f"{name} mask, CPU flash kernel: ran, max |flash - math| = {gaps[name]:.1e}")
try:  # the memory-efficient kernel is CUDA only
    sdpa_with(SDPBackend.EFFICIENT_ATTENTION, q, k, v, keep)
except RuntimeError as error:
    efficient = str(error).splitlines()[0]
    print("EFFICIENT_ATTENTION on CPU:", efficient)
version = torch.__version__
print("torch", version)
