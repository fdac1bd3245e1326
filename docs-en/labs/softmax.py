# %% [markdown]
# # Lab: Properties of softmax
#
# This notebook runs the examples from [Properties of softmax](../softmax.md) unchanged, ready for you to modify one
# step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and its
# answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown]
# ## Three steps: exp, sum, divide

# %%
# snippet: softmax/steps.py

# %% [markdown]
# ### Try it: very small scores
#
# The third row's scores were all $-3$, so it split evenly. If you change every score to $-300$, what do the three
# steps done by hand and `torch.softmax` each give? Mathematically, both give $\tfrac14$ to each of the four cells.
#
# <details markdown><summary>Answer</summary>
#
# The three steps by hand give nothing but `nan`{ data-claim="lab: e / e.sum()" }. In float32, $e^{-300}$ is smaller than even the smallest positive
# number, so it underflows to exactly $0$, and the sum is $0$ too, which makes $\tfrac{0}{0}$. `torch.softmax` splits
# it into `0.25`{ data-claim="lab: torch.softmax(low, dim=-1)" } each without trouble. It subtracts the row's maximum first internally, so what it actually adds
# up is four copies of $e^{0}$. The next section covers that trick.
#
# </details>

# %%
low = torch.full((4,), -300.0)
e = torch.exp(low)
print("exp:", e.tolist(), " sum:", e.sum().item())
print("three steps:  ", (e / e.sum()).tolist())
print("torch.softmax:", torch.softmax(low, dim=-1).tolist())

# %% [markdown]
# ## Shift invariance and max subtraction

# %%
# snippet: softmax/shift.py

# %%
# snippet: softmax/overflow.py

# %% [markdown]
# ### Try it: what about bfloat16
#
# In float16, naive broke with scores of just $12$. What if the same scores $(12, 11, 10)$ are in bfloat16? And
# what if the scores are $(100, 99, 98)$? The true values, computed in float64, are shown alongside.
#
# <details markdown><summary>Answer</summary>
#
# bfloat16 has as many exponent bits as float32, so $e^{12}$ does not become `inf`, and naive gives numbers too
# (all finite: `True`{ data-claim="lab: bool(naive_bf[12.0].isfinite().all())" }). The
# threshold rises to almost the same place as float32's. So with scores of $100$, bfloat16's naive is
# `nan`{ data-claim="lab: naive_bf[100.0]" } as well.
# With the max subtracted, both cases are fine. But bfloat16 has only $7$ significand bits, so the spacing between
# numbers is wide, and max subtraction computed all the way in bfloat16 misses the true value in the third decimal
# place (by at most `0.001 … 0.01`{ data-claim="lab: (shifted_bf[100.0].double() - exact).abs().max().item()" }). `torch.softmax` computes in float32 internally and rounds only at the end, so it matches the last line (the
# true value rounded to bfloat16; `True`{ data-claim="lab: torch.equal(torch.softmax(zb, dim=-1), exact.to(torch.bfloat16))" }). Its range is wide, but its precision is lower than float16's.
#
# </details>

# %%
naive_bf, shifted_bf = {}, {}  # by first score: naive, max subtracted (bfloat16)
for row in ([12.0, 11.0, 10.0], [100.0, 99.0, 98.0]):
    zb = torch.tensor(row, dtype=torch.bfloat16)
    exact = torch.softmax(torch.tensor(row, dtype=torch.float64), dim=-1)
    naive_bf[row[0]], shifted_bf[row[0]] = naive(zb), max_subtracted(zb)
    print(row, "bfloat16 exp(z):", torch.exp(zb).tolist())
    print("  naive:           ", naive_bf[row[0]].tolist())
    print("  max subtracted:  ", shifted_bf[row[0]].tolist())
    print("  torch.softmax:   ", torch.softmax(zb, dim=-1).tolist())
    print("  float64:         ", rounded(exact))
    print("  float64 rounded: ", exact.to(torch.bfloat16).tolist())

# %% [markdown]
# ## Log-sum-exp and log_softmax

# %%
# snippet: softmax/logsoftmax.py

# %% [markdown]
# ### Try it: switching to float64
#
# In float32, `log(softmax(z))` lost the third cell to `-inf`. Does switching the scores to float64 save it? What if
# the third score is $-800$ instead of $-120$?
#
# <details markdown><summary>Answer</summary>
#
# In float64, $e^{-120}$ does not underflow, so `log(softmax(z))` also gives
# `-120.0000`{ data-claim="lab: third[torch.float64, -120.0][0]" }. But at $-800$, even float64
# cannot hold $e^{-800}$, and it is `-inf`{ data-claim="lab: third[torch.float64, -800.0][0]" } again. Where float64 underflows is found in "float64's edges" in the
# [Lab: Properties of the exponential function](../labs/exp.md).
# `log_softmax` is accurate in all four cases (float32's $-800$ too: `-800.000`{ data-claim="lab: third[torch.float32, -800.0][1]" }). $z_i - \operatorname{LSE}(z)$ is a single subtraction, so however
# small a probability is, its **log** can always be represented.
#
# </details>

