# %% [markdown]
# # Lab: A collection of masks with FlexAttention
#
# This notebook runs the examples from [A collection of masks with FlexAttention](../flex.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you
# can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built. On a CPU, FlexAttention runs in eager mode and warns once, the first time it is called. The examples filter
# out only that warning, by its message.

# %% [markdown]
# ## Mask pieces and how they combine
#
# The four pieces `causal`, `window`, `first` and `chunk` are combined with `and_masks` and `or_masks` into <span data-claim="flex/zoo.py: len(zoo)">five</span>
# masks; each is computed with FlexAttention and with SDPA, and the differences are collected in `gap`.

# %%
# snippet: flex/zoo.py

# %%
for name, m in keep.items():
    print(f"{name:>15}: keys per row {m[0, 0].sum(-1).tolist()},",
          f"max |flex - SDPA| < 1e-6: {gap[name] < 1e-6}")

# %% [markdown]
# ### Try it: a two-sided sliding window
#
# Build a sliding window that sees both before and after, as an encoder does: query $i$ sees keys
# $i - 2, \dots, i + 2$. Can you write it as a single piece, without `causal`? How many keys does a row in the
# middle see?
#
# <details markdown><summary>Answer</summary>
#
# `lambda b, h, q, kv: (q - kv).abs() <= 2` alone does it. A row in the middle sees itself and two keys on each
# side, <span data-claim="lab: int(dense_both.sum(-1).max())">five</span> keys. The rows at the ends are cut off on one side and see <span data-claim="lab: int(dense_both.sum(-1)[0])">three</span>. Python's `abs(q - kv)` works on
# tensors too, but `if` cannot be used.
#
# </details>

# %%
both = lambda b, h, q, kv: (q - kv).abs() <= 2  # noqa: E731
dense_both = create_mask(both, 1, 1, 8, 8, device="cpu")[0, 0]
print(dense_both.sum(-1).tolist())
with warnings.catch_warnings():  # eager flex_attention on CPU warns: see the chapter
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(both, 1, 1, 8, 8, device="cpu")
    out = flex_attention(q, k, v, block_mask=block)
gap_both = (out - sdpa(q, k, v, attn_mask=dense_both)).abs().max().item()
print("max |flex - SDPA|:", gap_both)

# %% [markdown]
# ## Four sliding-window conventions
#
# The number of keys each row sees when the same `W` is passed to the rules of transformers, FlashAttention,
# attention-gym and Keras.

# %%
# snippet: flex/window.py

# %% [markdown]
# ### Try it: Mistral's window
#
# Mistral's config has `sliding_window=4096`. What do you pass as FlashAttention's `window_size` to get the same
# window as transformers? And what do you pass to attention-gym's `generate_sliding_window`?
#
# <details markdown><summary>Answer</summary>
#
# transformers sees $4096$ keys, itself included, so pass `window_size=(4095, 0)` to FlashAttention, which includes
# both ends, and `generate_sliding_window(4095)` to attention-gym. The cell below checks the same thing with small values of `W`.
#
# </details>

# %%
for W in (2, 5):
    hf = and_masks(causal, lambda b, h, q, kv, W=W: kv > q - W)
    fa = lambda b, h, q, kv, W=W: (q - (W - 1) <= kv) & (kv <= q)  # noqa: E731
    same = torch.equal(create_mask(hf, 1, 1, 12, 12, device="cpu"),
                       create_mask(fa, 1, 1, 12, 12, device="cpu"))
    print(W, same)

# %% [markdown]
# ## Document masks and packing
#
# <span data-claim="flex/packing.py: len(lengths)">Two</span> documents are packed into one row and compared with running each alone: with only the causal mask, with a
# document mask, and with a document mask together with positions that restart in each document.

# %%
# snippet: flex/packing.py

# %% [markdown]
# ### Try it: three documents
#
# If you pack three documents of lengths $2, 3, 3$, how should `reset` be written? Does the third document also
# match running it alone?
#
# <details markdown><summary>Answer</summary>
#
# `reset` counts again from $0$ for each document: `[0, 1, 0, 1, 2, 0, 1, 2]`{ data-claim="lab: reset3.tolist()" }. Together with the document mask, all
# three documents match running alone, within rounding (they differ by `< 1e-6`{ data-claim="lab: gap3" }). Build it with
# `torch.cat([torch.arange(n) for n in lengths])` and you need not write it out by hand.
#
# </details>

# %%
three = [2, 3, 3]
reset3 = torch.cat([torch.arange(n) for n in three])
docs3 = and_masks(causal, document(three, 8))
with warnings.catch_warnings():  # eager flex_attention on CPU warns: see the chapter
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    starts = (0, 2, 5)
    alone3 = torch.cat([layer(x[a:a + n], table[:n], w, causal)
                        for a, n in zip(starts, three)])
    packed3 = layer(x, table[reset3], w, docs3)
gap3 = (packed3 - alone3).abs().max().item()
print(reset3.tolist(), "max |packed - alone|:", gap3)

# %% [markdown]
# ## Cost
#
# The byte counts of a dense boolean mask and of a `BlockMask`, and the fraction of blocks each pattern skips,
# counted block by block.

# %%
# snippet: flex/cost.py

# %% [markdown]
# ### Try it: a wider window
#
# At `131072`{ data-claim="lab: L" } tokens, what happens to the fraction of blocks skipped if the sliding window is
# widened from `1024`{ data-claim="lab: widths[0]" } keys to `4096`{ data-claim="lab: widths[1]" }?
#
# <details markdown><summary>Answer</summary>
#
# For each query block, the key blocks that survive number roughly the window width divided by the block size, plus
# the block on the diagonal, so a window <span data-claim="lab: widths[1] // widths[0]">four times</span> as wide means a little under four times as many blocks
# computed: `3.62`{ data-claim="lab: computed[widths[1]] / computed[widths[0]]" } times. The fraction skipped drops from `0.9912`{ data-claim="lab: 1 - computed[widths[0]]" } to
# `0.9683`{ data-claim="lab: 1 - computed[widths[1]]" }, but most blocks are still skipped.
#
# </details>

# %%
L, widths = 131072, (1024, 4096)
q_rows = torch.arange(L)
computed = {}  # the fraction of blocks computed, by window width
for W in widths:
    partial, full = block_map(q_rows - (W - 1), q_rows)
    computed[W] = (partial | full).sum().item() / (L // 128) ** 2
    print(W, "skipped:", 1 - computed[W])
