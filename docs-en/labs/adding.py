# %% [markdown]
# # Lab: Why masks are added
#
# This notebook runs the examples from [Why masks are added: what to add, and in which dtype](../adding.md)
# unchanged, ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is
# followed by a cell you can edit, and its answer is in the folded box. The outputs on this page come from the run
# made when the site was built.
#
# Every example uses the same scores `S`. The rows are the <span data-claim="adding/scores.py: len(queries)">three</span> queries "I", "go" and "home", and the columns are those
# <span data-claim="adding/scores.py: int(keep.sum())">three</span> tokens and <span data-claim="adding/scores.py: int((~keep).sum())">two</span> `[PAD]`. `keep` is the boolean mask that is `True` for the real tokens.

# %% [markdown]
# ## Multiplying by $0$

# %%
# snippet: adding/multiply_zero.py

# %% [markdown]
# ### Try it: more `[PAD]`
#
# When a short sentence is padded to the length of a long one, it can get dozens of `[PAD]`, not just two. If you
# multiply the scores by $0$ and raise the number of `[PAD]` (`n_pad in (2, 10, 50)`), what happens to the share
# `[PAD]` takes?
#
# <details markdown><summary>Answer</summary>
#
# The more `[PAD]`, the larger the share, approaching $1$. At `n_pad = 50` it is
# `[0.851, 0.9095, 0.9793]`{ data-claim="lab: shares[50]" } in the three rows. Each `[PAD]` multiplied by $0$ adds
# $e^0 = 1$ to the denominator, so the share is $\tfrac{n}{n + \sum_j e^{S_j}}$ ($n$ is the number of `[PAD]`, and the
# sum is over the real tokens only). So the same sentence gives a different output depending on which long sentence it
# was batched with. The "home" row, whose real tokens have small scores, is the first to be taken over by `[PAD]`
# (asked whether it has the largest share at every `n_pad`: `True`{ data-claim="lab: all(int(s.argmax()) == 2 for s in shares.values())" }).
#
# </details>

# %%
S_real = S[:, keep]  # the three real keys
shares = {}  # number of [PAD] -> the share they take in each row
for n_pad in (2, 10, 50):
    padded = torch.cat([S_real, torch.zeros(3, n_pad)], dim=-1)  # [PAD] * 0 = 0
    shares[n_pad] = torch.softmax(padded, dim=-1)[:, 3:].sum(dim=-1)
    print(f"{n_pad:>2} [PAD]: share per row", shares[n_pad])

# %% [markdown]
# ## Multiplying by −∞

# %%
# snippet: adding/multiply_inf.py

# %% [markdown]
# ### Try it: when every `[PAD]` score is positive
#
# Multiplying by $-\infty$ broke because it flipped negative scores to $+\infty$. Does it give the right answer when
# every `[PAD]` score is positive? The cell below replaces only the `[PAD]` scores with their absolute values and compares
# with a softmax over the real tokens alone.
#
# <details markdown><summary>Answer</summary>
#
# The "I" and "go" rows come out right. But the "home" row is still `nan` (asked row by row whether it matches:
# `[True, True, False]`{ data-claim="lab: matches" }; asked whether the "home" row is all `nan`:
# `True`{ data-claim="lab: bool(weights_pos[2].isnan().all())" }). That row's first `[PAD]` score is exactly
# $0$, so its absolute value is $0$ too, and $0 \times (-\infty)$ is `nan`. Whether multiplication works depends on the
# score **values**, so a test with a small example or lucky random scores passes. Adding gives the same answer for any
# scores, so it has no such trap.
#
# </details>

# %%
S_pos = S.clone()
S_pos[:, ~keep] = S[:, ~keep].abs()  # every [PAD] score >= 0
weights_pos = torch.softmax(S_pos * factor, dim=-1)
print(weights_pos)
right = torch.softmax(S[:, keep], dim=-1)  # softmax over the real tokens only
matches = [torch.allclose(w, r) for w, r in zip(weights_pos[:, keep], right)]
print("row matches:", matches)

# %% [markdown]
# ## Adding −∞, and the identity

# %%
# snippet: adding/add_inf.py

# %%
# snippet: adding/identity.py

# %% [markdown]
# ### Try it: flipping the mask
#
# What happens if you drop the `~` from `masked_fill(~keep, ...)` and write `masked_fill(keep, ...)`? Is there an error?
# Do the rows still sum to $1$?
#
# <details markdown><summary>Answer</summary>
#
# There is no error, and the rows still sum to `1.0000`{ data-claim="lab: weights_flipped.sum(dim=-1)" }. But the
# <span data-claim="lab: int(keep.sum())">three</span> real tokens get exactly `0`{ data-claim="lab: weights_flipped[:, keep]" }
# and all the weight goes to the <span data-claim="lab: int((~keep).sum())">two</span> `[PAD]`. An additive mask faithfully masks whichever cells it is told to, so checks such as "does it sum
# to $1$?" or "is there no `nan`?" cannot catch a flipped polarity. You have to check directly that the masked cells
# are the `[PAD]` ones (the last line of the cell below).
#
# </details>

