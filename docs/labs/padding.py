# %% [markdown]
# # 실습: 패딩 마스크와 API 규약
#
# [패딩 마스크와 API 규약](../padding.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown]
# ## 길이에서 마스크로
#
# `padding_mask`는 문장 길이에서 $(B, L)$ 불리언 마스크를 만듭니다. `True`가 진짜 토큰입니다. 잘못된 입력은
# 메시지와 함께 거절합니다.

# %%
# snippet: padding/mask.py

# %% [markdown]
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

# %%
torch.manual_seed(0)
keep_empty = padding_mask([0, 3])
scores = torch.randn(2, 3, 3).masked_fill(~keep_empty[:, None, :], float("-inf"))
print(keep_empty)
torch.softmax(scores, dim=-1)

# %% [markdown]
# ## 키 쪽 패딩 마스크와 축
#
# 점수는 $(B, H, L_Q, L_K)$이고, `[PAD]` 키를 가리는 마스크는 $(B, 1, 1, L_K)$입니다. 아래 예제는 일부러 축을
# 잘못 고른 $(B, 1, L_Q, 1)$ 마스크와 견줍니다.

# %%
# snippet: padding/axes.py

# %% [markdown]
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

# %% [markdown]
# ## 쿼리 쪽 [PAD]는 출력에서 뺀다
#
# 키 쪽만 가리면 `[PAD]` 쿼리 줄에도 그럴듯한 출력이 나옵니다. 문장 벡터를 평균으로 만들 때 이 줄을 빼야
# 혼자 계산한 결과와 같아집니다.

# %%
# snippet: padding/pooling.py

# %% [markdown]
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

# %%
print("naive :", naive[1])
print("masked:", masked[1])
torch.allclose(naive[1], masked[1]), torch.allclose(naive[0], masked[0])

# %% [markdown]
# ## 모두 가려진 줄과 채움값
#
# 한 줄의 모든 칸을 가리면 채움값에 따라 결과가 달라집니다. `-inf`는 `nan`, 유한한 값은 균등 분포입니다.

# %%
# snippet: padding/nan_row.py

# %% [markdown]
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

# %%
low = torch.finfo(torch.float16).min  # the smallest finite float16
print("float16 finfo.min:", low)
fills = [-1e4, -6e4, -7e4, -1e9]
stored = [torch.tensor(fill).half().item() for fill in fills]  # each fill in float16
for fill, kept in zip(fills, stored):
    print(f"{fill:>8.0e} -> float16 {kept}")

# %% [markdown]
# ## API마다 다른 True의 뜻
#
# 같은 점수와, 마지막 키만 `True`인 같은 마스크 `m`을 여러 API에 넘기고, 어느 칸의 가중치가 정확히 $0$이
# 되는지로 `True`의 뜻을 확인합니다.

# %%
# snippet: padding/conventions.py

# %% [markdown]
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

# %%
flipped = sdpa(q, k, eye, ~m)  # SDPA given the opposite polarity
by_fill = torch.softmax(s.masked_fill(m, -inf), -1)
print(flipped[0, 0])
torch.allclose(flipped, by_fill, atol=1e-6)
