import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right, causal_upper_left

# the second chunk of a prompt: 4 tokens cached, a chunk of 3 (queries at positions 4-6)
torch.manual_seed(0)
sdpa = F.scaled_dot_product_attention
cached, C = 4, 3
q, (k, v) = torch.randn(1, C, 8), torch.randn(2, 1, cached + C, 8)
right = torch.ones(C, cached + C, dtype=torch.bool).tril(cached)  # chunk_mask(3, 4)
wrong = torch.ones(C, cached + C, dtype=torch.bool).tril()  # top-left, as is_causal
missed = [(right[i] & ~wrong[i]).nonzero().flatten().tolist() for i in range(C)]
masks = {"bottom-right (chunk_mask)": right, "top-left (tril())": wrong,
         "causal_lower_right": causal_lower_right(C, cached + C),  # a CausalBias
         "causal_upper_left": causal_upper_left(C, cached + C)}
outs = {name: sdpa(q, k, v, attn_mask=m) for name, m in masks.items()}
outs["is_causal=True"] = sdpa(q, k, v, is_causal=True)
names = list(outs)
error = {n: (o - outs[names[0]]).abs().amax(dim=-1)[0].tolist()  # per query row
         for n, o in outs.items()}
torch_same = [torch.equal(outs["causal_lower_right"], outs[names[0]]),  # CausalBias
              torch.equal(outs["causal_upper_left"], outs[names[1]])]  # on CPU
is_causal_gap = (outs["is_causal=True"] - outs[names[1]]).abs().max().item()
for i, keys in enumerate(missed):
    print(f"query {cached + i} misses keys {keys} under top-left")
print(*(f"{n:>25}: max error per row {[f'{e:.2g}' for e in error[n]]}"
        for n in names), sep="\n")

# a prompt of 10 tokens in chunks of 4, each with the top-left mask: which rows go wrong
x_q, x_k, x_v = torch.randn(3, 1, 10, 8)
whole = sdpa(x_q, x_k, x_v, is_causal=True)
bad, size = [], 4  # per query row: gone wrong?
for start in range(0, 10, size):
    end = min(start + size, 10)
    top_left = torch.ones(end - start, end, dtype=torch.bool).tril()
    out = sdpa(x_q[:, start:end], x_k[:, :end], x_v[:, :end], attn_mask=top_left)
    bad += ((out - whole[:, start:end]).abs().amax(dim=-1)[0] > 1e-3).tolist()
wrong_rows = [i for i, b in enumerate(bad) if b]
print(f"top-left chunks of {size} over 10 tokens: wrong rows", wrong_rows)
