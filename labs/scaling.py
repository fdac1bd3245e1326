# %% [markdown] lang="ko"
# # 실습: 스케일링
#
# [스케일링](../scaling.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터 차례로
# 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Scaling
#
# This notebook runs the examples from [Scaling: why divide by √dₖ](../scaling.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 씨앗 실험과 선명함의 측정
#
# 구간 $[-3, 3]$에서 고르게 뽑은 수로 $30 \times 30$ 점수 표를 만들고, 나눈 것과 나누지 않은 것의 어텐션
# 가중치를 같은 색 눈금으로 그립니다. 그림 제목의 $S$는 점수 표, $d$는 그 차원이고, 세로축 $i$는 쿼리(줄),
# 가로축 $j$는 키(열), 색은 어텐션 가중치 $p_{ij}$입니다. 이어서 같은 점수 표의 엔트로피, 최대 가중치,
# 야코비안 노름을 재서 평균을 `mean_entropy`, `mean_max`, `jac_norm`으로 찍습니다. 마지막 두 줄은 비교용인
# 균등한 줄 $(\tfrac{1}{30}, \dots, \tfrac{1}{30})$과 원-핫 줄 $(1, 0, \dots, 0)$입니다.

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ### 해 보기: √d 대신 d로 나누면
#
# 큰 텐서를 $\sqrt{1024}$가 아니라 $1024$로 나누면 히트맵은 어떻게 보일까요? 평균 엔트로피와 평균 최대
# 가중치를 예상해 보세요. 비교할 기준은 균등한 줄의 엔트로피 $\log\, 30$과 최대 가중치 $\tfrac{1}{30}$입니다.
#
# <details markdown><summary>답</summary>
#
# 칸마다 거의 같은 색이 됩니다. 가중치가 모두 $\tfrac{1}{30}$ 근처라 색 눈금 바닥의 짙은 남색 한 가지입니다.
# 엔트로피는 $\log\, 30$에 붙고(`3.40`{ data-claim="lab: mean_h" }), 최대 가중치는 $\tfrac{1}{30}$에 가깝습니다(`0.040`{ data-claim="lab: mean_top" }). 점수의 표준편차가
# $\sigma^2 \sqrt{d}$인데 $d$로 나누면 $\tfrac{\sigma^2}{\sqrt{d}}$로 줄어, 점수끼리의 차이가 거의 사라지기
# 때문입니다. 나누지 않으면 원-핫, $d$로 나누면 균등, $\sqrt{d}$로 나눠야 그 사이입니다.
#
# 아래 셀은 평균 엔트로피를 `mean_h`, 평균 최대 가중치를 `mean_top`으로 기준값과 나란히 찍고, $S/1024$의
# 히트맵을 그립니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 분산이 √d로 커진다
#
# 성분이 독립이고 평균 $0$, 분산 $\sigma^2$이면 내적의 표준편차는 $\sigma^2 \sqrt{d}$입니다. 여러 $d$에서
# `dot_products`로 잽니다.

# %% [markdown] lang="en"
# ## The variance grows with √d
#
# If the components are independent with mean $0$ and variance $\sigma^2$, the standard deviation of the dot
# product is $\sigma^2 \sqrt{d}$. We measure it at several $d$ with `dot_products`.

# %%
# snippet: scaling/variance.py

# %% [markdown] lang="ko"
# ### 해 보기: 성분의 분포를 바꾸면
#
# `dot_products(n, d, low=-1.0, high=1.0)`처럼 성분을 $U(-1, 1)$에서 뽑으면 $\sqrt{d}$로 나눈 표준편차는 얼마일까요?
# $d$에 따라 달라질까요? 균등 분포 $U(a, b)$의 분산은 $\frac{(b - a)^2}{12}$입니다.
#
# <details markdown><summary>답</summary>
#
# $U(-1, 1)$의 분산은 $\sigma^2 = \tfrac{4}{12} = \tfrac13$이므로, $\sqrt{d}$로 나눈 표준편차는 $d$와 상관없이
# $\sigma^2 = \tfrac13$ 근처입니다(`0.33 ± 0.01`{ data-claim="lab: torch.tensor(spreads)" }). 나누기는 $d$에 따라 **달라지는** 부분만 없애고, 퍼짐의 크기 자체는 성분의
# 분산이 정합니다. 논문처럼 분산이 $1$이면 나눈 표준편차도 $1$입니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## dₖ는 헤드 하나의 폭
#
# 모델 폭 $512$를 헤드 여덟 개로 나누면 헤드 하나의 쿼리·키 길이는 $64$이고, 나누는 수도 그 제곱근입니다.

