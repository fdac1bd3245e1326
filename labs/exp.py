# %% [markdown] lang="ko"
# # 실습: 지수함수의 성질
#
# [지수함수의 성질](../exp.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Properties of the exponential function
#
# This notebook runs the examples from [Properties of the exponential function](../exp.md) unchanged, ready for you
# to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown] lang="ko"
# ## 실수에서는 언제나 양수

# %% [markdown] lang="en"
# ## Always positive on the real numbers

# %%
# snippet: exp/range.py

# %% [markdown] lang="ko"
# ### 해 보기: 범위를 넓히면
#
# 위 예제는 $-700$부터 $700$까지 float64로 찍었습니다. 범위를 $-800$부터 $800$ 까지로 넓히면 "모두 양수"와
# "늘 커진다"는 여전히 `True` 일까요? 아래 셀의 범위를 바꿔 가며 확인해 보세요.
#
# <details markdown><summary>답</summary>
#
# 둘 다 `False`가 됩니다(`[False, False]`{ data-claim="lab: [bool((exp_grid > 0).all()), bool((exp_grid.diff() > 0).all())]" }). 수학의 $e^x$는 그대로지만 float64에도 끝이 있어서, 왼쪽 끝 근처에서는 결과가
# 정확히 $0$으로 언더플로하고 오른쪽 끝 근처에서는 `inf`로 오버플로합니다. $0$이 `> 1000`{ data-claim="lab: int((exp_grid == 0).sum())" } 개, `inf`가
# `> 1000`{ data-claim="lab: int(exp_grid.isinf().sum())" } 개 나란히 나오니 앞 점보다 크지도 않습니다. 아래 셀은 그런 점이 몇 개인지와, $0$이 아닌 가장 작은 값(float64의
# 가장 작은 비정규수)과 유한한 가장 큰 값을 보여 줍니다. 두 경계가 정확히 어디인지는 아래 "오버플로와 정확한
# 경계" 절에서 찾습니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 자료형마다 다른 언더플로

# %% [markdown] lang="en"
# ## Underflow differs by dtype

# %%
# snippet: exp/underflow.py

# %% [markdown] lang="ko"
# ### 해 보기: float16의 경계 근처
#
# 표에서 float16은 $e^{-10}$은 지키고 $e^{-20}$은 $0$으로 만들었습니다. 그 사이의 $-17$, $-17.25$, $-17.5$,
# $-18$은 어떨까요? 참값(float64)과 나란히 보세요.
#
# <details markdown><summary>답</summary>
#
# $-17$과 $-17.25$는 둘 다 **같은** 값, float16의 가장 작은 양수 $2^{-24}$가 됩니다
# (`True`{ data-claim="lab: bool((torch.exp(z.half())[:2] == smallest).all())" }). 참값은 서로 다르고 둘 다
# $2^{-24}$보다 작지만, 그 절반보다는 커서 가장 가까운 수인 $2^{-24}$로 반올림되었습니다. $-17.5$와 $-18$은
# 참값이 $2^{-24}$의 절반보다 작아 $0$으로 반올림됩니다
# (`[0, 0]`{ data-claim="lab: torch.exp(z.half())[2:]" }). 이 근처의 float16은 "가장 작은 양수의 몇 배"로만 수를
# 적을 수 있는 비정규수라서 유효숫자가 거의 없습니다. 셀의 마지막 줄은 그 절반 값입니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 오버플로와 정확한 경계

# %% [markdown] lang="en"
# ## Overflow and the exact edges

# %%
# snippet: exp/edges.py

# %% [markdown] lang="ko"
# ### 해 보기: float64의 경계
#
# 예제의 `exp_edges`는 자료형을 받는 함수입니다. `torch.float64`를 넣으면 경계가 어디일까요? 첫 절의 "범위를
# 넓히면"에서 본 $0$과 `inf`가 이 경계에서 시작합니다.
#
# <details markdown><summary>답</summary>
#
# 셀이 처음 출력하는 두 수 `-745.13`{ data-claim="lab: under64" }와 `709.78`{ data-claim="lab: over64" }가 float64의 경계입니다. 오버플로 쪽은 float32와 같은 이치로 $\ln(\text{max})$
# 근처이고(셀의 마지막 줄과 출력된 자릿수까지 같습니다), 언더플로 쪽은 가장 작은 비정규수의 절반인
# $\ln(\text{비정규수} / 2)$ 근처입니다. 두 경계 모두 $\pm 700$ 바깥이라 첫 예제의 격자는 안전했고, $\pm 800$은 그
# 바깥이었습니다. float64는 float32보다 지수 비트가 많아 구간이 훨씬 넓지만, 그래도 끝은 있습니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 곱셈 법칙과 마스크

# %% [markdown] lang="en"
# ## The product rule and masks

# %%
# snippet: exp/product.py

# %% [markdown] lang="ko"
# ### 해 보기: 절반 대신 두 배
#
# 넷째 키의 마스크 값 $M = \ln \tfrac12$를 $\ln 2$로 바꾸면 $e^M$은 $2$가 됩니다. 그러면 넷째 키의 **가중치**는
# 정확히 네 배가 될까요? 그리고 넷째 키와 첫째 키의 가중치 **비율**은?
#
# <details markdown><summary>답</summary>
#
# 가중치는 정확히 네 배가 되지 않습니다(`3.9 … 4`{ data-claim="lab: (w_double[3] / w_half[3]).item()" }). $e^M$은 정규화 **전**의 값 $e^{s}$에 곱해지고, 그 뒤 줄의 합으로 다시
# 나누는데 합도 함께 커지기 때문입니다. 넷째 키의 몫이 작아서 네 배에 가깝기는 합니다. 반면 두 키의 비율은
# 정확히 네 배(반올림 범위 안에서 `4.0000`{ data-claim="lab: ratio.item()" })가 됩니다. 비율 $p_i / p_j = e^{(s_i + M_i) - (s_j + M_j)}$에는 분모가 없으니까요.
# 마스크는 가중치 자체가 아니라 **키끼리의 비율**을 $e^M$ 배로 바꾼다고 기억하면 정확합니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 더한 뒤 exp를 해야 하는 까닭

# %% [markdown] lang="en"
# ## Why add before exp

# %%
# snippet: exp/order.py

# %% [markdown] lang="ko"
# ### 해 보기: float64 라면
#
# 예제는 float32였습니다. 점수와 마스크를 float64로 바꾸면 "따로 exp 해서 곱하기"도 맞는 답을 낼까요? 점수를
# $100$ 대신 $1000$으로 올리면요?
#
# <details markdown><summary>답</summary>
#
# 점수가 $100$이면 float64에서는 두 방법이 같은 답을 냅니다(`True`{ data-claim="lab: same64[100.0]" }). $e^{100}$이 float64의 범위 안이라 `inf`가
# 생기지 않기 때문입니다. 하지만 점수가 $1000$이면 float64에서도 $e^{1000}$은 `inf`, $e^{-1000}$은 $0$이
# 되어 첫째와 둘째 칸이 모두 $\infty \cdot 0$ 꼴의 `[nan, nan]`{ data-claim="lab: exp_first64[:2]" }입니다. 더한 뒤 exp 하는 쪽은
# 그대로 `[0, 1, 2.7183]`{ data-claim="lab: add_first64" }로 멀쩡합니다. 더 넓은
# 자료형은 문제를 뒤로 미룰 뿐이고, 계산 순서(더한 뒤 exp)가 문제를 없앱니다.
#
# </details>

# %% [markdown] lang="en"
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
