# %% [markdown]
# # Lab: Scaling
#
# This notebook runs the examples from [Scaling: why divide by √dₖ](../scaling.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown]
# ## The seed experiment and measuring sharpness
#
# We draw numbers evenly from the interval $[-3, 3]$ to build $30 \times 30$ score tables, and draw the
# attention weights with and without the division on one color scale. In the titles $S$ is the score table
# and $d$ its dimension; the vertical axis $i$ is the query (row), the horizontal axis $j$ the key (column),
# and the color is the attention weight $p_{ij}$. Then we measure the entropy, the largest weight and the
# Jacobian norm of the same score tables and print their means as `mean_entropy`, `mean_max` and `jac_norm`.
# The last two rows are the references: the uniform row $(\tfrac{1}{30}, \dots, \tfrac{1}{30})$ and the
# one-hot row $(1, 0, \dots, 0)$.

# %%
# snippet: scaling/seed.py

# %%
# snippet: scaling/sharpness.py

# %% [markdown]
# ### Try it: divide by d instead of √d
#
# If you divide the big tensor by $1024$ instead of $\sqrt{1024}$, what does the heatmap look like? Predict
# the mean entropy and the mean largest weight. The references are a uniform row's entropy, $\log\, 30$, and its
# largest weight, $\tfrac{1}{30}$.
#
# <details markdown><summary>Answer</summary>
#
# Almost every cell gets the same color. All the weights are near $\tfrac{1}{30}$, so the whole map is the
# single dark navy at the bottom of the color scale. The entropy goes up against $\log\, 30$ (`3.40`{ data-claim="lab: mean_h" }), and the largest
# weight comes close to $\tfrac{1}{30}$ (`0.040`{ data-claim="lab: mean_top" }). The scores' standard deviation is $\sigma^2 \sqrt{d}$; dividing by
# $d$ shrinks it to $\tfrac{\sigma^2}{\sqrt{d}}$, so the differences between scores almost disappear. No
# division gives one-hot, division by $d$ gives uniform, and only division by $\sqrt{d}$ lands in between.
#
# The cell below prints the mean entropy as `mean_h` and the mean largest weight as `mean_top`, each beside
# its reference, and draws the heatmap of $S/1024$.
#
# </details>

# %%
import math

p = torch.softmax(big / big_dim, dim=-1)
mean_h, mean_top = entropy(p).mean().item(), p.amax(dim=-1).mean().item()
print(f"mean_h   {mean_h:.4f}  (log 30 = {math.log(30):.4f})")
print(f"mean_top {mean_top:.4f}  (1/30 = {1 / 30:.4f})")
plt.figure(figsize=(3.4, 3))
plt.imshow(p.numpy(), cmap="cividis", vmin=0, vmax=1)
plt.title("$S/1024$ ($d=1024$)")
plt.colorbar()
plt.show()

# %% [markdown]
# ## The variance grows with √d
#
# If the components are independent with mean $0$ and variance $\sigma^2$, the standard deviation of the dot
# product is $\sigma^2 \sqrt{d}$. We measure it at several $d$ with `dot_products`.

# %%
# snippet: scaling/variance.py

# %% [markdown]
# ### Try it: change the distribution of the components
#
# If you draw the components from $U(-1, 1)$, as in `dot_products(n, d, low=-1.0, high=1.0)`, what is the
# standard deviation after dividing by $\sqrt{d}$? Does it depend on $d$? The variance of a uniform
# distribution $U(a, b)$ is $\frac{(b - a)^2}{12}$.
#
# <details markdown><summary>Answer</summary>
#
# The variance of $U(-1, 1)$ is $\sigma^2 = \tfrac{4}{12} = \tfrac13$, so the standard deviation after
# dividing by $\sqrt{d}$ is near $\sigma^2 = \tfrac13$ (`0.33 ± 0.01`{ data-claim="lab: torch.tensor(spreads)" }), whatever $d$ is. The division only removes the part
# that **depends** on $d$; the size of the spread itself is set by the variance of the components. With
# variance $1$, as in the paper, the divided standard deviation is $1$ as well.
#
# </details>

