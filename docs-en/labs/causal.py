# %% [markdown]
# # Lab: Causal mask
#
# This notebook runs the examples from [Causal mask: seeing only what came before](../causal.md) unchanged, ready
# for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell
# you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site
# was built.

# %% [markdown]
# ## Three steps: `tril`, `masked_fill`, `softmax`

# %%
# snippet: causal/weights.py

# %% [markdown]
# ### Try it: a longer sentence
#
# If you raise `T` to <span data-claim="lab: T">six</span>, what values end up on the diagonal? Change `T` in the cell below and check.
#
# <details markdown><summary>Answer</summary>
#
# The diagonal is $1, \tfrac12, \tfrac13, \dots, \tfrac16$, that is `[1, 0.5, 0.3333, 0.25, 0.2, 0.1667]`{ data-claim="lab: diagonal" }. All the scores are equal, so each row splits $1$
# evenly among the cells it may see, and the number of cells a row may see is exactly its row number.
#
# </details>

# %%
T = 6
mask = torch.tril(torch.ones(T, T))
scores = torch.zeros(T, T).masked_fill(mask == 0, float("-inf"))
diagonal = torch.softmax(scores, dim=-1).diagonal()
diagonal

# %% [markdown]
# ## The mask table as a figure
#
# Each row is the token being read now, each column a token it looks at. A cell holding `1` may be seen; `0` is
# masked.

# %%
# snippet: causal/grid.py

# %% [markdown]
# ### Try it: another phrase
#
# Change `chars` in the cell above to another text, for example `"sunrise"` or `"ABCDEFG"`, one letter per
# token. How many cells hold `1` in all? The cell below counts them for the <span data-claim="lab: len(chars)">seven</span> letters `"ABCDEFG"`.
#
# <details markdown><summary>Answer</summary>
#
# With $T$ tokens there are $1 + 2 + \dots + T = \tfrac{T(T+1)}{2}$ cells holding `1`. <span data-claim="lab: len(chars)">Seven</span> tokens give
# <span data-claim="lab: int(visible.sum())">twenty-eight</span> cells.
#
# </details>

# %%
chars = list("ABCDEFG")
visible = torch.tril(torch.ones(len(chars), len(chars), dtype=torch.bool))
int(visible.sum())

# %% [markdown]
# ## The softmax axis: `dim=-1` and `dim=0`

# %%
# snippet: causal/dims.py

# %% [markdown]
# ### Try it: the wrong axis
#
# When the scores have shape `(B, H, T, T)`, what sums to $1$ if you take the softmax with `dim=1`?
#
# <details markdown><summary>Answer</summary>
#
# Axis `1` is the head axis, so the heads share out the same cell among themselves. A masked cell is `-inf`
# in every head, so that position becomes `nan`. The cell below counts them: `36`{ data-claim="lab: nans" } of the
# `96`{ data-claim="lab: wrong.numel()" } cells. The chapter explains it in
# [Why write `-1` instead of `1`](../causal.md#why-minus-one).
#
# </details>

# %%
hidden = torch.tril(torch.ones(4, 4)) == 0
scores = torch.randn(2, 3, 4, 4).masked_fill(hidden, float("-inf"))
wrong = torch.softmax(scores, dim=1)
nans = int(wrong.isnan().sum())
nans, wrong.numel()

# %% [markdown]
# ## The mask lets training happen in one pass

# %%
# snippet: causal/parallel.py

# %% [markdown]
# ### Try it: without the mask
#
# Compare the first row of `attention(q, k, v, causal=False)` with the result computed from the first
# token alone.
#
# <details markdown><summary>Answer</summary>
#
# They differ (`False`{ data-claim="lab: first_same" }). Without the mask the first token also sees the later tokens. Only the last row, which may
# see every token anyway, is the same (`True`{ data-claim="lab: last_same" }).
#
# </details>

# %%
first_alone = attention(q[:1], k[:1], v[:1], causal=False)[0]
first_same = torch.allclose(unmasked[0], first_alone)
last_same = torch.allclose(unmasked[-1], prefix[-1])
first_same, last_same
