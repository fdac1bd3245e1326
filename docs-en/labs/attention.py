# %% [markdown]
# # Lab: Attention at a glance
#
# This notebook runs the examples from [Attention at a glance](../attention.md) unchanged, ready for you to modify
# one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and
# its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown]
# ## The five steps by hand: scores, scaling, mask, weights, output
#
# An integer example with <span data-claim="attention/tiny.py: len(Q)">two</span> queries, <span data-claim="attention/tiny.py: len(K)">three</span> keys and values, and $d_k = 2$. The third key is a `[PAD]`, so it is
# masked. Every intermediate value is printed.

# %%
# snippet: attention/tiny.py

# %% [markdown]
# ### Try it: changing the masked value to something wild
#
# The `[PAD]`'s value `V[2]` is `(9, 9)`{ data-claim="attention/tiny.py: V[2]" }. If it is changed with `V[2] = (1000, -1000)`, how much does the output change? Keep the
# weights, compute a new output with only the value changed, and check with `torch.equal` whether it is bit for bit the
# same as the original `output`.
#
# <details markdown><summary>Answer</summary>
#
# It does not change at all (`True`{ data-claim="lab: unchanged" }). The weight of the `[PAD]` cell is an exact $0$ that came from $e^{-\infty}$, and
# $0$ times a finite number is exactly $0$, so adding it leaves no trace. Had the weight been a very small number, the
# value would have leaked in more the larger it was. But if a value holds `inf` or `nan`, $0 \times \infty$ is `nan`
# and the mask cannot stop it either. A mask only erases weights; it does not fix the values themselves.
#
# </details>

# %%
V_odd = V.clone()
V_odd[2] = torch.tensor([1000.0, -1000.0])
print(weights @ V_odd)
unchanged = torch.equal(weights @ V_odd, output)
unchanged

# %% [markdown]
# ### Try it: without the division
#
# If step two's division by $\sqrt{d_k}$ is dropped, do the first query's weights become more even, or more lopsided?
# What about the second query? The cell below prints the weights computed without the division, `not_scaled`,
# then the chapter's `weights`, computed with it.
#
# <details markdown><summary>Answer</summary>
#
# The first query becomes more lopsided: its larger weight goes from `0.6698`{ data-claim="lab: weights[0, 0]" } to
# `0.7311`{ data-claim="lab: not_scaled[0, 0]" }. The **difference** between the two remaining scores grows from
# $\tfrac{1}{\sqrt 2}$, that is `0.7071`{ data-claim="lab: (scaled[0, 0] - scaled[0, 1]).item()" }, to `1`{ data-claim="lab: (scores[0, 0] - scores[0, 1]).item()" }, and the softmax responds exponentially to differences: the ratio of the two weights is
# always $e^{\text{difference}}$. For the second query the two remaining scores are equal, so whatever you divide by,
# the difference is $0$ and it stays half and half (`[0.5, 0.5, 0]`{ data-claim="lab: not_scaled[1]" }). Dividing does not change the order of the scores; it only shrinks
# the gaps. How wide these gaps get when $d_k$ is large is shown in the chapter
# [Scaling: why divide by √dₖ](../scaling.md).
#
# </details>

# %%
not_scaled = torch.softmax(scores + M, dim=-1)
print("not_scaled:", not_scaled)
print("weights:", weights)

# %% [markdown]
# ### Try it: passing the mask flipped
#
# In `F.scaled_dot_product_attention`'s boolean `attn_mask`, `True` means **attend**. If you pass `~keep` by mistake
# (`True` only at the `[PAD]`), what is the output? Is there an error?
#
# <details markdown><summary>Answer</summary>
#
# There is no error, and both queries see only the `[PAD]`. Its cell's weight is $1$, so both rows of the output are
# exactly the `[PAD]`'s value: `[[9, 9], [9, 9]]`{ data-claim="lab: flipped" }. The shapes fit, so no check catches it. That `True` means different things in
# different APIs is summed up in a table in
# [What `True` means in each API](../padding.md#conventions).
#
# </details>

# %%
flipped = F.scaled_dot_product_attention(Q, K, V, attn_mask=~keep)
flipped

# %% [markdown]
# ## Shapes: self, cross, heads
#
# A <span data-claim="attention/shapes.py: x.shape[1]">four</span>-token sentence `x` asks; in self-attention `x` itself answers, and in cross-attention a
# <span data-claim="attention/shapes.py: memory.shape[1]">five</span>-token `memory` answers. The `shapes` function returns the shapes of <span data-claim="attention/shapes.py: len(names)">six</span> tensors.

# %%
# snippet: attention/shapes.py

# %% [markdown]
# ### Try it: a longer answering side
#
# If `memory` in cross-attention grows to <span data-claim="lab: longer.shape[1]">seven</span> tokens, which of the <span data-claim="attention/shapes.py: len(names)">six</span> shapes change? What is the shape of the
# output?
#
# <details markdown><summary>Answer</summary>
#
# The keys and values change, and so does the last axis ($L_K$) of the scores and weights. The output stays
# (batch, number of queries, $d_v$), `(2, 4, 12)`{ data-claim="lab: longer_shapes[-1]" }: multiplying the weights $(L_Q, L_K)$ by the values $(L_K, d_v)$ sums the $L_K$
# axis away. So however long the answering side is, the asking sentence keeps its shape after attention, and the
# output can be added to `x` by a residual connection.
#
# </details>

# %%
longer = torch.randn(B, 7, d_model)
longer_shapes = shapes(x @ w_q, longer @ w_k, longer @ w_v)
for name, shape in zip(names, longer_shapes):
    print(f"{name:8}", shape)