# %%
third = {}  # (dtype, last score) -> the third cell of log(softmax) and of log_softmax
for dtype in (torch.float32, torch.float64):
    for last in (-120.0, -800.0):
        z3 = torch.tensor([0.0, -50.0, last], dtype=dtype)
        log_of = torch.log(torch.softmax(z3, dim=-1))
        log_sm = torch.log_softmax(z3, dim=-1)
        third[dtype, last] = (log_of[2].item(), log_sm[2].item())
        print(str(dtype).removeprefix("torch."), f"z3 = {last:g}")
        print("  log(softmax):", log_of.tolist())
        print("  log_softmax: ", log_sm.tolist())

# %% [markdown]
# ## Temperature

# %%
# snippet: softmax/temperature.py

# %% [markdown]
# In the figure, the horizontal axis is the temperature $\tau$, on a log scale; the vertical axis is
# $\operatorname{softmax}(z / \tau)_i$, one curve for each score $z_i$. The dotted line is $\tfrac{1}{4}$, the value
# of <span data-claim="lab: len(z)">four</span> even cells. At a low temperature the largest score takes everything; at a high one all the cells share
# evenly.

# %% [markdown]
# ### Try it: a very low temperature
#
# At $\tau = 0.05$ the first cell became exactly $1$ in float32. If you lower $\tau$ further, to $0.01$ or $0.02$,
# how many of the other three cells are exactly $0$? Mathematically, no cell is $0$.
#
# <details markdown><summary>Answer</summary>
#
# The value of cell $i$ is roughly $e^{(z_i - z_1)/\tau}$. At $\tau = 0.01$ the second cell's exponent is $-100$, so
# it barely survives as a float32 subnormal, while the third and fourth have far smaller exponents and are exactly
# $0$ (`[False, False, True, True]`{ data-claim="lab: (low_tau[0.01] == 0).tolist()" }). At $\tau = 0.02$ the exponents are halved, so the third cell survives too and only the fourth is $0$
# (`[False, False, False, True]`{ data-claim="lab: (low_tau[0.02] == 0).tolist()" }). In both
# cases the first cell is exactly `1`{ data-claim="lab: torch.stack([low_tau[0.01][0], low_tau[0.02][0]])" }: $1$ minus a very small number cannot be told apart from $1$ in float32. At a
# low temperature, floating point gives not "almost one-hot" but truly one-hot.
#
# </details>

# %%
low_tau = {}  # the weights at each low temperature
for tau in (0.01, 0.02):
    q = low_tau[tau] = torch.softmax(z / tau, dim=-1)
    print(f"tau = {tau}:", q.tolist())
    print("  exactly 0:", (q == 0).tolist(), " exactly 1:", (q == 1).tolist())

# %% [markdown]
# ## The Jacobian and saturation

# %%
# snippet: softmax/jacobian.py

# %% [markdown]
# ### Try it: measuring saturation with backpropagation
#
# Real training never builds the Jacobian; it only calls `backward`. If you multiply the scores `z` above by scales
# of $1$, $4$, $16$ and $64$ and keep the gradient `g` flowing in from above unchanged, how does the size of the
# gradient the scores receive change? The cell below also measures the size of the Jacobian, $\lVert J \rVert_2$,
# with the example's `softmax_jacobian`.
#
# <details markdown><summary>Answer</summary>
#
# As the scale grows, the largest probability sticks to $1$, and the gradient of the scores shrinks sharply, to
# practically $0$ at scale $64$ (`< 1e-9`{ data-claim="lab: grad_size[64.0]" }). What `backward` computes is $J^\top g$, so its size cannot exceed
# $\lVert J \rVert_2 \cdot \lVert g \rVert$, and a saturated $J$ is almost the zero matrix. In the cell, the two
# values shrink together too. Whatever $g$ arrives, no training signal gets through a softmax whose scores are far
# apart. This is exactly why attention divides the scores by $\sqrt{d_k}$
# ([Gradients that reach the scores](../scaling.md#gradient)). The chapter's section
# [Saturation](../softmax.md#saturation) has a figure of the same effect, scale by scale.
#
# </details>

# %%
grad_size = {}  # the size of the scores' gradient, per scale
for scale in (1.0, 4.0, 16.0, 64.0):
    x = (scale * z).requires_grad_()
    q = torch.softmax(x, dim=-1)
    q.backward(g)  # g: the upstream gradient of the example
    size = torch.linalg.matrix_norm(softmax_jacobian(q.detach()), ord=2).item()
    grad_size[scale] = x.grad.norm().item()
    print(f"scale {scale:>4g}: max p = {q.max().item():.6f},",
          f"|grad| = {x.grad.norm().item():.3g}, ||J||_2 = {size:.3g}")
