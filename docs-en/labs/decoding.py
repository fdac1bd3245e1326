# %% [markdown]
# # Lab: Causal alignment and decoding
#
# This notebook runs the examples from [Causal alignment and decoding](../decoding.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown]
# ## Two alignments
#
# `causal_mask(l_q, l_k, align)` builds a causal keep mask aligned to the top-left or to the bottom-right, and we
# compare it with PyTorch's `causal_upper_left` and `causal_lower_right`.

# %%
# snippet: decoding/align.py

# %% [markdown]
# ### Try it: empty rows when there are more queries than keys
#
# With bottom-right alignment and $L_Q > L_K$, the top rows are empty. With six queries and two keys, how many rows
# are empty? And in general? And what does `causal_mask` do when given a length of $0$?
#
# <details markdown><summary>Answer</summary>
#
# <span data-claim="lab: empty[6, 2]">Four</span> rows are empty; in general, $L_Q - L_K$ rows (asked whether that holds for
# the <span data-claim="lab: len(empty)">three</span> pairs in the cell below: `True`{ data-claim="lab: all(n == l_q - l_k for (l_q, l_k), n in empty.items())" }). Bottom-right alignment lines up the last query with the last
# key, so query $i$ sees keys $0, \dots, i - (L_Q - L_K)$, and when $i < L_Q - L_K$ it sees no key at all. A length
# of $0$ is refused with a `ValueError`: an attention with no keys has only empty rows, so it means nothing.
#
# </details>

# %%
empty = {}  # (L_Q, L_K) -> rows that see no key, bottom-right aligned
for l_q, l_k in [(6, 2), (7, 3), (4, 4)]:
    mask = causal_mask(l_q, l_k, "bottom_right")
    empty[l_q, l_k] = int((~mask.any(dim=-1)).sum())
    print(f"L_Q={l_q}, L_K={l_k}: rows with no key = {empty[l_q, l_k]}")
try:
    causal_mask(0, 5)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown]
# ## SDPA's `is_causal`
#
# `is_causal=True` is top-left aligned. We measure how many keys a new query sees in a single decode step, and what
# SDPA gives for fully masked rows.

# %%
# snippet: decoding/sdpa_align.py

# %% [markdown]
# ## KV cache
#
# We prefill <span data-claim="decoding/kv_cache.py: steps[0][1]">four</span> tokens, decode the rest one token at a time, and compare each step's output with the output
# computed in one pass.

# %%
# snippet: decoding/kv_cache.py

# %% [markdown]
# ### Try it: decoding two tokens at a time, and decoding with `is_causal=True`
#
# If each step feeds two new tokens, as in speculative decoding, then $L_Q = 2$. Does `decode_step` still match the
# output computed in one pass? Conversely, what happens if you decode one token at a time but pass `is_causal=True`
# instead of the mask? And if the cache has six slots and you feed it eight tokens?
#
# <details markdown><summary>Answer</summary>
#
# Two tokens at a time also match (largest gap `< 1e-6`{ data-claim="lab: (by_two - full).abs().max()" }), because `decode_step` treats however many new tokens it is given as the last
# positions of the cache and builds a bottom-right aligned mask. With `is_causal=True`, the prefill is the same
# ($L_Q = L_K$), but at every decode step the new query sees only the first key. The output becomes the first token's
# value vector (asked step by step: `[True, True, True, True]`{ data-claim="lab: first_value" }) and is far from the
# output computed in one pass (every step is off by `> 0.4`{ data-claim="lab: causal_gaps" }). When the cache is too
# small, `append` raises a `ValueError` that states by how much it overflows.
#
# </details>

# %%
g = torch.Generator().manual_seed(0)
x, *w = (torch.randn(n, 6, generator=g) / 6**0.5 for n in (8, 6, 6, 6))
full = F.scaled_dot_product_attention(*(x @ m for m in w), is_causal=True)
cache = new_cache(8, 6)
pairs = [(0, 4), (4, 6), (6, 8)]  # prefill 4, then two tokens a step
by_two = torch.cat([decode_step(x[a:b], cache, *w) for a, b in pairs])
print(f"two at a time: max |diff| = {(by_two - full).abs().max().item():.1e}")

