# %% [markdown] lang="ko"
# # 실습: 그룹 쿼리 어텐션과 멀티 쿼리 어텐션
#
# [그룹 쿼리 어텐션과 멀티 쿼리 어텐션](../gqa.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다. CPU에서는 FlexAttention이 eager 모드로 돌고,
# 처음 부를 때 경고를 한 번 냅니다. 예제들은 그 경고만 메시지로 걸러 냅니다.

# %% [markdown] lang="en"
# # Lab: Grouped-query and multi-query attention
#
# This notebook runs the examples from [Grouped-query and multi-query attention](../gqa.md) unchanged, ready for you
# to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was built.
# On a CPU, FlexAttention runs in eager mode and warns once, the first time it is called. The examples filter out only
# that warning, by its message.

# %% [markdown] lang="ko"
# ## 어느 쿼리 헤드가 어느 KV 헤드를 읽나
#
# 쿼리 헤드 <span data-claim="gqa/heads.py: H_q">여덟</span> 개를 MHA, GQA, MQA로 나눴을 때 헤드마다 읽는 KV 헤드입니다.

# %% [markdown] lang="en"
# ## Which query head reads which KV head
#
# The KV head each of <span data-claim="gqa/heads.py: H_q">eight</span> query heads reads, split as MHA, GQA and MQA.

# %%
# snippet: gqa/heads.py

# %% [markdown] lang="ko"
# ### 해 보기: 큰 모델에서 짐작하기
#
# 쿼리 헤드 `32`{ data-claim="lab: big[0]" } 개, KV 헤드 `8`{ data-claim="lab: big[1]" } 개인 모델에서 쿼리 헤드
# `13`{ data-claim="lab: asked" }번은 어느 KV 헤드를 읽을까요? 그 KV 헤드를 함께 읽는 쿼리 헤드는 어느 것들일까요?
# 셀을 돌리기 전에 먼저 짐작해 보세요.
#
# <details markdown><summary>답</summary>
#
# 그룹 크기가 `4`{ data-claim="lab: big[0] // big[1]" }이므로 KV 헤드 `3`{ data-claim="lab: read" }번을 읽습니다. 같은 KV 헤드를 읽는
# 쿼리 헤드는 이웃한 `[12, 13, 14, 15]`{ data-claim="lab: together" }입니다. $13 \bmod 8$로 짝지으면 KV 헤드 $5$가 나오는데, 그것은 학습된
# 모델의 짝이 아닙니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a guess for a larger model
#
# In a model with `32`{ data-claim="lab: big[0]" } query heads and `8`{ data-claim="lab: big[1]" } KV heads, which KV head does query head
# `13`{ data-claim="lab: asked" } read? Which query heads read that KV head with it? Guess before you run the cell.
#
# <details markdown><summary>Answer</summary>
#
# The group size is `4`{ data-claim="lab: big[0] // big[1]" }, so it reads KV head `3`{ data-claim="lab: read" }. The query heads that read the same KV head
# are its neighbours `[12, 13, 14, 15]`{ data-claim="lab: together" }. Pairing by $13 \bmod 8$ would give KV head $5$, which is not
# the pairing a trained model learned.
#
# </details>

# %%
big, asked = (32, 8), 13  # (H_q, H_kv), and the query head asked about
read = kv_head_of(asked, *big)
together = [h for h in range(big[0]) if kv_head_of(h, *big) == read]
print(read, together)

# %% [markdown] lang="ko"
# ## `enable_gqa`와 기준
#
# `expand_kv`로 키와 값을 늘리고 헤드마다 어텐션하는 기준을, SDPA와 FlexAttention의 `enable_gqa=True`와 견줍니다.

# %% [markdown] lang="en"
# ## `enable_gqa` and the reference
#
# The reference, which expands keys and values with `expand_kv` and attends head by head, against `enable_gqa=True` in
# SDPA and FlexAttention.

# %%
# snippet: gqa/check.py

