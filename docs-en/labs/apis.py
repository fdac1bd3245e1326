# %% [markdown]
# # Lab: One mask, many libraries
#
# This notebook runs the conversion functions and the probe from [One mask, many libraries](../apis.md) unchanged,
# ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a
# cell you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the
# site was built. This notebook uses PyTorch only.

# %% [markdown]
# ## Converting between conventions
#
# `to_keep` turns a mask written in one of the six conventions into a boolean keep (`True` = attend), and
# `from_keep` does the reverse. From convention $a$ to $b$ is `from_keep(to_keep(m, a), b)`.

# %%
# snippet: apis/convert.py

# %% [markdown]
# ### Try it: an MHA mask for SDPA
#
# You have a `key_padding_mask` (`True` = masked) that you used to pass to `nn.MultiheadAttention`. How do
# you convert it to pass the same masking to `F.scaled_dot_product_attention` as a boolean mask, and as an
# additive mask?
#
# <details markdown><summary>Answer</summary>
#
# The MHA mask follows the hide convention. SDPA's boolean mask follows the keep convention, so it is
# `from_keep(to_keep(m, "hide"), "keep")`, that is, `~m`. As an additive mask it is
# `from_keep(to_keep(m, "hide"), "additive")`, a float mask with `-inf` in the masked cells and `0`
# elsewhere (`[[0, 0, -inf]]`{ data-claim="lab: additive" }). The cell below prints both results.
#
# </details>

# %%
hide = torch.tensor([[False, False, True]])  # key_padding_mask: the last key is [PAD]
additive = from_keep(to_keep(hide, "hide"), "additive")
print(from_keep(to_keep(hide, "hide"), "keep"))
print(additive)

# %% [markdown]
# ### Try it: combined `finfo.min` masks
#
# In `float16`, a causal mask and a padding mask were both built as `finfo.min` additive masks and added.
# What happens when the sum is passed to `to_keep(..., "finfo_min")`? How should the two masks be combined
# safely?
#
# <details markdown><summary>Answer</summary>
#
# A cell masked by both masks gets `finfo.min` added twice, overflows and becomes `-inf`{ data-claim="lab: summed.min().item()" }. That value is not
# in the `finfo_min` convention, so `to_keep` reports a `ValueError`. The safe way is to combine the
# boolean keep masks first with a logical AND (`&`) and convert only once, at the end, with
# `from_keep(..., "finfo_min", torch.float16)`.
#
# </details>

# %%
causal = torch.ones(3, 3, dtype=torch.bool).tril()
padding = torch.tensor([True, True, False]).expand(3, 3)
summed = (from_keep(causal, "finfo_min", torch.float16)
          + from_keep(padding, "finfo_min", torch.float16))
try:
    to_keep(summed, "finfo_min")
except ValueError as error:
    print("ValueError:", error)
print(from_keep(causal & padding, "finfo_min", torch.float16))

# %% [markdown]
# ## Fully masked rows, path by path
#
# The same probe goes to several PyTorch paths, to see what the fully masked row becomes and how many
# `nan`s the gradients get. The output has one line per path and mask form, giving for `float32`,
# `float16` and `bfloat16` in turn "what the fully masked row became · the number of `nan`s in the
# gradients". `1/4`{ data-claim="apis/fully_masked.py: 1 / len(S[-1])" } is the uniform distribution, all <span data-claim="apis/fully_masked.py: len(S[-1])">four</span> cells $\tfrac{1}{4}$; `softmax(S[-1])` is the
# softmax of the unmasked scores, as if there had been no mask.

# %%
# snippet: apis/fully_masked.py

# %% [markdown]
# ### Try it: between uniform and `nan`
#
# To avoid `nan` on MHA's `need_weights=True` path, you filled with `finfo.min` instead of `-inf`. The
# `nan` goes away, but what does that row's output become? What happens if the row is not left out of the
# loss?
#
# <details markdown><summary>Answer</summary>
#
# The row becomes the uniform distribution, looking at every key equally (the line
# `MHA need_weights=True · finfo.min` in the output above, `'1/4 · 0'`{ data-claim="apis/fully_masked.py: cells[3 * labels.index('MHA need_weights=True · finfo.min')]" } in `float32`), and outputs the average of all the values,
# `[PAD]` included. Its gradients are finite too, so unless it is left out of the loss, a meaningless row
# quietly joins the training. The `nan` is gone, but the problem is only hidden. Such rows have to be left
# out of the output and the loss explicitly.
#
# </details>