# %%
spreads = []  # the standard deviation after dividing by sqrt(d), per d
for d in [4, 64, 1024]:
    s = dot_products(n, d, low=-1.0, high=1.0)
    by_sqrt_d = (s / d**0.5).std().item()
    spreads.append(by_sqrt_d)
    print(f"d={d:5d}: std {s.std().item():.3f}, /sqrt(d) {by_sqrt_d:.3f}")

# %% [markdown]
# ## dₖ is the width of one head
#
# Split the model width $512$ over eight heads and one head's queries and keys have length $64$; the
# divisor is its square root.

# %%
# snippet: scaling/dk.py

# %% [markdown]
# ### Try it: sixteen heads
#
# If you keep the model width and raise the number of heads to sixteen, what become the shape of `q` and
# the divisor? Does SDPA still divide by the same number?
#
# <details markdown><summary>Answer</summary>
#
# One head's width halves, so `q` is `(2, 16, 30, 32)`{ data-claim="lab: tuple(q16.shape)" } (batch, heads, tokens, $d_k$) and the divisor is the
# square root of `32`{ data-claim="lab: d_k" }. SDPA divides by the length of the query's last axis without being told, so the
# result is the same (`True`{ data-claim="lab: torch.allclose(out16, F.scaled_dot_product_attention(q16, k16, v16), atol=1e-5)" }). This confirms once
# more that $d_k$ is neither the model width nor the number of layers, but the number of products actually
# summed in the dot product.
#
# </details>

# %%
heads = 16
d_k = d_model // heads
q16, k16, v16 = (split_heads(t, heads) for t in (w_q(x), w_k(x), x))
out16 = torch.softmax(q16 @ k16.transpose(-2, -1) / d_k**0.5, dim=-1) @ v16
print("q:", tuple(q16.shape), f" divided by sqrt({d_k}) = {d_k**0.5:.4f}")
torch.allclose(out16, F.scaled_dot_product_attention(q16, k16, v16), atol=1e-5)

# %% [markdown]
# ## Gradients that reach the scores
#
# On the big tensor, $d = 1024$, we compare no division, division by $\sqrt{d}$ and division by $d$, and
# measure with autograd the gradients that reach the softmax input and the queries.

# %%
# snippet: scaling/gradient.py

# %% [markdown]
# ### Try it: sweep the divisor
#
# If you double the divisor step by step from $1$ to $1024$, how do the number of frozen queries and the
# median query gradient change? Where is the median largest?
#
# <details markdown><summary>Answer</summary>
#
# Dividing by a small number (a low temperature) saturates the softmax: many queries are frozen and the
# median is tiny. As the divisor grows, the frozen queries disappear and the median rises. For this seed
# experiment's $U(-3, 3)$ inputs (variance $3$) it is largest near $\sqrt{d} = 32$ (between half and twice
# that; `16 … 64`{ data-claim="lab: best" } in the cell), and beyond it the weights turn uniform and $\frac{\partial z}{\partial q}$ shrinks, so the median
# falls again. The peak sits near $\sqrt{d}$ thanks to this input's variance. Divide `a` and `b` by
# $\sqrt{3}$ to bring the variance to $1$, and the peak moves to about a quarter of $\sqrt{d}$
# ([The divisor with the largest gradient](../scaling.md#peak)). Dividing by $\sqrt{d}$ only keeps the peak
# from moving with $d$; where the peak is, the variance of the inputs decides.
#
# </details>

# %%
medians = {}  # the median query gradient, per divisor
for divisor in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]:
    q = a.clone().requires_grad_()
    out = torch.softmax(q @ b.T / divisor, dim=-1) @ v
    out.backward(g)  # the same upstream gradient as above
    per_query = q.grad.norm(dim=-1)
    medians[divisor] = per_query.median().item()
    print(f"divide by {divisor:4}: frozen {int((per_query < 1e-6).sum()):2},",
          f"median |dL/dq_i| {medians[divisor]:.3g}")
best = max(medians, key=medians.get)  # the divisor with the largest median