# %% [markdown] lang="ko"
# ### 해 보기: `repeat`로 늘리면
#
# `expand_kv`의 `repeat_interleave`를 `repeat`로 바꾸면(KV 헤드를 통째로 되풀이하면) 어떻게 될까요? GQA와 MQA에서 각각
# SDPA의 `enable_gqa=True`와 견주어 보세요.
#
# <details markdown><summary>답</summary>
#
# `repeat`는 KV 헤드를 $0, 1, 0, 1, \dots$ 순서로 놓아 쿼리 헤드 $h$를 KV 헤드 $h \bmod H_{kv}$와 짝짓습니다. GQA에서는
# `enable_gqa=True`와의 차이가 `> 0.1`{ data-claim="lab: wrong['GQA']" }로, 틀린 결과입니다. 오류는 나지 않습니다.
# MQA에서는 KV 헤드가 하나뿐이라 두 순서가 같고, 차이가 `< 1e-6`{ data-claim="lab: wrong['MQA']" }입니다. 그래서 이 실수는
# MQA로 시험하면 드러나지 않습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: expanding with `repeat`
#
# What happens if `expand_kv`'s `repeat_interleave` becomes `repeat` (which repeats the KV heads as a whole)? Compare it
# with SDPA's `enable_gqa=True` for GQA and for MQA.
#
# <details markdown><summary>Answer</summary>
#
# `repeat` lays the KV heads out as $0, 1, 0, 1, \dots$ and so pairs query head $h$ with KV head $h \bmod H_{kv}$. For GQA
# it differs from `enable_gqa=True` by `> 0.1`{ data-claim="lab: wrong['GQA']" }: a wrong result, and no error. For MQA there is one KV head,
# the two orders are the same, and the difference is `< 1e-6`{ data-claim="lab: wrong['MQA']" }. A test with MQA alone would not catch
# this mistake.
#
# </details>

