# %% [markdown] lang="ko"
# # 실습: 소프트맥스의 성질
#
# [소프트맥스의 성질](../softmax.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Properties of softmax
#
# This notebook runs the examples from [Properties of softmax](../softmax.md) unchanged, ready for you to modify one
# step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and its
# answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 세 단계: exp, 더하기, 나누기

# %% [markdown] lang="en"
# ## Three steps: exp, sum, divide

# %%
# snippet: softmax/steps.py

# %% [markdown] lang="ko"
# ### 해 보기: 아주 작은 점수
#
# 셋째 줄은 점수가 모두 $-3$이라 똑같이 나눴습니다. 점수를 모두 $-300$으로 바꾸면 손으로 한 세 단계와
# `torch.softmax`는 각각 무엇을 낼까요? 수학으로는 둘 다 네 칸에 똑같이 $\tfrac14$입니다.
#
# <details markdown><summary>답</summary>
#
# 손으로 한 세 단계는 `nan`{ data-claim="lab: e / e.sum()" }만 냅니다. float32에서 $e^{-300}$은 가장 작은 양수보다도 작아 정확히 $0$으로
# 언더플로하고, 합도 $0$이라 $\tfrac{0}{0}$이 되기 때문입니다. `torch.softmax`는 멀쩡히 `0.25`{ data-claim="lab: torch.softmax(low, dim=-1)" }씩 나눕니다.
# 안에서 줄의 최댓값을 먼저 빼서, 실제로는 $e^{0}$ 네 개를 더하기 때문입니다. 다음 절이 그 요령입니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 이동 불변성과 최댓값 빼기

# %% [markdown] lang="en"
# ## Shift invariance and max subtraction

# %%
# snippet: softmax/shift.py

# %%
# snippet: softmax/overflow.py

# %% [markdown] lang="ko"
# ### 해 보기: bfloat16 이라면
#
# float16에서는 점수 $12$만 되어도 naive가 망가졌습니다. 같은 점수 $(12, 11, 10)$을 bfloat16으로 바꾸면
# 어떨까요? 점수가 $(100, 99, 98)$ 이면요? 참값은 float64로 계산해 나란히 둡니다.
#
# <details markdown><summary>답</summary>
#
# bfloat16은 지수 비트가 float32와 같아서 $e^{12}$가 `inf`가 되지 않고, naive도 숫자를 냅니다
# (모두 유한한가: `True`{ data-claim="lab: bool(naive_bf[12.0].isfinite().all())" }). 문턱이
# float32와 거의 같은 곳까지 올라가는 것입니다. 그래서 점수가 $100$이면 bfloat16의 naive도
# `nan`{ data-claim="lab: naive_bf[100.0]" }입니다.
# 최댓값을 빼면 두 경우 모두 멀쩡합니다. 다만 bfloat16은 가수가 $7$ 비트뿐이라 수 사이의 간격이 넓어서, 끝까지
# bfloat16으로 계산한 최댓값 빼기는 소수 셋째 자리에서 참값과 어긋납니다
# (가장 큰 차이 `0.001 … 0.01`{ data-claim="lab: (shifted_bf[100.0].double() - exact).abs().max().item()" }). `torch.softmax`는 안에서 float32로
# 계산하고 마지막에만 반올림하므로, 마지막 줄(참값을 bfloat16으로 반올림한 값)과 같습니다
# (`True`{ data-claim="lab: torch.equal(torch.softmax(zb, dim=-1), exact.to(torch.bfloat16))" }). 범위는 넓어도 정밀도는
# float16보다 낮습니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 로그합지수와 log_softmax

# %% [markdown] lang="en"
# ## Log-sum-exp and log_softmax

# %%
# snippet: softmax/logsoftmax.py

# %% [markdown] lang="ko"
# ### 해 보기: float64로 바꾸면
#
# float32에서 `log(softmax(z))`는 셋째 칸을 `-inf`로 잃었습니다. 점수를 float64로 바꾸면 구해질까요? 셋째
# 점수가 $-120$ 대신 $-800$ 이면요?
#
# <details markdown><summary>답</summary>
#
# float64에서는 $e^{-120}$이 언더플로하지 않아 `log(softmax(z))`도
# `-120.0000`{ data-claim="lab: third[torch.float64, -120.0][0]" }을 냅니다. 하지만 $-800$이면 float64도
# $e^{-800}$을 담지 못해 다시 `-inf`{ data-claim="lab: third[torch.float64, -800.0][0]" }입니다. float64의 언더플로 경계는
# [지수함수의 성질 실습](../labs/exp.md)의 "float64의 경계"에서 찾습니다.
# `log_softmax`는 네 경우 모두 정확합니다(float32의 $-800$도 `-800.000`{ data-claim="lab: third[torch.float32, -800.0][1]" }). $z_i - \operatorname{LSE}(z)$는 뺄셈 하나라서, 확률이 얼마나 작든
# 그 **로그**는 얼마든지 나타낼 수 있기 때문입니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 온도

