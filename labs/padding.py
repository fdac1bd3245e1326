# %% [markdown] lang="ko"
# # 실습: 패딩 마스크와 API 규약
#
# [패딩 마스크와 API 규약](../padding.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Padding masks and API conventions
#
# This notebook runs the examples from [Padding masks and API conventions](../padding.md) unchanged, ready for you
# to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown] lang="ko"
# ## 길이에서 마스크로
#
# `padding_mask`는 문장 길이에서 $(B, L)$ 불리언 마스크를 만듭니다. `True`가 진짜 토큰입니다. 잘못된 입력은
# 메시지와 함께 거절합니다.

# %% [markdown] lang="en"
# ## From lengths to a mask
#
# `padding_mask` builds a $(B, L)$ boolean mask from the sentence lengths. `True` marks a real token
# (`True` = attend). Bad input is rejected with a message.

# %%
# snippet: padding/mask.py

# %% [markdown] lang="ko"
# ### 해 보기: 빈 문장
#
# 길이가 `0`인 문장은 허용됩니다. `padding_mask([0, 3])`로 키를 가리고 소프트맥스를 하면 첫 문장의 줄들은
# 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# 첫 문장은 마스크가 모두 `False`라서 모든 칸이 $-\infty$가 되고, 줄마다 $\tfrac{0}{0}$을 계산해
# `nan`{ data-claim="lab: torch.softmax(scores, dim=-1)[0]" }이 됩니다. 둘째 문장은 평범한 가중치입니다. 함수가 빈 문장을 받아 주는 것은 옳지만, 그 뒤의 계산이 이런 줄을
# 다룰 준비가 되어 있어야 합니다. 장의 [모두 가려진 줄](../padding.md#fully-masked)이 그 방법을 다룹니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: an empty sentence
#
# A sentence of length `0` is allowed. If you mask the keys with `padding_mask([0, 3])` and take the softmax, what
# happens to the rows of the first sentence?
#
# <details markdown><summary>Answer</summary>
#
# The first sentence's mask is all `False`, so every cell becomes $-\infty$, and each row computes $\tfrac{0}{0}$ and
# becomes `nan`{ data-claim="lab: torch.softmax(scores, dim=-1)[0]" }. The second sentence gets ordinary weights. It is right for the function to accept an empty sentence,
# but the computation after it has to be ready for such rows. The chapter's section
# [Fully masked rows](../padding.md#fully-masked) covers how.
#
# </details>

# %%
torch.manual_seed(0)
keep_empty = padding_mask([0, 3])
scores = torch.randn(2, 3, 3).masked_fill(~keep_empty[:, None, :], float("-inf"))
print(keep_empty)
torch.softmax(scores, dim=-1)

# %% [markdown] lang="ko"
# ## 키 쪽 패딩 마스크와 축
#
# 점수는 $(B, H, L_Q, L_K)$이고, `[PAD]` 키를 가리는 마스크는 $(B, 1, 1, L_K)$입니다. 아래 예제는 일부러 축을
# 잘못 고른 $(B, 1, L_Q, 1)$ 마스크와 견줍니다.

# %% [markdown] lang="en"
# ## The key padding mask and its axes
#
# The scores are $(B, H, L_Q, L_K)$, and the mask that hides the `[PAD]` keys is $(B, 1, 1, L_K)$. The example below
# compares it with a $(B, 1, L_Q, 1)$ mask that picks the wrong axis on purpose.

# %%
# snippet: padding/axes.py

# %% [markdown] lang="ko"
# ### 해 보기: 축을 늘리지 않으면
#
# 이번에는 축을 아예 늘리지 않고 $(B, L)$ 마스크를 그대로 씁니다. 문장이 <span data-claim="lab: B">다섯</span> 개, 가장 긴 길이도 <span data-claim="lab: L">다섯</span>이라
# $B = L_Q$입니다. 오류가 날까요? `nan` 줄이 생길까요? `[PAD]` 키가 받은 가중치는 얼마일까요? 아래 셀은 `nan`이
# 있는 줄의 수 `nan_rows`와 `[PAD]` 키가 받은 가장 큰 가중치 `pad_weight`를 찍습니다.
#
# <details markdown><summary>답</summary>
#
# 오류도 `nan`도 없이(`nan`이 있는 줄이 `0`{ data-claim="lab: nan_rows" } 개) 조용히 틀립니다. 브로드캐스트는 오른쪽 축부터 맞추므로 $(B, L)$은 $(1, 1, B, L)$처럼
# 읽혀, 문장 축이 쿼리 축 자리에 붙습니다. 그러면 **모든** 문장의 $i$ 번째 쿼리 줄이 $i$ 번째 문장의 마스크를
# 씁니다. 길이가 모두 $1$ 이상이라 빈 줄은 없고, 그 대신 `[PAD]` 키가 상당한 가중치를 가져갑니다(가장 큰 것이
# `> 0.5`{ data-claim="lab: pad_weight" }). 마스크의 모양을
# 늘 네 축으로 적어 두면 이런 실수를 막을 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: not expanding the axes
#
# This time we do not expand the axes at all and pass the $(B, L)$ mask unchanged. There are <span data-claim="lab: B">five</span> sentences and the
# longest length is also <span data-claim="lab: L">five</span>, so $B = L_Q$. Will there be an error? Will `nan` rows appear? How much weight do the
# `[PAD]` keys get? The cell below prints the number of rows holding a `nan`, `nan_rows`, and the largest weight a
# `[PAD]` key gets, `pad_weight`.
#
# <details markdown><summary>Answer</summary>
#
# It is silently wrong, with neither an error nor `nan` (`0`{ data-claim="lab: nan_rows" } rows hold a `nan`). Broadcasting lines axes up from the right, so $(B, L)$ is read
# as $(1, 1, B, L)$ and the sentence axis lands in the place of the query axis. Then the $i$-th query row of **every**
# sentence uses the mask of the $i$-th sentence. All lengths are at least $1$, so there is no empty row; instead, the
# `[PAD]` keys take a sizeable weight (the largest is
# `> 0.5`{ data-claim="lab: pad_weight" }). Writing a mask's shape out with four axes every time prevents this mistake.
#
# </details>