# %%
wrong = {}  # design -> max |attention with K, V repeated as a whole - enable_gqa=True|
for name, H_kv in {"GQA": 2, "MQA": 1}.items():
    q, k, v = (torch.randn(2, h, 6, 16, generator=g) for h in (8, H_kv, H_kv))
    K, V = (x.repeat(1, 8 // H_kv, 1, 1) for x in (k, v))  # heads 0, 1, 0, 1, ...
    mixed = F.scaled_dot_product_attention(q, K, V, causal)
    wrong[name] = (mixed - F.scaled_dot_product_attention(
        q, k, v, causal, enable_gqa=True)).abs().max().item()
print(wrong)

# %% [markdown] lang="ko"
# ## 쿼리 헤드마다 다른 마스크
#
# 쿼리 헤드마다 창의 크기가 다른 슬라이딩 윈도를 SDPA와 FlexAttention으로 계산해 기준과 견줍니다.

# %% [markdown] lang="en"
# ## A different mask for each query head
#
# A sliding window whose size depends on the query head, through SDPA and FlexAttention, against the reference.

# %%
# snippet: gqa/windows.py

# %% [markdown] lang="ko"
# ### 해 보기: KV 헤드마다 정한 마스크
#
# 같은 KV 헤드를 읽는 쿼리 헤드끼리는 같은 창을 쓰게 하고 싶습니다. KV 헤드 $0$의 그룹은 키를 많아야 `2`{ data-claim="lab: per_kv[0]" } 개,
# KV 헤드 $1$의 그룹은 인과 마스크 전체를 봅니다. KV 헤드마다 하나씩 $(1, H_{kv}, L, L)$ 마스크를 만들었다면, SDPA에
# 넘기기 전에 무엇을 해야 할까요?
#
# <details markdown><summary>답</summary>
#
# 그대로 넘기면 SDPA가 `'RuntimeError'`{ data-claim="lab: refused" }로 거절합니다. 헤드 축을 `repeat_interleave`로 그룹 크기만큼 늘려
# $(1, H_q, L, L)$로 만들면, `head_windows`에 쿼리 헤드마다 창을 적어 넘긴 FlexAttention과 차이가 `< 1e-6`{ data-claim="lab: gap_kv" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a mask decided per KV head
#
# Query heads that read the same KV head should share one window: the group of KV head $0$ sees at most
# `2`{ data-claim="lab: per_kv[0]" } keys, the group of KV head $1$ the whole causal mask. Having made one mask per KV head, of shape
# $(1, H_{kv}, L, L)$, what must be done before it goes to SDPA?
#
# <details markdown><summary>Answer</summary>
#
# Passed as it is, SDPA refuses it with a `'RuntimeError'`{ data-claim="lab: refused" }. Stretch its head axis by the group size with
# `repeat_interleave`, to $(1, H_q, L, L)$, and it differs from FlexAttention given `head_windows` with a window per query
# head by `< 1e-6`{ data-claim="lab: gap_kv" }.
#
# </details>

# %%
per_kv = [2, L]  # the window of each KV head's group
masks_kv = [fa.create_mask(head_windows([w] * H_q), 1, 1, L, L, device="cpu")[0, 0]
            for w in per_kv]
kv_keep = torch.stack(masks_kv)[None]  # (1, H_kv, L, L)
try:
    F.scaled_dot_product_attention(q, k, v, kv_keep, enable_gqa=True)
    refused = "nothing"
except RuntimeError as error:
    refused = type(error).__name__
stretched = kv_keep.repeat_interleave(H_q // H_kv, dim=1)  # (1, H_q, L, L)
by_query_head = [per_kv[h // (H_q // H_kv)] for h in range(H_q)]
block_kv = fa.create_block_mask(head_windows(by_query_head), 1, H_q, L, L, device="cpu")
with warnings.catch_warnings():  # eager flex_attention on CPU warns: see the chapter
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    flex_kv = fa.flex_attention(q, k, v, block_mask=block_kv, enable_gqa=True)
sdpa_kv = F.scaled_dot_product_attention(q, k, v, stretched, enable_gqa=True)
gap_kv = (sdpa_kv - flex_kv).abs().max().item()
print(refused, by_query_head, gap_kv < 1e-6)

# %% [markdown] lang="ko"
# ## KV 캐시의 크기
#
# `kv_cache_bytes`로 설계마다의 캐시 크기를 셉니다.

# %% [markdown] lang="en"
# ## The size of the KV cache
#
# `kv_cache_bytes` counts the cache of each design.

# %%
# snippet: gqa/cache.py

# %% [markdown] lang="ko"
# ### 해 보기: 긴 글을 읽는 큰 모델
#
# 층 `80`{ data-claim="lab: deep['layers']" } 개, 쿼리 헤드 `64`{ data-claim="lab: deep_heads" } 개, KV 헤드 `8`{ data-claim="lab: deep_kv" } 개,
# $d_{\text{head}}$ = `128`{ data-claim="lab: deep['d_head']" }인 모델이 `bfloat16`으로 토큰 `32768`{ data-claim="lab: deep['seq_len']" } 개를
# 읽으면, 문장 하나의 KV 캐시는 몇 GiB일까요? 같은 모델이 MHA였다면요?
#
# <details markdown><summary>답</summary>
#
# GQA로는 `10`{ data-claim="lab: deep_gib['GQA']" } GiB, MHA로는 `80`{ data-claim="lab: deep_gib['MHA']" } GiB입니다. 배수는 그룹 크기
# `8`{ data-claim="lab: deep_heads // deep_kv" }와 같습니다. 쿼리 헤드 수는 식에 들어가지 않으므로 MHA의 값만 바뀝니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a large model reading a long text
#
# A model with `80`{ data-claim="lab: deep['layers']" } layers, `64`{ data-claim="lab: deep_heads" } query heads, `8`{ data-claim="lab: deep_kv" } KV heads and
# $d_{\text{head}}$ = `128`{ data-claim="lab: deep['d_head']" } reads `32768`{ data-claim="lab: deep['seq_len']" } tokens in `bfloat16`. How many GiB is the KV
# cache of one sequence? And if the same model were MHA?
#
# <details markdown><summary>Answer</summary>
#
# `10`{ data-claim="lab: deep_gib['GQA']" } GiB as GQA, `80`{ data-claim="lab: deep_gib['MHA']" } GiB as MHA. The factor equals the group size,
# `8`{ data-claim="lab: deep_heads // deep_kv" }. The number of query heads is not in the formula, so only the MHA value depends on it.
#
# </details>

# %%
deep, deep_heads, deep_kv = dict(layers=80, d_head=128, seq_len=32768), 64, 8
deep_gib = {name: kv_cache_bytes(h_kv=n, **deep) / 2**30
            for name, n in {"MHA": deep_heads, "GQA": deep_kv}.items()}
print(deep_gib)