# %% [markdown] lang="en"
# ## Temperature

# %%
# snippet: softmax/temperature.py

# %% [markdown] lang="ko"
# 그림의 가로축은 온도 $\tau$이고 로그 눈금입니다. 세로축은 $\operatorname{softmax}(z / \tau)_i$이고, 곡선 하나가
# 점수 $z_i$ 하나입니다. 점선은 <span data-claim="lab: len(z)">네</span> 칸이 고를 때의 값 $\tfrac{1}{4}$입니다. 온도가 낮으면 가장 큰 점수가 전부를
# 가져가고, 높으면 모든 칸이 고르게 나눕니다.

# %% [markdown] lang="en"
# In the figure, the horizontal axis is the temperature $\tau$, on a log scale; the vertical axis is
# $\operatorname{softmax}(z / \tau)_i$, one curve for each score $z_i$. The dotted line is $\tfrac{1}{4}$, the value
# of <span data-claim="lab: len(z)">four</span> even cells. At a low temperature the largest score takes everything; at a high one all the cells share
# evenly.

# %% [markdown] lang="ko"
# ### 해 보기: 아주 낮은 온도
#
# $\tau = 0.05$에서 첫 칸이 float32로 정확히 $1$이 되었습니다. $\tau$를 $0.01$, $0.02$로 더 낮추면 나머지 세
# 칸 가운데 정확히 $0$인 칸은 몇 개일까요? 수학으로는 어느 칸도 $0$이 아닙니다.
#
# <details markdown><summary>답</summary>
#
# 칸 $i$의 값은 대략 $e^{(z_i - z_1)/\tau}$입니다. $\tau = 0.01$이면 둘째 칸의 지수는 $-100$이라 float32의
# 비정규수로 겨우 살아남고, 셋째와 넷째는 지수가 그보다 훨씬 작아 정확히 $0$입니다
# (`[False, False, True, True]`{ data-claim="lab: (low_tau[0.01] == 0).tolist()" }). $\tau = 0.02$이면 지수가
# 절반이 되어 셋째 칸도 살아나고 넷째만 $0$입니다(`[False, False, False, True]`{ data-claim="lab: (low_tau[0.02] == 0).tolist()" }). 어느 경우에도 첫 칸은 정확히 `1`{ data-claim="lab: torch.stack([low_tau[0.01][0], low_tau[0.02][0]])" }입니다. $1$에서 아주 작은
# 수를 뺀 값이 float32에서는 $1$과 구별되지 않으니까요. 온도가 낮으면 부동소수점에서는 "거의 원-핫"이 아니라
# 정말로 원-핫이 됩니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 야코비안과 포화

# %% [markdown] lang="en"
# ## The Jacobian and saturation

# %%
# snippet: softmax/jacobian.py

# %% [markdown] lang="ko"
# ### 해 보기: 역전파로 재는 포화
#
# 실제 학습에서는 야코비안을 만들지 않고 `backward`만 합니다. 위의 점수 `z`에 배율 $1$, $4$, $16$, $64$를
# 곱하고 위에서 흘러온 기울기 `g`는 그대로 두면, 점수가 받는 기울기의 크기는 어떻게 변할까요? 아래 셀은 예제의
# `softmax_jacobian`으로 야코비안의 크기 $\lVert J \rVert_2$도 함께 잽니다.
#
# <details markdown><summary>답</summary>
#
# 배율이 커질수록 가장 큰 확률이 $1$에 붙고, 점수의 기울기가 급격히 작아져 배율 $64$에서는 사실상 $0$입니다
# (`< 1e-9`{ data-claim="lab: grad_size[64.0]" }).
# `backward`가 계산하는 것은 $J^\top g$이므로 그 크기는 $\lVert J \rVert_2 \cdot \lVert g \rVert$를 넘지 못하고,
# 포화한 $J$는 거의 영행렬입니다. 셀에서도 두 값이 함께 줄어듭니다. 점수가 크게 벌어진 소프트맥스에는 어떤 $g$가
# 와도 학습 신호가 내려가지 않습니다. 어텐션이 점수를 $\sqrt{d_k}$로 나누는 까닭이 바로 이것입니다
# ([스케일링 장](../scaling.md#gradient)). 장의 [포화](../softmax.md#saturation) 절에는 같은 현상을 배율별로 그린
# 그림이 있습니다.
#
# </details>

# %% [markdown] lang="en"
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