# %%
torch.manual_seed(0)
lengths = torch.tensor([2, 5, 3, 4, 1])
B, H, L = len(lengths), 2, int(lengths.max())  # B == L: shapes happen to fit
keep = torch.arange(L) < lengths[:, None]  # (B, L)
scores = torch.randn(B, H, L, L)
w_flat = torch.softmax(scores.masked_fill(~keep, float("-inf")), dim=-1)  # runs
pad_keys = ~keep[:, None, None, :].expand(B, H, L, L)
nan_rows = int(w_flat.isnan().any(dim=-1).sum())
pad_weight = round(w_flat[pad_keys].max().item(), 4)  # largest weight on [PAD]
print("nan_rows:", nan_rows)
print("pad_weight:", pad_weight)

# %% [markdown] lang="ko"
# ## 쿼리 쪽 [PAD]는 출력에서 뺀다
#
# 키 쪽만 가리면 `[PAD]` 쿼리 줄에도 그럴듯한 출력이 나옵니다. 문장 벡터를 평균으로 만들 때 이 줄을 빼야
# 혼자 계산한 결과와 같아집니다.

# %% [markdown] lang="en"
# ## Leave the query-side `[PAD]` out of the output
#
# With only the keys masked, the `[PAD]` query rows get plausible outputs too. When a sentence vector is made by
# averaging, these rows have to be left out for the result to equal the sentence computed alone.

# %%
# snippet: padding/pooling.py

# %% [markdown] lang="ko"
# ### 해 보기: 패딩이 없는 문장
#
# 둘째 문장은 가장 길어서 `[PAD]`가 하나도 없습니다. 이 문장에서는 모든 위치의 평균 `naive`와 진짜 토큰만의
# 평균 `masked`가 같을까요?
#
# <details markdown><summary>답</summary>
#
# 같습니다(`True`{ data-claim="lab: torch.allclose(naive[1], masked[1])" }). 더할 `[PAD]` 줄이 없고, 나누는 길이도 전체 길이 $L$과 같기 때문입니다. 그래서 가장 긴 문장만
# 확인하는 테스트로는 이 실수를 잡을 수 없습니다. 차이는 짧은 문장에서만 드러나므로(첫 문장은 `False`{ data-claim="lab: torch.allclose(naive[0], masked[0])" }), 확인할 때는 늘 패딩이
# 있는 문장을 고르세요.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a sentence without padding
#
# The second sentence is the longest, so it has no `[PAD]` at all. For this sentence, are the mean over all positions,
# `naive`, and the mean over the real tokens only, `masked`, the same?
#
# <details markdown><summary>Answer</summary>
#
# They are the same (`True`{ data-claim="lab: torch.allclose(naive[1], masked[1])" }). There are no `[PAD]` rows to add, and the length you divide by equals the full length $L$. So a
# test that checks only the longest sentence cannot catch this mistake. The difference shows only in shorter
# sentences (`False`{ data-claim="lab: torch.allclose(naive[0], masked[0])" } for the first one), so when you check, always pick a sentence that has padding.
#
# </details>

# %%
print("naive :", naive[1])
print("masked:", masked[1])
torch.allclose(naive[1], masked[1]), torch.allclose(naive[0], masked[0])

# %% [markdown] lang="ko"
# ## 모두 가려진 줄과 채움값
#
# 한 줄의 모든 칸을 가리면 채움값에 따라 결과가 달라집니다. `-inf`는 `nan`, 유한한 값은 균등 분포입니다.

# %% [markdown] lang="en"
# ## Fully masked rows and fill values
#
# When every cell of a row is masked, the result depends on the fill value: `-inf` gives `nan`, a finite value gives
# a uniform distribution.

