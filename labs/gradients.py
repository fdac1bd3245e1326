# %% [markdown] lang="ko"
# # 실습: 마스크를 지나는 기울기
#
# [마스크를 지나는 기울기](../gradients.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Gradients through the mask
#
# This notebook runs the examples from [Gradients through the mask](../gradients.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## NaN은 어디서 생기나
#
# 모두 가려진 줄을 `masked_fill`과 $S + M$으로 가리고, 소프트맥스 뒤에 아무것도 안 하거나 `nan`을 $0$으로 바꿉니다.
# 출력, 소프트맥스 입력, 점수, `q`, `k`, `v`의 기울기에 든 `nan`을 셉니다.

# %% [markdown] lang="en"
# ## Where the NaN comes from
#
# A fully masked row is masked with `masked_fill` and with $S + M$, and after the softmax either nothing is done or
# `nan` is turned into $0$. We count the `nan` in the output and in the gradients of the softmax input, the scores,
# `q`, `k` and `v`.

# %%
# snippet: gradients/trace.py

# %% [markdown] lang="ko"
# ### 해 보기: 그 줄을 손실에서 빼면
#
# 손실을 출력 전체의 합이 아니라, 모두 가려진 둘째 줄을 **뺀** 나머지의 합으로 바꾸면 `masked_fill`, 고침 없음
# 경로의 기울기는 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# `v`의 기울기는 여전히 모두 `nan`입니다(`q`, `k`, `v`의 기울기에 든 `nan`이 `[0, 0, 12]`{ data-claim="lab: loss_nans" }이고,
# `v`는 `12`{ data-claim="lab: v.numel()" } 칸입니다). 그 줄의 출력으로 가는 기울기는 $0$이지만, `v`의 기울기 $w^\top g$에는
# `nan`인 가중치 줄이 $0$과 곱해져 들어가고 $0 \times \text{nan}$은 `nan`이기 때문입니다. 손실에서 빼는 것만으로는
# `nan`을 막지 못합니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## where 두 번
#
# 제곱근과 모두 가려진 줄의 소프트맥스에서, 위험한 연산의 앞과 뒤에 `where`를 하나씩 둘 때와 둘 다 둘 때를
# 견줍니다.

# %% [markdown] lang="en"
# ## Double `where`
#
# For the square root and for the softmax of a fully masked row, we compare putting one `where` before or after the
# dangerous operation with putting both.

# %%
# snippet: gradients/double_where.py

# %% [markdown] lang="ko"
# ### 해 보기: 로그
#
# `torch.where(x > 0, torch.log(x), 0)`의 기울기는 $x = (-1, 0, 4)$에서 어떻게 될까요? 안전한 입력으로는 무엇을 쓰면
# 될까요?
#
# <details markdown><summary>답</summary>
#
# 기울기는 `[-0, nan, 0.25]`{ data-claim="lab: one_where" }로, $0$에서 `nan`입니다. $\log$의 도함수 $1/x$가 $0$에서
# `inf`이고, 고르지 않은 쪽으로 간 기울기 $0$과 곱해져 $0 \times \infty = \text{nan}$이 됩니다. $-1$에서는 도함수가
# 유한한 $-1$이라 $0 \times (-1)$, 곧 음의 영 `-0`{ data-claim="lab: one_where[0]" }이 나옵니다. 안전한 입력은
# $\log$가 유한하고 도함수도 유한한 아무 값이면 되고, `torch.where(x > 0, x, 1)`이 흔한 선택입니다. 그러면 기울기가
# `[0, 0, 0.25]`{ data-claim="lab: two_wheres" }입니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ### 기울기가 깨끗해도 남는 NaN
#
# `detect_anomaly`를 켜고, 앞의 `where`가 없는 방법이 역전파 도중에 `nan`을 만드는지 봅니다.

# %% [markdown] lang="en"
# ### A NaN left behind even when the gradients are clean
#
# We turn on `detect_anomaly` and see whether the methods without the `where` before make a `nan` during
# backpropagation.

# %%
# snippet: gradients/anomaly.py

# %% [markdown] lang="ko"
# ## 가린 키의 nan과 inf
#
# 모든 쿼리가 가린 키의 `k`나 `v` 줄에 `nan`이나 `inf`를 넣고, <span data-claim="gradients/masked_kv.py: len(paths)">네</span> 경로로 출력과 기울기의 `nan`을 셉니다.

# %% [markdown] lang="en"
# ## `nan` and `inf` in a masked key
#
# We put `nan` or `inf` into the row of `k` or `v` of the key every query masks, and count the `nan` in the output and
# the gradients along <span data-claim="gradients/masked_kv.py: len(paths)">four</span> paths.

# %%
# snippet: gradients/masked_kv.py

# %% [markdown] lang="ko"
# ### 해 보기: 큰 유한한 값
#
# 가린 키의 `k` 줄을 `nan` 대신 아주 큰 유한값으로 채우면(`t[..., 2, :] = 1e30`) `masked_fill` 경로의 출력과 `q`의 기울기는 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# 둘 다 유한합니다(`nan`이 출력에 `0`{ data-claim="lab: int(out.isnan().sum())" } 개, `q`의 기울기에
# `0`{ data-claim="lab: int(q.grad.isnan().sum())" } 개). 점수는 아주 크지만 `masked_fill`이 그 칸을 $-\infty$로 바꾸고, `q`의 기울기에서는 정확히 $0$인
# 점수의 기울기와 곱해져 $0$이 됩니다. 문제는 `nan`과 `inf`처럼 $0$을 곱해도 $0$이 되지 않는 값뿐입니다. 다만 그
# 큰 값이 `float16`으로 바뀌면 `inf`{ data-claim="lab: t.half().max()" }가 되므로, 가린 위치는 $0$으로 채우는 편이 안전합니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## SDPA의 커널마다
#
# `sdpa_kernel`로 math 커널과 flash 커널을 하나씩 골라, 모두 가려진 줄의 출력과 기울기를 봅니다.

# %% [markdown] lang="en"
# ## SDPA, kernel by kernel
#
# With `sdpa_kernel` we select the math kernel and the flash kernel one at a time, and look at the output and the
# gradients of a fully masked row.

# %%
# snippet: gradients/sdpa.py

# %% [markdown] lang="ko"
# ## 복사해 쓰는 masked_softmax
#
# 불리언 `keep`이 허락한 칸으로 소프트맥스를 하고, 볼 칸이 없는 줄은 $0$을 돌려주며, 기울기가 늘 유한합니다.

# %% [markdown] lang="en"
# ## A `masked_softmax` to copy
#
# It takes the softmax over the cells a boolean `keep` allows, returns $0$ for a row with no cell to see, and its
# gradients are always finite.

# %%
# snippet: gradients/masked_softmax.py

# %% [markdown] lang="ko"
# ### 해 보기: 어텐션에 넣기
#
# `masked_softmax`로 어텐션 `masked_softmax(q @ k.mT / d ** 0.5, keep) @ v`를 만들면, 모두 가려진 줄이 있는 입력에서
# SDPA와 출력과 기울기가 같을까요?
#
# <details markdown><summary>답</summary>
#
# 반올림 범위에서 같습니다(출력과 모든 기울기의 가장 큰 차이 `< 1e-6`{ data-claim="lab: gap" }). 볼 키가 있는 줄은 같은 식이고, 모두 가려진 줄은 둘 다 출력 $0$, 그 쿼리의 기울기 $0$을
# 냅니다. 점수에 곱하는 순서가 달라 `float32`에서는 마지막 자리가 다를 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
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
