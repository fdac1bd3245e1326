# %% [markdown]
# # Lab: Gradients through the mask
#
# This notebook runs the examples from [Gradients through the mask](../gradients.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown]
# ## Where the NaN comes from
#
# A fully masked row is masked with `masked_fill` and with $S + M$, and after the softmax either nothing is done or
# `nan` is turned into $0$. We count the `nan` in the output and in the gradients of the softmax input, the scores,
# `q`, `k` and `v`.

# %%
# snippet: gradients/trace.py

# %% [markdown]
# ### Try it: leave that row out of the loss
#
# If the loss is not the sum of the whole output but the sum of the rest, **leaving out** the fully masked second row,
# what happens to the gradients of the `masked_fill`, no-fix path?
#
# <details markdown><summary>Answer</summary>
#
# The gradient of `v` is still all `nan` (the `nan` in the gradients of `q`, `k` and `v` are
# `[0, 0, 12]`{ data-claim="lab: loss_nans" }, and `v` has `12`{ data-claim="lab: v.numel()" } entries). The gradient flowing into that row's output is $0$, but the gradient of
# `v`, $w^\top g$, takes in the row of weights that is `nan`, multiplied by $0$, and $0 \times \text{nan}$ is `nan`.
# Leaving the row out of the loss is not enough to stop the `nan`.
#
# </details>

# %%
q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
out = torch.softmax((q @ k.T / d**0.5).masked_fill(~keep, -torch.inf), dim=-1) @ v
out[[0, 2]].sum().backward()  # leave the row with no key out of the loss
loss_nans = [int(t.grad.isnan().sum()) for t in (q, k, v)]
print("NaN in dq, dk, dv:", loss_nans)

# %% [markdown]
# ## Double `where`
#
# For the square root and for the softmax of a fully masked row, we compare putting one `where` before or after the
# dangerous operation with putting both.

# %%
# snippet: gradients/double_where.py

# %% [markdown]
# ### Try it: the logarithm
#
# What is the gradient of `torch.where(x > 0, torch.log(x), 0)` at $x = (-1, 0, 4)$? What would make a safe input?
#
# <details markdown><summary>Answer</summary>
#
# The gradient is `[-0, nan, 0.25]`{ data-claim="lab: one_where" }: `nan` at $0$. The derivative of $\log$, $1/x$, is
# `inf` at $0$, and multiplied by the gradient $0$ sent to the unselected side it gives $0 \times \infty = \text{nan}$.
# At $-1$ the derivative is a finite $-1$, so the result is $0 \times (-1)$, a negative zero,
# `-0`{ data-claim="lab: one_where[0]" }. Any value at which $\log$ and its derivative are both finite makes a safe
# input, and `torch.where(x > 0, x, 1)` is a common choice; the gradient is then
# `[0, 0, 0.25]`{ data-claim="lab: two_wheres" }.
#
# </details>

# %%
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
torch.where(x > 0, torch.log(x), 0.0).sum().backward()
one_where = x.grad
print("one where :", one_where)
x.grad = None
torch.where(x > 0, torch.log(torch.where(x > 0, x, 1.0)), 0.0).sum().backward()
two_wheres = x.grad
print("two wheres:", two_wheres)

# %% [markdown]
# ### A NaN left behind even when the gradients are clean
#
# We turn on `detect_anomaly` and see whether the methods without the `where` before make a `nan` during
# backpropagation.

# %%
# snippet: gradients/anomaly.py

# %% [markdown]
# ## `nan` and `inf` in a masked key
#
# We put `nan` or `inf` into the row of `k` or `v` of the key every query masks, and count the `nan` in the output and
# the gradients along <span data-claim="gradients/masked_kv.py: len(paths)">four</span> paths.

# %%
# snippet: gradients/masked_kv.py

# %% [markdown]
# ### Try it: a large finite value
#
# If the masked key's row of `k` is filled with a huge finite value instead of `nan` (`t[..., 2, :] = 1e30`), what happens to the output and the gradient
# of `q` on the `masked_fill` path?
#
# <details markdown><summary>Answer</summary>
#
# Both are finite (`0`{ data-claim="lab: int(out.isnan().sum())" } `nan` in the output,
# `0`{ data-claim="lab: int(q.grad.isnan().sum())" } in the gradient of `q`). The score is huge, but `masked_fill` replaces that cell with $-\infty$, and in the gradient of `q`
# the value is multiplied by a score gradient of exactly $0$, which gives $0$. The trouble comes only from values
# such as `nan` and `inf`, which do not become $0$ when multiplied by $0$. Still, that large value turns into
# `inf`{ data-claim="lab: t.half().max()" } when converted to `float16`, so filling masked positions with $0$ is the safer choice.
#
# </details>

# %%
t = k0.clone()
t[..., 2, :] = 1e30
q, k = q0.clone().requires_grad_(), t.clone().requires_grad_()
out = paths["masked_fill"](q, k, v0)
out.sum().backward()
print("NaN in out:", int(out.isnan().sum()), "| NaN in dq:", int(q.grad.isnan().sum()))

# %% [markdown]
# ## SDPA, kernel by kernel
#
# With `sdpa_kernel` we select the math kernel and the flash kernel one at a time, and look at the output and the
# gradients of a fully masked row.

# %%
# snippet: gradients/sdpa.py

# %% [markdown]
# ## A `masked_softmax` to copy
#
# It takes the softmax over the cells a boolean `keep` allows, returns $0$ for a row with no cell to see, and its
# gradients are always finite.

# %%
# snippet: gradients/masked_softmax.py

# %% [markdown]
# ### Try it: inside an attention
#
# If you build the attention `masked_softmax(q @ k.mT / d ** 0.5, keep) @ v` with `masked_softmax`, are its output and
# gradients the same as SDPA's on an input with a fully masked row?
#
# <details markdown><summary>Answer</summary>
#
# They are the same within rounding (the largest difference over the output and every gradient is
# `< 1e-6`{ data-claim="lab: gap" }). Rows with a key to see use the same formula, and for a fully masked row both give
# an output of $0$ and a gradient of $0$ for that query. The order of the multiplications on the scores differs, so in
# `float32` the last digits may differ.
#
# </details>

# %%
import torch.nn.functional as F

g = torch.Generator().manual_seed(0)
q0, k0, v0 = (torch.randn(1, 1, 3, 4, generator=g) for _ in range(3))
mask = torch.tensor([[True, True, False], [False, False, False], [True, True, True]])
grads = []
for attend in (lambda q, k, v: masked_softmax(q @ k.mT / 4 ** 0.5, mask) @ v,
               lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=mask)):
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = attend(q, k, v)
    out.sum().backward()
    grads.append(torch.cat([t.flatten() for t in (out, q.grad, k.grad, v.grad)]))
gap = (grads[0] - grads[1]).abs().max().item()
print("max |ours - SDPA| over the output and every gradient:", gap)
