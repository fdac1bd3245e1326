# %% [markdown]
# # Lab: Putting it together
#
# This notebook runs the examples from [Putting it together: a copyable `attention`](../together.md) unchanged,
# ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a
# cell you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the
# site was built.

# %% [markdown]
# ## The checking `attention` function
#
# It divides the scores by $\sqrt{d_k}$, adds the mask, applies the softmax along the keys, mixes the values and
# returns `(output, weights)`. In a boolean mask, `True` means **attend**, as in SDPA. The end of the file makes
# calls that are wrong on purpose, with their errors.

# %%
# snippet: together/attention.py

# %% [markdown]
# ### Try it: a mask of $0$ and $1$
#
# What happens if you pass an integer mask such as the `[1, 1, 1, 0, 0]` a tokenizer returns, unconverted? And what are
# the first query's weights when you convert it with `mask.bool()`, and when you convert it with `mask == 0`? Here `q`
# and `k` are all $1$, so every score is the same.
#
# <details markdown><summary>Answer</summary>
#
# The integer mask is refused with `TypeError`, because only whoever made it knows whether `1` means attend or
# masked. `mask.bool()` reads `1` as attend, so the first <span data-claim="lab: int(ints.sum())">three</span> keys get
# `1/3`{ data-claim="lab: as_keep[:3]" } each; `mask == 0` reads `1` as masked, so the last
# <span data-claim="lab: int((ints == 0).sum())">two</span> keys get `1/2`{ data-claim="lab: as_hide[3:]" } each. The two conversions see opposite cells, so choose based on the
# convention of whoever made the mask.
#
# </details>

# %%
ints = torch.tensor([1, 1, 1, 0, 0])
try:
    attention(q, k, v, ints)
except TypeError as error:
    print("TypeError:", error)
as_keep = attention(q, k, v, ints.bool())[1][0]  # 1 read as "take part"
as_hide = attention(q, k, v, ints == 0)[1][0]  # 1 read as "masked"
print("mask.bool():", as_keep)
print("mask == 0  :", as_hide)

# %% [markdown]
# ## Fully masked rows
#
# We compute a fully masked row three ways, with a plain softmax, with this chapter's two `masked_fill` calls and with
# SDPA, and compare the outputs and gradients.

# %%
# snippet: together/empty_rows.py

# %% [markdown]
# ### Try it: the smallest finite number instead of `-inf`
#
# If the same row is masked not with a boolean mask but with a float mask filled with `torch.finfo(torch.float32).min`,
# are that row's weights from `attention` $0$? What does each row's weights sum to?
#
# <details markdown><summary>Answer</summary>
#
# Not $0$: the <span data-claim="lab: L_K">four</span> keys get `1/4`{ data-claim="lab: low_rows['float finfo.min']" } each, evenly. This function treats a row as "fully masked" only when every cell
# of the row is exactly $-\infty$. Fill it with a finite value and the row's scores all become equal, and by the shift
# invariance of the softmax the result is a uniform distribution. SDPA gives the same result (asked for both masks:
# `[True, True]`{ data-claim="lab: list(low_same.values())" }). With the boolean mask the row sums to
# `0`{ data-claim="lab: low_sums['bool keep'][1]" }, with the float mask to `1`{ data-claim="lab: low_sums['float finfo.min'][1]" }, but either way the output means nothing, so it must be left out of the
# loss.
#
# </details>

# %%
low = torch.zeros(L_Q, L_K).masked_fill(~keep, torch.finfo(torch.float32).min)
low_rows, low_sums, low_same = {}, {}, {}  # by mask: row 1, the row sums, same as SDPA
for name, mask in [("bool keep", keep), ("float finfo.min", low)]:
    out, w = attention(q0, k0, v0, mask)
    low_rows[name], low_sums[name] = w[1], w.sum(dim=-1)
    sdpa_out = F.scaled_dot_product_attention(q0, k0, v0, mask)
    low_same[name] = torch.allclose(out, sdpa_out)
    print(f"{name:>15}: row 1 = {low_rows[name].tolist()}")
    print(f"{'':>15}  row sums = {low_sums[name].tolist()},",
          f"same as SDPA: {low_same[name]}")

# %% [markdown]
# ## Aligning the causal mask
#
# When there are fewer queries than keys, `causal=True` (SDPA's `is_causal=True`) aligns at the top left, but a KV cache
# needs a mask aligned at the bottom right.

# %%
# snippet: together/causal.py

# %% [markdown]
# ### Try it: one new token, and four
#
# When text is generated one token at a time, there is one new query ($L_Q = 1$). How many keys does each alignment see
# then? Conversely, with four new queries ($L_Q = L_K$), are the two alignments the same?
#
# <details markdown><summary>Answer</summary>
#
# With $L_Q = 1$, top-left alignment sees only <span data-claim="lab: first_sees[1][0]">one</span> key, the first, and
# bottom-right alignment sees all <span data-claim="lab: first_sees[1][1]">four</span> keys. Using
# plain `is_causal=True` when generating one token at a time means the new token sees none of the preceding context.
# With $L_Q = L_K$ the two alignments are the same mask. Alignment matters only when the lengths differ (asked whether
# the two masks agree for one, two and four new queries: `[False, False, True]`{ data-claim="lab: [s[2] for s in first_sees.values()]" }).
#
# </details>

# %%
# new queries -> keys the first one sees (top-left, bottom-right), same mask?
first_sees = {}
for n_new in (1, 2, 4):
    top = torch.ones(n_new, L_K, dtype=torch.bool).tril()
    bottom = torch.ones(n_new, L_K, dtype=torch.bool).tril(L_K - n_new)
    first_sees[n_new] = (int(top[0].sum()), int(bottom[0].sum()),
                         torch.equal(top, bottom))
    print(f"L_Q={n_new}: top-left sees {top.sum(-1).tolist()},",
          f"bottom-right sees {bottom.sum(-1).tolist()},",
          f"same: {torch.equal(top, bottom)}")

# %% [markdown]
# ## Splitting into heads and merging them
#
# We write the projection, `split`, per-head attention, merge and output projection by hand, and compare with an
# `nn.MultiheadAttention` with the same weights copied in.

# %%
# snippet: together/multihead.py

# %% [markdown]
# ### Try it: changing only the number of heads
#
# Keep the same weights `params` and switch to four heads: does the output change? Does it match an MHA built
# with four heads and the same weights?
#
# <details markdown><summary>Answer</summary>
#
# The output changes (largest gap `> 0.5`{ data-claim="lab: (by_four - ours).abs().max()" }). Even with the same projection matrices, the last axis is cut differently, so the groups summed in
# each dot product and the units the softmax runs over change. With four heads, each head is
# <span data-claim="lab: d_model // 4">two</span> wide and the divisor is $\sqrt{2}$. It still matches the four-head MHA
# within rounding (largest gap `< 1e-6`{ data-claim="lab: (by_four - by_mha4).abs().max()" }). The number of heads is not stored in the weights; it
# is part of the model's architecture.
#
# </details>

# %%
by_four = multihead(x_q, x_kv, 4, *params, keep[:, None, None, :])
mha4 = torch.nn.MultiheadAttention(d_model, 4, batch_first=True)
mha4.load_state_dict(dict(zip(mha4.state_dict(), params)))  # the same weights
by_mha4, _ = mha4(x_q, x_kv, x_kv, key_padding_mask=~keep)
print(f"max |4 heads - 2 heads|: {(by_four - ours).abs().max().item():.1e}")
print(f"max |4 heads - MHA(4)| : {(by_four - by_mha4).abs().max().item():.1e}")