keys, values = x @ w[1], x @ w[2]
causal_gaps, first_value = [], []  # per decode step with is_causal=True
for i in range(4, 8):  # one new query, cache of i + 1 keys, top-left aligned
    query = x[i:i + 1] @ w[0]
    out = F.scaled_dot_product_attention(query, keys[:i + 1], values[:i + 1],
                                         is_causal=True)
    causal_gaps.append((out - full[i]).abs().max().item())
    first_value.append(torch.allclose(out[0], values[0]))
    print(f"is_causal=True, token {i}: |diff| = {causal_gaps[-1]:.3f},",
          f"equals the first value vector: {first_value[-1]}")
try:
    small = new_cache(6, 6)
    for a, b in steps:
        decode_step(x[a:b], small, *w)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown]
# ## Left padding and `position_ids`
#
# We compare a left-padded batch of <span data-claim="decoding/left_pad.py: len(prompts)">three</span> prompts of different lengths with the results of running each prompt
# alone.

# %%
# snippet: decoding/left_pad.py

# %% [markdown]
# ### Try it: what about right padding?
#
# If the same prompts are fed with the `[PAD]` at the end (right padding) and the slot index itself is used as the
# position (`torch.arange`), do the outputs of the real tokens equal those of running each prompt alone? If so, why
# does generation bother with left padding?
#
# <details markdown><summary>Answer</summary>
#
# They are equal (largest gap over the <span data-claim="lab: len(right_gaps)">three</span> prompts `< 1e-6`{ data-claim="lab: max(right_gaps)" }). With right padding the real tokens start in the first slot, so the slot index is the position, and the
# `[PAD]` are all at the end, where the causal mask already hides them. But generation appends the new token right
# after the last token of each sentence. With right padding that place differs from sentence to sentence, with
# `[PAD]` in between, so the batch cannot grow by one slot at a time as a whole. Left padding lines up the ends of all
# sentences in the same slot, and the price is getting the mask and the `position_ids` right.
#
# </details>

# %%
L = max(len(p) for p in prompts)
right = torch.tensor([p + [0] * (L - len(p)) for p in prompts])
keep_right = torch.arange(L) < torch.tensor([len(p) for p in prompts])[:, None]
out_right = forward(right, keep_right, torch.arange(L).expand(right.shape), *params)
right_gaps = [(out_right[b, keep_right[b]] - a).abs().max().item()
              for b, a in enumerate(alone)]
for b, gap in enumerate(right_gaps):
    print(f"prompt {b}: right padding, arange positions: max |diff| = {gap:.1e}")

# %% [markdown]
# ## Empty slots in the cache
#
# We try several methods on a cache whose empty slots are filled with `nan`, and count the `nan` in the output.

# %%
# snippet: decoding/empty_slots.py

# %% [markdown]
# ### Try it: a huge number or `inf` instead of `nan`
#
# If the empty slots are filled with a huge finite number or with infinity instead of `nan`
# (`fill in (1e30, float("inf"))`) and masked with a boolean mask, what happens to the output?
#
# <details markdown><summary>Answer</summary>
#
# `fill = 1e30` is finite in `float32`, so the scores are finite too; adding $-\infty$ masks them, and multiplying by a
# weight of $0$ gives $0$. The output equals the sliced one (`True`{ data-claim="lab: fill_same[0]" }, with
# `0`{ data-claim="lab: fill_nans[0]" } `nan`). `inf` is different. On the value side $0 \times \infty$ is `nan`, and on
# the key side the scores become $\pm\infty$, and adding $-\infty$ can give `nan`. Here
# `4`{ data-claim="lab: fill_nans[1]" } of the output's `4`{ data-claim="lab: reference.numel()" } cells are `nan`. You cannot know what
# uninitialized memory holds, so creating the empty slots with $0$ or slicing them off is the safe choice.
#
# </details>

# %%
fill_nans, fill_same = [], []  # per fill: NaNs in the output; equal to the slice?
for fill in (1e30, float("inf")):
    k_fill, v_fill = k.nan_to_num(fill), v.nan_to_num(fill)
    out = sdpa(q, k_fill, v_fill, attn_mask=keep)
    fill_nans.append(int(out.isnan().sum()))
    fill_same.append(torch.allclose(out, reference))
    print(f"fill {fill:g}: NaN {fill_nans[-1]} of {out.numel()},",
          f"same as slice: {fill_same[-1]}")