# %%
# snippet: padding/nan_row.py

# %% [markdown] lang="ko"
# ### 해 보기: float16에서 살아남는 채움값
#
# 혼합 정밀도에서는 마스크가 `float16`으로 바뀝니다. `[-1e4, -6e4, -7e4, -1e9]`{ data-claim="lab: fills" } 가운데 `float16`으로
# 바꿔도 유한한 값으로 남는 것은 어느 것일까요? 기준은 `torch.finfo(torch.float16).min`입니다.
#
# <details markdown><summary>답</summary>
#
# `float16`이 나타낼 수 있는 가장 작은 유한한 수는 아래 셀이 찍는 `finfo.min`, 곧 `-65504`{ data-claim="lab: low" }이고, 이 범위를 넘는 수는
# `-inf`가 됩니다. float16에 담으면 `[-10000, -60000, -inf, -inf]`{ data-claim="lab: stored" }로, 앞의 둘은 남고
# 뒤의 둘은 `-inf`가 됩니다. 채움값이 `-inf`가 되면 모두 가려진 줄은
# 다시 `nan`이 됩니다. 자료형에 맞는 채움값을 `torch.finfo(dtype).min`으로 고르는 까닭입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: fill values that survive float16
#
# In mixed precision, the mask is converted to `float16`. Of `[-1e4, -6e4, -7e4, -1e9]`{ data-claim="lab: fills" }, which stay finite when
# converted to `float16`? The reference is `torch.finfo(torch.float16).min`.
#
# <details markdown><summary>Answer</summary>
#
# The smallest finite number `float16` can represent is the `finfo.min` the cell below prints, `-65504`{ data-claim="lab: low" }, and numbers beyond that
# range become `-inf`. Kept in float16 they are `[-10000, -60000, -inf, -inf]`{ data-claim="lab: stored" }: the first two
# stay and the last two become `-inf`. Once the fill value is `-inf`, a fully
# masked row becomes `nan` again. That is why the fill value is chosen per dtype, with `torch.finfo(dtype).min`.
#
# </details>

# %%
low = torch.finfo(torch.float16).min  # the smallest finite float16
print("float16 finfo.min:", low)
fills = [-1e4, -6e4, -7e4, -1e9]
stored = [torch.tensor(fill).half().item() for fill in fills]  # each fill in float16
for fill, kept in zip(fills, stored):
    print(f"{fill:>8.0e} -> float16 {kept}")

# %% [markdown] lang="ko"
# ## API마다 다른 True의 뜻
#
# 같은 점수와, 마지막 키만 `True`인 같은 마스크 `m`을 여러 API에 넘기고, 어느 칸의 가중치가 정확히 $0$이
# 되는지로 `True`의 뜻을 확인합니다.

# %% [markdown] lang="en"
# ## What `True` means in each API
#
# Several APIs get the same scores and the same mask `m`, `True` only at the last key, and which cells get a weight
# of exactly $0$ tells what `True` means.

# %%
# snippet: padding/conventions.py

# %% [markdown] lang="ko"
# ### 해 보기: 방향을 뒤집어 맞추기
#
# SDPA의 불리언 `attn_mask`는 `True`가 참여, `masked_fill`은 `True`가 가림입니다. SDPA에 `~m`을 넘기면
# `masked_fill(m, -inf)`와 같은 가중치가 나올까요?
#
# <details markdown><summary>답</summary>
#
# 같습니다(`True`{ data-claim="lab: torch.allclose(flipped, by_fill, atol=1e-6)" }). `~m`은 마지막 키만 `False`이므로 SDPA는 그 칸만 가리고, 이것이 `masked_fill(m, -inf)`가 하는 일과
# 같습니다. 두 방향 사이를 옮길 때는 `~` 하나면 되지만, 빼먹어도 오류가 나지 않습니다. 그래서 이 장은 마스크
# 이름에 방향을 담아(`keep`, `hide`) 둡니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: flipping the direction to match
#
# In SDPA's boolean `attn_mask`, `True` means attend; in `masked_fill`, `True` means masked. If you give SDPA `~m`, do
# you get the same weights as `masked_fill(m, -inf)`?
#
# <details markdown><summary>Answer</summary>
#
# Yes, the same (`True`{ data-claim="lab: torch.allclose(flipped, by_fill, atol=1e-6)" }). `~m` is `False` only at the last key, so SDPA masks only that cell, which is what
# `masked_fill(m, -inf)` does. Moving between the two directions takes just one `~`, but leaving it out raises no
# error. That is why this chapter puts the direction into the mask's name (`keep`, `hide`).
#
# </details>

# %%
flipped = sdpa(q, k, eye, ~m)  # SDPA given the opposite polarity
by_fill = torch.softmax(s.masked_fill(m, -inf), -1)
print(flipped[0, 0])
torch.allclose(flipped, by_fill, atol=1e-6)
