# %% [markdown]
# # Lab: Padding masks and API conventions
#
# This notebook runs the examples from [Padding masks and API conventions](../padding.md) unchanged, ready for you
# to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown]
# ## From lengths to a mask
#
# `padding_mask` builds a $(B, L)$ boolean mask from the sentence lengths. `True` marks a real token
# (`True` = attend). Bad input is rejected with a message.

# %%
# snippet: padding/mask.py

# %% [markdown]
# ### Try it: an empty sentence
#
# A sentence of length `0` is allowed. If you mask the keys with `padding_mask([0, 3])` and take the softmax, what
# happens to the rows of the first sentence?
#
# <details markdown><summary>Answer</summary>
#
# The first sentence's mask is all `False`, so every cell becomes $-\infty$, and each row computes $\tfrac{0}{0}$ and
# becomes `nan`{ data-claim="lab: torch.softmax(scores, dim=-1)[0]" }. The second sentence gets ordinary weights. It is right for the function to accept an empty sentence,
# but the computation after it has to be ready for such rows. The chapter's section
# [Fully masked rows](../padding.md#fully-masked) covers how.
#
# </details>

# %%
torch.manual_seed(0)
keep_empty = padding_mask([0, 3])
scores = torch.randn(2, 3, 3).masked_fill(~keep_empty[:, None, :], float("-inf"))
print(keep_empty)
torch.softmax(scores, dim=-1)

# %% [markdown]
# ## The key padding mask and its axes
#
# The scores are $(B, H, L_Q, L_K)$, and the mask that hides the `[PAD]` keys is $(B, 1, 1, L_K)$. The example below
# compares it with a $(B, 1, L_Q, 1)$ mask that picks the wrong axis on purpose.

# %%
# snippet: padding/axes.py

# %% [markdown]
# ### Try it: not expanding the axes
#
# This time we do not expand the axes at all and pass the $(B, L)$ mask unchanged. There are <span data-claim="lab: B">five</span> sentences and the
# longest length is also <span data-claim="lab: L">five</span>, so $B = L_Q$. Will there be an error? Will `nan` rows appear? How much weight do the
# `[PAD]` keys get? The cell below prints the number of rows holding a `nan`, `nan_rows`, and the largest weight a
# `[PAD]` key gets, `pad_weight`.
#
# <details markdown><summary>Answer</summary>
#
# It is silently wrong, with neither an error nor `nan` (`0`{ data-claim="lab: nan_rows" } rows hold a `nan`). Broadcasting lines axes up from the right, so $(B, L)$ is read
# as $(1, 1, B, L)$ and the sentence axis lands in the place of the query axis. Then the $i$-th query row of **every**
# sentence uses the mask of the $i$-th sentence. All lengths are at least $1$, so there is no empty row; instead, the
# `[PAD]` keys take a sizeable weight (the largest is
# `> 0.5`{ data-claim="lab: pad_weight" }). Writing a mask's shape out with four axes every time prevents this mistake.
#
# </details>

# %%
torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3, 4, 1])
B, H, L = len(lengths), 2, int(lengths.max())  # B == L: shapes happen to fit
keep = torch.arange(L) < lengths[:, None]  # (B, L)
scores = torch.randn(B, H, L, L)
w_flat = torch.softmax(scores.masked_fill(~keep, float("-inf")), dim=-1)  # runs
pad_keys = ~keep[:, None, None, :].expand(B, H, L, L)
nan_rows = int(w_flat.isnan().any(dim=-1).sum())
pad_weight = round(w_flat[pad_keys].max().item(), 4)  # largest weight on [PAD]
print("nan_rows:", nan_rows)
print("pad_weight:", pad_weight)

# %% [markdown]
# ## Leave the query-side `[PAD]` out of the output
#
# With only the keys masked, the `[PAD]` query rows get plausible outputs too. When a sentence vector is made by
# averaging, these rows have to be left out for the result to equal the sentence computed alone.

# %%
# snippet: padding/pooling.py

# %% [markdown]
# ### Try it: a sentence without padding
#
# The second sentence is the longest, so it has no `[PAD]` at all. For this sentence, are the mean over all positions,
# `naive`, and the mean over the real tokens only, `masked`, the same?
#
# <details markdown><summary>Answer</summary>
#
# They are the same (`True`{ data-claim="lab: torch.allclose(naive[1], masked[1])" }). There are no `[PAD]` rows to add, and the length you divide by equals the full length $L$. So a
# test that checks only the longest sentence cannot catch this mistake. The difference shows only in shorter
# sentences (`False`{ data-claim="lab: torch.allclose(naive[0], masked[0])" } for the first one), so when you check, always pick a sentence that has padding.
#
# </details>

# %%
print("naive :", naive[1])
print("masked:", masked[1])
torch.allclose(naive[1], masked[1]), torch.allclose(naive[0], masked[0])

# %% [markdown]
# ## Fully masked rows and fill values
#
# When every cell of a row is masked, the result depends on the fill value: `-inf` gives `nan`, a finite value gives
# a uniform distribution.

# %%
# snippet: padding/nan_row.py

# %% [markdown]
# ### Try it: fill values that survive float16
#
# In mixed precision, the mask is converted to `float16`. Of `[-1e4, -6e4, -7e4, -1e9]`{ data-claim="lab: fills" }, which stay finite when
# converted to `float16`? The reference is `torch.finfo(torch.float16).min`.
#
# <details markdown><summary>Answer</summary>
#
# The smallest finite number `float16` can represent is the `finfo.min` the cell below prints, `-65504`{ data-claim="lab: low" }, and numbers beyond that
# range become `-inf`. Kept in float16 they are `[-10000, -60000, -inf, -inf]`{ data-claim="lab: stored" }: the first two
# stay and the last two become `-inf`. Once the fill value is `-inf`, a fully
# masked row becomes `nan` again. That is why the fill value is chosen per dtype, with `torch.finfo(dtype).min`.
#
# </details>

# %%
low = torch.finfo(torch.float16).min  # the smallest finite float16
print("float16 finfo.min:", low)
fills = [-1e4, -6e4, -7e4, -1e9]
stored = [torch.tensor(fill).half().item() for fill in fills]  # each fill in float16
for fill, kept in zip(fills, stored):
    print(f"{fill:>8.0e} -> float16 {kept}")

# %% [markdown]
# ## What `True` means in each API
#
# Several APIs get the same scores and the same mask `m`, `True` only at the last key, and which cells get a weight
# of exactly $0$ tells what `True` means.

# %%
# snippet: padding/conventions.py

# %% [markdown]
# ### Try it: flipping the direction to match
#
# In SDPA's boolean `attn_mask`, `True` means attend; in `masked_fill`, `True` means masked. If you give SDPA `~m`, do
# you get the same weights as `masked_fill(m, -inf)`?
#
# <details markdown><summary>Answer</summary>
#
# Yes, the same (`True`{ data-claim="lab: torch.allclose(flipped, by_fill, atol=1e-6)" }). `~m` is `False` only at the last key, so SDPA masks only that cell, which is what
# `masked_fill(m, -inf)` does. Moving between the two directions takes just one `~`, but leaving it out raises no
# error. That is why this chapter puts the direction into the mask's name (`keep`, `hide`).
#
# </details>

# %%
flipped = sdpa(q, k, eye, ~m)  # SDPA given the opposite polarity
by_fill = torch.softmax(s.masked_fill(m, -inf), -1)
print(flipped[0, 0])
torch.allclose(flipped, by_fill, atol=1e-6)
