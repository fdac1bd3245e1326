# %% [markdown]
# # Lab: Properties of the exponential function
#
# This notebook runs the examples from [Properties of the exponential function](../exp.md) unchanged, ready for you
# to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown]
# ## Always positive on the real numbers

# %%
# snippet: exp/range.py

# %% [markdown]
# ### Try it: widening the range
#
# The example above sampled from $-700$ to $700$ in float64. If you widen the range to $-800$ through $800$, are
# "all positive" and "always increasing" still `True`? Change the range in the cell below and see.
#
# <details markdown><summary>Answer</summary>
#
# Both become `False` (`[False, False]`{ data-claim="lab: [bool((exp_grid > 0).all()), bool((exp_grid.diff() > 0).all())]" }). The mathematical $e^x$ is unchanged, but float64 has ends too: near the left end the results
# underflow to exactly $0$, and near the right end they overflow to `inf`. `> 1000`{ data-claim="lab: int((exp_grid == 0).sum())" } $0$s and `> 1000`{ data-claim="lab: int(exp_grid.isinf().sum())" } `inf`s come
# out in a row, so they are not larger than the point before them either. The cell below shows how many such points there
# are, along with the smallest nonzero value (float64's smallest subnormal) and the largest finite value. Exactly
# where the two edges are is found in the "Overflow and the exact edges" section below.
#
# </details>

# %%
grid = torch.linspace(-800, 800, 100_001, dtype=torch.float64)
exp_grid = torch.exp(grid)
print("all positive:", bool((exp_grid > 0).all()),
      " increasing:", bool((exp_grid.diff() > 0).all()))
print("exact zeros:", int((exp_grid == 0).sum()),
      " infs:", int(exp_grid.isinf().sum()))
finite = exp_grid[(exp_grid > 0) & exp_grid.isfinite()]
print("smallest nonzero:", finite.min().item())
print("largest finite:  ", finite.max().item())

# %% [markdown]
# ## Underflow differs by dtype

# %%
# snippet: exp/underflow.py

# %% [markdown]
# ### Try it: near float16's edge
#
# In the table, float16 kept $e^{-10}$ and turned $e^{-20}$ into $0$. What about $-17$, $-17.25$, $-17.5$ and $-18$,
# in between? Compare them with the true values (float64).
#
# <details markdown><summary>Answer</summary>
#
# $-17$ and $-17.25$ both become the **same** value, float16's smallest positive number $2^{-24}$
# (`True`{ data-claim="lab: bool((torch.exp(z.half())[:2] == smallest).all())" }). Their true values
# differ, and both are smaller than $2^{-24}$, but they are larger than half of it, so they round to the nearest
# number, $2^{-24}$. For $-17.5$ and $-18$ the true values are smaller than half of $2^{-24}$, so they round to $0$
# (`[0, 0]`{ data-claim="lab: torch.exp(z.half())[2:]" }).
# float16 numbers around here are subnormals, which can only be written as "so many times the smallest positive
# number", so they have almost no significant digits. The cell's last line shows that half value.
#
# </details>

# %%
z = torch.tensor([-17.0, -17.25, -17.5, -18.0])
print("exact (float64):", [f"{v:.3g}" for v in torch.exp(z.double()).tolist()])
print("float16:        ", [f"{v:.3g}" for v in torch.exp(z.half()).tolist()])
zero16 = torch.tensor(0.0, dtype=torch.float16)
smallest = torch.nextafter(zero16, zero16 + 1).item()
print(f"smallest float16 > 0: {smallest:.3g}, half of it: {smallest / 2:.3g}")

# %% [markdown]
# ## Overflow and the exact edges

# %%
# snippet: exp/edges.py