# %% [markdown] lang="en"
# ## dₖ is the width of one head
#
# Split the model width $512$ over eight heads and one head's queries and keys have length $64$; the
# divisor is its square root.

# %%
# snippet: scaling/dk.py

# %% [markdown] lang="ko"
# ### 해 보기: 헤드를 열여섯 개로
#
# 모델 폭은 그대로 두고 헤드를 열여섯 개로 늘리면 `q`의 모양과 나누는 수는 어떻게 될까요? SDPA는 여전히 같은
# 수로 나눌까요?
#
# <details markdown><summary>답</summary>
#
# 헤드 하나의 폭이 절반이 되어 `q`는 `(2, 16, 30, 32)`{ data-claim="lab: tuple(q16.shape)" }(배치, 헤드, 토큰, $d_k$)이고, 나누는 수는
# `32`{ data-claim="lab: d_k" }의 제곱근입니다. SDPA는 따로 알려 주지 않아도 쿼리의 마지막 축 길이로 나누므로 결과가 같습니다(`True`{ data-claim="lab: torch.allclose(out16, F.scaled_dot_product_attention(q16, k16, v16), atol=1e-5)" }). $d_k$는 모델 폭도 레이어 수도 아니고,
# 내적에서 실제로 더하는 곱의 개수라는 것을 다시 확인할 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
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

# %% [markdown] lang="ko"
# ## 점수에 닿는 기울기
#
# 큰 텐서 $d = 1024$에서 나누지 않음, $\sqrt{d}$, $d$로 나눔을 견주어, 소프트맥스의 입력과 쿼리에 닿는
# 기울기를 autograd로 잽니다.

# %% [markdown] lang="en"
# ## Gradients that reach the scores
#
# On the big tensor, $d = 1024$, we compare no division, division by $\sqrt{d}$ and division by $d$, and
# measure with autograd the gradients that reach the softmax input and the queries.

# %%
# snippet: scaling/gradient.py

# %% [markdown] lang="ko"
# ### 해 보기: 나누는 수를 훑기
#
# 나누는 수를 $1$부터 $1024$까지 두 배씩 바꾸면, 멈춘 쿼리의 수와 쿼리 기울기의 중앙값은 어떻게 변할까요?
# 중앙값이 가장 큰 곳은 어디쯤일까요?
#
# <details markdown><summary>답</summary>
#
# 작은 수로 나누면(온도가 낮으면) 소프트맥스가 포화해서 멈춘 쿼리가 많고 중앙값이 아주 작습니다. 나누는 수를
# 키우면 멈춘 쿼리가 사라지고 중앙값이 커지다가, 이 씨앗 실험의 $U(-3, 3)$ 입력(분산 $3$)에서는 $\sqrt{d} = 32$
# 근처(그 절반과 두 배 사이, 셀에서는 `16 … 64`{ data-claim="lab: best" })에서 가장 크고, 그보다 크게 나누면 가중치가 균등해지고 $\frac{\partial z}{\partial q}$도
# 작아져 다시 줄어듭니다. 꼭대기가 $\sqrt{d}$ 근처인 것은 이 입력의 분산 덕입니다. `a`와 `b`를 $\sqrt{3}$으로 나눠
# 분산을 $1$로 만들면 꼭대기가 $\sqrt{d}$의 사분의 일 근처로 옮겨 갑니다([스케일링 장](../scaling.md#peak)).
# $\sqrt{d}$로 나누기는 꼭대기의 자리가 $d$에 따라 움직이지 않게 할 뿐, 그 자리는 입력의 분산이 정합니다.
#
# </details>

# %% [markdown] lang="en"
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