# %%
M_flipped = torch.zeros(5).masked_fill(keep, float("-inf"))  # forgot the ~
weights_flipped = torch.softmax(S + M_flipped, dim=-1)
print(weights_flipped)
print("row sums:", weights_flipped.sum(dim=-1))
print("weight on [PAD] is 0:", bool((weights_flipped[:, ~keep] == 0).all()))

# %% [markdown]
# ## Masking after the softmax

# %%
# snippet: adding/after.py

# %% [markdown]
# ### Try it: in float32
#
# The example made the "I" row `nan` in float16 with a single `[PAD]` score of `20`{ data-claim="adding/after.py: S16[0, 3]" }.
# float32 has a much wider range. Raise the `[PAD]` score (`pad_score in (20.0, 100.0, 105.0, 110.0)`) and watch the
# "I" row of "mask after the softmax". The add-first route is the right answer.
#
# <details markdown><summary>Answer</summary>
#
# At `20`{ data-claim="lab: max(s for s in kinds if kinds[s] == 'right')" }, float32 holds up. But at
# `100`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'wrong')" } you get a **silently** wrong value, without
# even a `nan`: the real tokens' $e^{S_j - 100}$ have dropped into float32's subnormal range and lost most of their
# significant digits. At `105`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'one-hot')" } the
# <span data-claim="lab: int((rows[105.0][keep] == 0).sum())">two</span> smaller cells underflow to $0$ and only the
# largest remains, so dividing again gives a one-hot row. Again no error. Only at
# `110`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'nan')" } do all
# <span data-claim="lab: int(keep.sum())">three</span> cells become $0$, giving the `nan` of $\tfrac00$. In the
# add-first route `[PAD]` never competes for the maximum, so the answer is the same whatever its score (asked whether
# it is the same at all <span data-claim="lab: len(firsts)">four</span> scores: `True`{ data-claim="lab: all(torch.equal(r, early[0]) for r in firsts.values())" }). The underflow edges of each dtype are
# in [Underflow by dtype](../exp.md#underflow).
#
# </details>

# %%
# by [PAD] score: row 0 masked late, row 0 masked first, and what late gives
rows, firsts, kinds = {}, {}, {}
for pad_score in (20.0, 100.0, 105.0, 110.0):
    S32 = S.clone()
    S32[0, 3] = pad_score
    late = torch.softmax(S32, dim=-1) * keep
    late = late / late.sum(dim=-1, keepdim=True)
    early = torch.softmax(S32 + M, dim=-1)
    rows[pad_score], firsts[pad_score] = late[0], early[0]
    kinds[pad_score] = ("nan" if late[0].isnan().any()
                        else "one-hot" if late[0].max() == 1
                        else "right" if torch.allclose(late[0], early[0]) else "wrong")
    print(f"[PAD] = {pad_score:g}: softmax first is {kinds[pad_score]}")
    print("  softmax first:", [round(x, 4) for x in late[0].tolist()])
    print("  mask first:   ", [round(x, 4) for x in early[0].tolist()])

# %% [markdown]
# ## Fill values and the checking helper

# %%
# snippet: adding/fill.py

# %%
# snippet: adding/additive.py

# %% [markdown]
# ### Try it: bad input
#
# What does `additive_mask` do with each of these? ① a float mask of $0$ and $1$, ② float16 with the fill value
# `-1e9`, ③ float16 with `torch.finfo(torch.float16).min`, ④ the integer dtype `torch.int64`, ⑤ the fill value
# $0$.
#
# <details markdown><summary>Answer</summary>
#
# Only ③ returns a mask. ① does not guess whether `1` means attend or masked; it raises `TypeError` stating
# the convention (its message says `True = keep`). ② raises `ValueError` and recommends `finfo.min`, since, as in
# the table above, float16 cannot hold `-1e9` and it would turn into `-inf`. ④ is a `TypeError`, since integers have no $-\infty$. The fill
# value $0$ in ⑤ masks nothing, so it is a `ValueError`. The point of this helper is to stop and say what is wrong,
# instead of silently building a wrong mask. The <span data-claim="lab: len(got)">five</span> calls give, in order,
# `['TypeError', 'ValueError', 'mask', 'TypeError', 'ValueError']`{ data-claim="lab: list(got.values())" }.
#
# </details>

# %%
tries = {
    "(1) float keep": dict(keep=keep.float()),
    "(2) float16, -1e9": dict(keep=keep, dtype=torch.float16, fill=-1e9),
    "(3) float16, finfo.min": dict(keep=keep, dtype=torch.float16,
                                   fill=torch.finfo(torch.float16).min),
    "(4) int64": dict(keep=keep, dtype=torch.int64),
    "(5) fill 0": dict(keep=keep, fill=0.0),
}
got = {}  # what each call gave: a mask, or the name of its error
for label, kwargs in tries.items():
    try:
        print(label, "->", additive_mask(**kwargs).tolist())
        got[label] = "mask"
    except (TypeError, ValueError) as err:
        print(label, "->", type(err).__name__)
        print("   ", err)
        got[label] = type(err).__name__
