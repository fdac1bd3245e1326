# %% [markdown] lang="ko"
# # 실습: 소프트맥스 밖의 마스크
#
# [소프트맥스 밖의 마스크](../beyond.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터 차례로
# 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다. 이 페이지의 출력은
# 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Masks beyond softmax
#
# This notebook runs the examples from [Masks beyond softmax](../beyond.md) unchanged, ready for you to modify one step at
# a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and its answer is in the
# folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 선형 어텐션: 과거만 더하기
#
# `linear_dense`는 $0/1$ 아래삼각 마스크를 곱한 $L \times L$ 행렬로, `linear_scan`은 누적합으로 계산합니다. 앞의 키 둘은
# 왼쪽 패딩입니다.

# %% [markdown] lang="en"
# ## Linear attention: summing the past
#
# `linear_dense` computes with an $L \times L$ matrix times a $0/1$ lower-triangular mask, `linear_scan` with running
# sums. The first two keys are left padding.

# %%
# snippet: beyond/linear.py

# %% [markdown] lang="ko"
# ### 해 보기: `eps`를 크게
#
# `eps`를 `1.0`으로 크게 하면 패딩한 줄은 어떻게 될까요? 진짜 토큰의 줄은요?
#
# <details markdown><summary>답</summary>
#
# 패딩한 줄은 분자가 정확히 $0$이라 여전히 `0`{ data-claim="lab: padded" }입니다. 진짜 토큰의 줄은 분모가 커진 만큼 $0$
# 쪽으로 줄어, `eps = 0`인 계산과 `> 1e-3`{ data-claim="lab: shrink" }만큼 다릅니다. `eps`는 분모에 견줘 작을 때만
# 무시할 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a large `eps`
#
# Make `eps` as large as `1.0`. What happens to the padded rows? And to the real tokens' rows?
#
# <details markdown><summary>Answer</summary>
#
# The padded rows have a numerator of exactly $0$, so they are still `0`{ data-claim="lab: padded" }. The real rows shrink
# toward $0$ as the denominator grows, and differ from the `eps = 0` computation by `> 1e-3`{ data-claim="lab: shrink" }:
# `eps` is negligible only while it is small next to the denominator.
#
# </details>

# %%
big = linear_scan(q, k, v, keep, eps=1.0)
padded = big[:, :2].abs().max().item()
shrink = (big[:, 2:] - linear_scan(q[:, 2:], k[:, 2:], v[:, 2:])).abs().max().item()
print(padded, shrink > 1e-3)

# %% [markdown] lang="ko"
# ## 차등 어텐션
#
# `diff_weights`는 같은 마스크를 쓴 두 소프트맥스 지도의 차 $A_1 - \lambda A_2$입니다.

# %% [markdown] lang="en"
# ## Differential attention
#
# `diff_weights` is the difference $A_1 - \lambda A_2$ of two softmax maps under the same mask.

# %%
# snippet: beyond/diff.py

# %% [markdown] lang="ko"
# ### 해 보기: $\lambda = 1$
#
# $\lambda$를 $1$로 두면 줄의 합은 얼마일까요? 쿼리 `0`의 줄은요?
#
# <details markdown><summary>답</summary>
#
# 줄의 합은 $1 - 1 = 0$이라, 가장 큰 것도 `< 1e-6`{ data-claim="lab: row_sum" }입니다. 쿼리 `0`은 키 `0` 하나만 보므로 두
# 지도 모두 그 칸이 $1$이고, 가중치는 $1 - 1 =$ `0`{ data-claim="lab: first" }입니다. 차등 어텐션의 헤드는 아무것도 보지
# 않을 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: $\lambda = 1$
#
# With $\lambda = 1$, what does a row sum to? And what is query `0`'s row?
#
# <details markdown><summary>Answer</summary>
#
# A row sums to $1 - 1 = 0$: even the largest is `< 1e-6`{ data-claim="lab: row_sum" }. Query `0` sees key `0` only, so
# both maps give that cell $1$, and its weight is $1 - 1 =$ `0`{ data-claim="lab: first" }. A differential attention
# head can attend to nothing.
#
# </details>

# %%
w1 = diff_weights(q1, k1, q2, k2, 1.0, keep)
row_sum = w1.sum(-1).abs().max().item()
first = w1[0, 0].item()
print(row_sum < 1e-6, first)
