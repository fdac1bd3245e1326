# %% [markdown]
# # Lab: Online softmax
#
# This notebook runs the examples from [Softmax in fused kernels: online softmax](../online.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you
# can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown]
# ## m and l, updated block by block
#
# One row of scores is split into blocks, and the running max $m$ and the running sum $l$ are updated
# block by block. The probabilities made from the last $(m, l)$ equal `torch.softmax`.

# %%
# snippet: online/softmax.py

# %% [markdown]
# ### Try it: changing the block size
#
# If you compute the same row `x` with block sizes $1$, $2$, $3$ and $8$, how do the per-block $m$ and $l$
# change? Does the last $(m, l)$ depend on the block size?
#
# <details markdown><summary>Answer</summary>
#
# The intermediate values depend on the block size. The smaller the blocks, the more steps $m$ rises in,
# and each time $l$ shrinks and then grows again. But the last $m$ is always the row's maximum, and the last
# $l$ is $\sum_j e^{x_j - m}$. Rounded to four places, the last $(m, l)$ is the
# same for all four block sizes (`True`{ data-claim="lab: len(set(finals.values())) == 1" }). Apart from rounding, they do not depend on the block size. When a block is
# as long as the row or longer, there is only one block, and it is ordinary max subtraction.
#
# </details>

# %%
finals = {}  # each block size's last (m, l)
for size in (1, 2, 3, 8):
    steps = [(round(m.item(), 4), round(l.item(), 4)) for m, l in online_stats(x, size)]
    finals[size] = steps[-1]
    print(f"block {size}: (m, l) per block = {steps}")

# %% [markdown]
# ## The output, rescaled by the same factor: `online_attention`
#
# The unnormalized output is rescaled by the same factor as $l$ and divided by $l$ at the very end. Every key
# is masked for query `0`.

# %%
# snippet: online/attention.py

# %% [markdown]
# ### Try it: a query with only its first block masked
#
# If you change `keep` so that one query cannot see the first two keys (`late[2, :2] = False`), and set the
# block size to $2$, that row's $m$ is $-\infty$ while the first block is processed. Is the result the same as SDPA's?
#
# <details markdown><summary>Answer</summary>
#
# It is (a difference of `< 1e-6`{ data-claim="lab: (mine - theirs).abs().max().item()" }). Thanks to the guard that subtracts $0$ when the value to subtract is $-\infty$, $l$ and the running
# output stay $0$ in the masked block, and the computation is normal from the block where real keys appear.
# Without the guard, $-\infty - (-\infty)$ produces `nan` in the first block, and that `nan` is not erased
# by the later blocks either.
#
# </details>

# %%
late = keep.clone()
late[2, :2] = False
mine, _ = online_attention(q, k, v, late, 2)
theirs = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=late)
print("query 2 sees keys:", late[2].nonzero().flatten().tolist())
print(f"max |online - SDPA| = {(mine - theirs).abs().max().item():.1e}")

# %% [markdown]
# ## When every key is masked
#
# The unguarded computation, the guarded one, `torch.softmax`, `torch._safe_softmax` and SDPA's two kernels,
# side by side.

# %%
# snippet: online/guard.py

# %% [markdown]
# ### Try it: which op is SDPA's default choice?
#
# If SDPA's default choice on CPU really is the flash kernel, its result must be bit-for-bit equal to
# passing the same inputs directly to the CPU flash op in `torch.ops.aten`. Compare the two results with
# `torch.equal`, and look at the lse that op returns alongside for the fully masked row.
#
# <details markdown><summary>Answer</summary>
#
# They are bit-for-bit equal (`True`{ data-claim="lab: torch.equal(direct, sdpa(q, k, v, attn_mask=x))" }). This op does not accept a boolean mask, so you pass an additive mask
# of the same dtype as `q`, like `x`. Given a boolean mask, SDPA first converts it into an additive mask and
# passes that to this op. The lse of the first row, which is fully masked, is
# `0`{ data-claim="lab: direct_lse[0, 0, 0].item()" }, not $-\infty$, because
# the kernel stores $m + \log l$ after turning $m$ into $0$ and $l$ into $1$ at the end. The next section
# shows how this value causes trouble when merging.
#
# </details>

# %%
cpu_flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
direct, direct_lse = cpu_flash(q, k, v, attn_mask=x)
print("SDPA == the CPU flash op:", torch.equal(direct, sdpa(q, k, v, attn_mask=x)))
print("its lse per row:", direct_lse.flatten().tolist())

# %% [markdown]
# ## Merging with lse
#
# With the `(output, logsumexp)` that the CPU flash kernel returns, the keys are split in half, computed
# separately and merged.

# %%
# snippet: online/merge.py

# %% [markdown]
# ### Try it: splitting into three
#
# If you split the <span data-claim="lab: k.shape[-2]">eight</span> keys into pieces of $3$, $3$ and $2$, compute them separately and call `merge`
# twice to merge them, is the result the same as computing in one go? What if you change the order of
# merging?
#
# <details markdown><summary>Answer</summary>
#
# It is the same, to within
# `< 1e-6`{ data-claim="lab: max((left[0] - full).abs().max().item(), (right[0] - full).abs().max().item())" }. Merging with lse is "adding up the exponential sums", so the order and
# the grouping do not matter. But a row that sees no key in some piece, like query `0`, needs that
# piece's lse corrected to $-\infty$. The cell below finds such rows from the mask, piece by piece, and
# fixes them.
#
# </details>

# %%
pieces = []
for h in (slice(0, 3), slice(3, 6), slice(6, 8)):
    out_h, lse_h = flash(q, k[..., h, :], v[..., h, :], attn_mask=hide[:, h])
    no_key = torch.isneginf(hide[:, h]).all(-1)  # rows that see no key in this piece
    pieces.append((out_h, lse_h.masked_fill(no_key, -torch.inf)))
left = merge(*merge(*pieces[0], *pieces[1]), *pieces[2])
right = merge(*pieces[0], *merge(*pieces[1], *pieces[2]))
print(f"((1, 2), 3): max gap {(left[0] - full).abs().max().item():.1e}")
print(f"(1, (2, 3)): max gap {(right[0] - full).abs().max().item():.1e}")

# %% [markdown]
# ## Figure: m and l block by block

# %%
# snippet: online/figure.py

# %% [markdown]
# The horizontal axis is the index $j$ of the key. In the upper plot, the gray dots are the scores $x_j$ and the
# blue horizontal lines the running max $m_t$ up to each block. The lower plot is the running sum $l_t$, relative
# to $m_t$, drawn at each block's last key, so its horizontal position is the number of keys seen so far. In a block
# where $m$ rises, $l$ shrinks by a factor of $e^{m_{\text{old}} - m_{\text{new}}}$, and then the new terms are
# added.
