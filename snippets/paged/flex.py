import warnings
import torch
from torch.nn.functional import scaled_dot_product_attention as sdpa
from torch.nn.attention.flex_attention import create_block_mask, flex_attention
from torch.nn.attention.experimental._paged_attention import PagedAttention

# torch's own paged attention, eager on CPU: 2 sequences of 7 and 10 tokens in a
# pool of 8 pages of 4 tokens, one decode query each, against each one's own cache
torch.manual_seed(0)
P, n_pages, d, lengths = 4, 8, 8, torch.tensor([7, 10])
paged = PagedAttention(n_pages, P, max_batch_size=2, device="cpu")
pool_k, pool_v = torch.randn(2, 1, 1, n_pages * P, d) * 3  # stale: earlier sequences'
own = [torch.randn(2, 1, 1, n, d) for n in lengths.tolist()]  # (B, H, L, d) each
for b, (k, v) in enumerate(own):
    paged.reserve(torch.tensor(b), lengths[b])  # pages for the sequence's tokens
    positions = torch.arange(lengths[b])[None]  # (1, L): logical positions 0..L-1
    paged.assign(torch.tensor([b]), positions, k, v, pool_k, pool_v)
q = torch.randn(2, 1, 1, d)
logical = create_block_mask(lambda b, h, q_idx, kv_idx: kv_idx >= 0, 2, 1, 1, 3 * P,
                            device="cpu", BLOCK_SIZE=(1, P))  # 3 logical blocks
gap = {}  # largest gap from each sequence's own cache, with and without kv_len
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for name, kv_len in [("kv_len", lengths), ("no kv_len", None)]:
        block = paged.convert_logical_block_mask(logical, kv_len=kv_len)
        out = flex_attention(q, pool_k, pool_v, block_mask=block)
        gap[name] = [(out[b] - sdpa(q[b], *own[b][:, 0])).abs().max().item()
                     for b in range(2)]
version = torch.__version__.split("+")[0]  # measured with this torch, on CPU
print("torch", version, "page table:", paged.page_table.tolist())
print("largest gap from each one's own cache:",
      {name: [round(x, 4) for x in xs] for name, xs in gap.items()})
try:  # a block mask whose blocks are not pages
    paged.convert_logical_block_mask(create_block_mask(
        lambda b, h, q_idx, kv_idx: kv_idx >= 0, 2, 1, 1, 3 * P, device="cpu"))
except RuntimeError as error:
    refused = str(error)
print("RuntimeError:", refused)