# %% [markdown]
# ### Try it: float64's edges
#
# The example's `exp_edges` is a function that takes a dtype. Where are the edges if you pass `torch.float64`? The
# $0$s and `inf`s seen in "widening the range" in the first section start at these edges.
#
# <details markdown><summary>Answer</summary>
#
# The first two numbers the cell prints, `-745.13`{ data-claim="lab: under64" } and `709.78`{ data-claim="lab: over64" }, are float64's edges. The overflow side is near $\ln(\text{max})$, for the
# same reason as in float32 (it matches the cell's last line to all the printed digits), and the underflow side is
# near $\ln(\text{subnormal} / 2)$, half the smallest subnormal. Both edges lie outside $\pm 700$, so the first
# example's grid was safe, and $\pm 800$ lay beyond them. float64 has more exponent bits than float32, so its range is
# far wider, but it still has ends.
#
# </details>

# %%
under64, over64 = exp_edges(torch.float64)
print("float64: exp(z) == 0 for z <=", under64)
print("         exp(z) finite up to z =", over64)
print("ln(max) =", math.log(torch.finfo(torch.float64).max))

# %% [markdown]
# ## The product rule and masks

# %%
# snippet: exp/product.py

# %% [markdown]
# ### Try it: double instead of half
#
# Change the fourth key's mask value $M = \ln \tfrac12$ to $\ln 2$, and $e^M$ becomes $2$. Does the fourth key's
# **weight** then become exactly four times as large? And the **ratio** of the fourth key's weight to the first
# key's?
#
# <details markdown><summary>Answer</summary>
#
# The weight does not become exactly four times as large (`3.9 … 4`{ data-claim="lab: (w_double[3] / w_half[3]).item()" }). $e^M$ multiplies the value $e^{s}$ **before**
# normalization, which is then divided by the row sum again, and the sum grows as well. Since the fourth key's share
# is small, it comes close to four times. The ratio of the two keys, on the other hand, becomes exactly four times as
# large (within rounding, `4.0000`{ data-claim="lab: ratio.item()" }). The ratio $p_i / p_j = e^{(s_i + M_i) - (s_j + M_j)}$ has no denominator. To remember it
# precisely: a mask changes not the weights themselves but **the ratios between keys** by a factor of $e^M$.
#
# </details>

# %%
M_double = M.clone()
M_double[3] = math.log(2.0)
w_half = torch.softmax(s + M, dim=-1)
w_double = torch.softmax(s + M_double, dim=-1)
print("weight of key 4:", w_half[3].item(), "->", w_double[3].item())
print("weight x", (w_double[3] / w_half[3]).item())
ratio = (w_double[3] / w_double[0]) / (w_half[3] / w_half[0])  # key 4 / key 1
print("ratio to key 1 x", ratio.item())

# %% [markdown]
# ## Why add before exp

# %%
# snippet: exp/order.py

# %% [markdown]
# ### Try it: what about float64
#
# The example was in float32. If the scores and the mask are switched to float64, does "taking exps separately and
# multiplying" also give the right answer? What if the score goes up to $1000$ instead of $100$?
#
# <details markdown><summary>Answer</summary>
#
# With scores of $100$, the two methods give the same answer in float64 (`True`{ data-claim="lab: same64[100.0]" }). $e^{100}$ is within float64's range, so no
# `inf` appears. But with scores of $1000$, even in float64 $e^{1000}$ is `inf` and $e^{-1000}$ is $0$, so the first
# and second cells are both `nan` (`[nan, nan]`{ data-claim="lab: exp_first64[:2]" }), of the form $\infty \cdot 0$. Adding before exp
# stays fine, `[0, 1, 2.7183]`{ data-claim="lab: add_first64" }. A wider dtype only
# postpones the problem; the order of computation (add, then exp) removes it.
#
# </details>

# %%
same64 = {}  # per score: do the two orders agree in float64?
for big in (100.0, 1000.0):
    s64 = torch.tensor([big, big, 1.0], dtype=torch.float64)
    M64 = torch.tensor([float("-inf"), -big, 0.0], dtype=torch.float64)
    add_first64 = torch.exp(s64 + M64)
    exp_first64 = torch.exp(s64) * torch.exp(M64)
    same64[big] = torch.allclose(add_first64, exp_first64)
    print(f"s = {big:g}")
    print("  exp(s + M):     ", [round(x, 4) for x in add_first64.tolist()])
    print("  exp(s) * exp(M):", [round(x, 4) for x in exp_first64.tolist()])
