# %% [markdown] lang="ko"
# # 실습: 인과 마스크
#
# [인과 마스크](../causal.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Causal mask
#
# This notebook runs the examples from [Causal mask: seeing only what came before](../causal.md) unchanged, ready
# for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell
# you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site
# was built.

# %% [markdown] lang="ko"
# ## 세 단계: tril, masked_fill, softmax

# %% [markdown] lang="en"
# ## Three steps: `tril`, `masked_fill`, `softmax`

# %%
# snippet: causal/weights.py

# %% [markdown] lang="ko"
# ### 해 보기: 더 긴 문장
#
# `T`를 <span data-claim="lab: T">여섯</span>으로 늘리면 대각선에는 어떤 값이 놓일까요? 아래 셀의 `T`를 바꿔 가며 확인해 보세요.
#
# <details markdown><summary>답</summary>
#
# 대각선은 $1, \tfrac12, \tfrac13, \dots, \tfrac16$, 곧 `[1, 0.5, 0.3333, 0.25, 0.2, 0.1667]`{ data-claim="lab: diagonal" }입니다. 점수가 모두 같으므로 줄마다 볼 수 있는 칸끼리
# $1$을 똑같이 나누고, 그 줄에서 볼 수 있는 칸의 수가 바로 줄 번호이기 때문입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a longer sentence
#
# If you raise `T` to <span data-claim="lab: T">six</span>, what values end up on the diagonal? Change `T` in the cell below and check.
#
# <details markdown><summary>Answer</summary>
#
# The diagonal is $1, \tfrac12, \tfrac13, \dots, \tfrac16$, that is `[1, 0.5, 0.3333, 0.25, 0.2, 0.1667]`{ data-claim="lab: diagonal" }. All the scores are equal, so each row splits $1$
# evenly among the cells it may see, and the number of cells a row may see is exactly its row number.
#
# </details>

# %%
T = 6
mask = torch.tril(torch.ones(T, T))
scores = torch.zeros(T, T).masked_fill(mask == 0, float("-inf"))
diagonal = torch.softmax(scores, dim=-1).diagonal()
diagonal

# %% [markdown] lang="ko"
# ## 가림표 그림
#
# 줄은 지금 읽는 글자, 열은 그 글자가 들여다보는 대상입니다. 칸의 `1`은 볼 수 있는 자리, `0`은 가린 자리입니다.

# %% [markdown] lang="en"
# ## The mask table as a figure
#
# Each row is the token being read now, each column a token it looks at. A cell holding `1` may be seen; `0` is
# masked.

# %%
# snippet: causal/grid.py

# %% [markdown] lang="ko"
# ### 해 보기: 다른 문장
#
# 위 셀의 `chars`를 다른 문장(예: `"오늘도좋은하루"`)이나 로마자 `"ABCDEFG"`로 바꿔 보세요. `1`인
# 칸은 모두 몇 개일까요? 아래 셀은 로마자 <span data-claim="lab: len(chars)">일곱</span> 자로 셉니다.
#
# <details markdown><summary>답</summary>
#
# 글자 수가 $T$이면 `1`인 칸은 $1 + 2 + \dots + T = \tfrac{T(T+1)}{2}$ 개입니다. <span data-claim="lab: len(chars)">일곱</span> 글자면 <span data-claim="lab: int(visible.sum())">스물여덟</span> 칸입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: another phrase
#
# Change `chars` in the cell above to another text, for example `"sunrise"` or `"ABCDEFG"`, one letter per
# token. How many cells hold `1` in all? The cell below counts them for the <span data-claim="lab: len(chars)">seven</span> letters `"ABCDEFG"`.
#
# <details markdown><summary>Answer</summary>
#
# With $T$ tokens there are $1 + 2 + \dots + T = \tfrac{T(T+1)}{2}$ cells holding `1`. <span data-claim="lab: len(chars)">Seven</span> tokens give
# <span data-claim="lab: int(visible.sum())">twenty-eight</span> cells.
#
# </details>

# %%
chars = list("ABCDEFG")
visible = torch.tril(torch.ones(len(chars), len(chars), dtype=torch.bool))
int(visible.sum())

# %% [markdown] lang="ko"
# ## 소프트맥스의 축: `dim=-1`과 `dim=0`

# %% [markdown] lang="en"
# ## The softmax axis: `dim=-1` and `dim=0`

# %%
# snippet: causal/dims.py

# %% [markdown] lang="ko"
# ### 해 보기: 축을 잘못 고르면
#
# 점수 모양이 `(B, H, T, T)`일 때 `dim=1`로 소프트맥스를 하면 무엇이 합이 $1$이 될까요?
#
# <details markdown><summary>답</summary>
#
# 축 `1`은 헤드 축이라서, 같은 칸을 헤드끼리 나눠 갖습니다. 가린 칸은 모든 헤드에서 `-inf`라서 그 자리는
# `nan`이 됩니다. 아래 셀이 그 수를 셉니다: 전체 `96`{ data-claim="lab: wrong.numel()" } 칸 가운데
# `36`{ data-claim="lab: nans" } 칸입니다. 자세한 설명은 장의 [`-1`로 쓰는 까닭](../causal.md#why-minus-one)에
# 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: the wrong axis
#
# When the scores have shape `(B, H, T, T)`, what sums to $1$ if you take the softmax with `dim=1`?
#
# <details markdown><summary>Answer</summary>
#
# Axis `1` is the head axis, so the heads share out the same cell among themselves. A masked cell is `-inf`
# in every head, so that position becomes `nan`. The cell below counts them: `36`{ data-claim="lab: nans" } of the
# `96`{ data-claim="lab: wrong.numel()" } cells. The chapter explains it in
# [Why write `-1` instead of `1`](../causal.md#why-minus-one).
#
# </details>

# %%
hidden = torch.tril(torch.ones(4, 4)) == 0
scores = torch.randn(2, 3, 4, 4).masked_fill(hidden, float("-inf"))
wrong = torch.softmax(scores, dim=1)
nans = int(wrong.isnan().sum())
nans, wrong.numel()

# %% [markdown] lang="ko"
# ## 마스크 덕분에 한 번에 학습한다

# %% [markdown] lang="en"
# ## The mask lets training happen in one pass

# %%
# snippet: causal/parallel.py

# %% [markdown] lang="ko"
# ### 해 보기: 마스크를 빼면
#
# `attention(q, k, v, causal=False)`의 첫 줄과, 첫 글자만 보고 계산한 결과를 비교해 보세요.
#
# <details markdown><summary>답</summary>
#
# 다릅니다(`False`{ data-claim="lab: first_same" }). 마스크가 없으면 첫 글자도 뒤의 글자를 보기 때문입니다. 같은 것은 모든 글자를 볼 수 있는 마지막
# 줄뿐입니다(`True`{ data-claim="lab: last_same" }).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: without the mask
#
# Compare the first row of `attention(q, k, v, causal=False)` with the result computed from the first
# token alone.
#
# <details markdown><summary>Answer</summary>
#
# They differ (`False`{ data-claim="lab: first_same" }). Without the mask the first token also sees the later tokens. Only the last row, which may
# see every token anyway, is the same (`True`{ data-claim="lab: last_same" }).
#
# </details>

# %%
first_alone = attention(q[:1], k[:1], v[:1], causal=False)[0]
first_same = torch.allclose(unmasked[0], first_alone)
last_same = torch.allclose(unmasked[-1], prefix[-1])
first_same, last_same
