# %% [markdown] lang="ko"
# # 실습: 청크 프리필, 프리픽스 캐시, split-KV 디코딩
#
# [청크 프리필, 프리픽스 캐시, split-KV 디코딩](../chunked.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는
# 노트북입니다. 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에
# 있습니다. 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Chunked prefill, prefix caching and split-KV decoding
#
# This notebook runs the examples from [Chunked prefill, prefix caching and split-KV decoding](../chunked.md)
# unchanged, ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is
# followed by a cell you can edit, and its answer is in the folded box. The outputs on this page come from the run
# made when the site was built.

# %% [markdown] lang="ko"
# ## 청크의 마스크
#
# `chunk_mask(chunk_len, cached_len)`은 캐시 뒤에 오는 청크의 keep 마스크를 만듭니다. 프롬프트를 청크로 나눠 각
# 청크의 마스크를 ■(봄)과 ⬚(가림)로 찍습니다.

# %% [markdown] lang="en"
# ## A chunk's mask
#
# `chunk_mask(chunk_len, cached_len)` builds the keep mask of a chunk that comes after the cache. We cut a prompt into
# chunks and print each chunk's mask with ■ (seen) and ⬚ (masked).

# %%
# snippet: chunked/masks.py

# %% [markdown] lang="ko"
# ### 해 보기: 청크의 마스크를 손으로
#
# 캐시에 토큰 다섯 개가 든 뒤 두 토큰짜리 청크가 옵니다. 그 마스크를 `chunk_mask`를 부르지 않고 손으로 써 보세요.
# 모양은 무엇이고, 줄마다 몇 개의 키를 볼까요?
#
# <details markdown><summary>답</summary>
#
# 모양은 `(2, 7)`{ data-claim="lab: tuple(mine.shape)" }입니다. 청크의 두 쿼리는 위치 $5$와 $6$이므로, 첫 줄은 캐시의
# 키 전부와 자기 키를, 둘째 줄은 키 전부를 봅니다. 줄마다 보는 키는 `[6, 7]`{ data-claim="lab: mine.sum(-1).tolist()" } 개이고,
# `chunk_mask(2, 5)`와 같습니다(`True`{ data-claim="lab: mine_ok" }).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a chunk's mask by hand
#
# A chunk of two tokens comes after five cached ones. Write its mask by hand, without calling `chunk_mask`. What is its
# shape, and how many keys does each row see?
#
# <details markdown><summary>Answer</summary>
#
# Its shape is `(2, 7)`{ data-claim="lab: tuple(mine.shape)" }. The chunk's two queries are at positions $5$ and $6$, so
# the first row sees every cached key and its own, and the second row every key. The rows see
# `[6, 7]`{ data-claim="lab: mine.sum(-1).tolist()" } keys, and the mask equals `chunk_mask(2, 5)`
# (`True`{ data-claim="lab: mine_ok" }).
#
# </details>

# %%
mine = torch.tensor([[1, 1, 1, 1, 1, 1, 0],
                     [1, 1, 1, 1, 1, 1, 1]], dtype=torch.bool)  # written by hand
mine_ok = torch.equal(mine, chunk_mask(2, 5))
print(mine.int())
print("same as chunk_mask(2, 5):", mine_ok)

# %% [markdown] lang="ko"
# ## 청크 프리필과 한 번의 프리필
#
# `chunked_prefill`은 KV 캐시를 청크마다 늘려 가며 어텐션을 하고, 청크 크기마다 `is_causal=True`로 한 번에 계산한
# 것과 견줍니다.

# %% [markdown] lang="en"
# ## Chunked prefill against one prefill
#
# `chunked_prefill` attends chunk by chunk with a growing KV cache, and for each chunk size we compare it with one pass
# with `is_causal=True`.

# %%
# snippet: chunked/prefill.py

# %% [markdown] lang="ko"
# ## transformers의 작은 모델
#
# 설정에서 만든 작은 Llama에 프롬프트를 청크로 나눠 `past_key_values`와 함께 넣고, 캐시 없이 한 번에 넣은 로짓과
# 견줍니다.

# %% [markdown] lang="en"
# ## A tiny transformers model
#
# A tiny Llama built from a config gets the prompt in chunks with `past_key_values`, and we compare its logits with
# those of one pass without a cache.

# %%
# snippet: chunked/hf_chunks.py

# %% [markdown] lang="ko"
# ## 왼쪽 위 정렬의 실수
#
# 청크에 `tril()`이나 `is_causal=True`를 쓰면 어느 줄이 틀리는지, PyTorch의 `causal_lower_right`와 견주어 봅니다.

# %% [markdown] lang="en"
# ## The top-left mistake
#
# We see which rows go wrong when a chunk is given `tril()` or `is_causal=True`, and compare with PyTorch's
# `causal_lower_right`.

# %%
# snippet: chunked/top_left.py

# %% [markdown] lang="ko"
# ### 해 보기: 틀린 줄 찾기
#
# 캐시에 토큰 둘이 든 뒤 네 토큰짜리 청크에 왼쪽 위 정렬 마스크를 쓰면, 어느 줄이 틀리고 각 줄은 어느 키를 놓칠까요?
#
# <details markdown><summary>답</summary>
#
# <span data-claim="lab: len(wrong_here)">네</span> 줄이 모두 틀립니다. 줄 $i$는 키 $0, \dots, i$만 보고 $i + 2$까지 봐야 하므로, 놓치는 키는
# `[[1, 2], [2, 3], [3, 4], [4, 5]]`{ data-claim="lab: wrong_here" }입니다. 줄마다 캐시 길이만큼, 곧 자기 키를 포함해
# <span data-claim="lab: len(wrong_here[0])">두</span> 개입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: find the wrong rows
#
# With two cached tokens and a chunk of four given a top-left mask, which rows go wrong, and which keys does each miss?
#
# <details markdown><summary>Answer</summary>
#
# All <span data-claim="lab: len(wrong_here)">four</span> rows are wrong. Row $i$ sees keys $0, \dots, i$ but should see up to $i + 2$, so the keys missed
# are `[[1, 2], [2, 3], [3, 4], [4, 5]]`{ data-claim="lab: wrong_here" }: as many as are cached,
# <span data-claim="lab: len(wrong_here[0])">two</span> per row, its own key among them.
#
# </details>

# %%
right_here = torch.ones(4, 6, dtype=torch.bool).tril(2)  # chunk_mask(4, 2)
wrong_mask = torch.ones(4, 6, dtype=torch.bool).tril()  # top-left
missed = right_here & ~wrong_mask  # seen by the right mask, not by the top-left one
wrong_here = [row.nonzero().flatten().tolist() for row in missed]
for i, keys in enumerate(wrong_here):
    print(f"query {2 + i} misses keys {keys}")

# %% [markdown] lang="ko"
# ## 프리픽스 캐시
#
# 두 요청이 공유한 프리픽스의 키와 값을 한 번만 계산하고, 서픽스를 `attend_cached`로 붙입니다.

# %% [markdown] lang="en"
# ## Prefix caching
#
# The keys and values of the prefix two requests share are computed once, and each suffix is appended with
# `attend_cached`.

# %%
# snippet: chunked/prefix.py

# %% [markdown] lang="ko"
# ## split-KV 디코딩
#
# 디코딩 쿼리 하나가 보는 캐시를 조각으로 나눠 `attend_split`으로 `(out, lse)`를 내고 `merge`로 합칩니다.

# %% [markdown] lang="en"
# ## Split-KV decoding
#
# The cache one decoding query looks at is cut into splits; `attend_split` returns each split's `(out, lse)` and
# `merge` merges them.

# %%
# snippet: chunked/split_kv.py

# %% [markdown] lang="ko"
# ### 해 보기: 두 조각을 손으로 합치기
#
# 캐시를 반으로 나눈 두 조각의 `(out, lse)`를 `merge` 없이 합쳐 보세요. 전체 lse는 $\log(e^{\operatorname{lse}_1} +
# e^{\operatorname{lse}_2})$이고, 각 조각의 가중치는 $e^{\operatorname{lse}_s - \operatorname{lse}}$입니다.
#
# <details markdown><summary>답</summary>
#
# 두 가중치의 합은 $1$입니다(차이 `< 1e-6`{ data-claim="lab: weight_gap" }). 손으로 합친 출력은 SDPA와
# `< 1e-6`{ data-claim="lab: by_hand_gap" } 안에서 같습니다. 이 캐시의 두 조각에는 모두 볼 키가 있어 lse가 유한하므로,
# 보호 없이 식을 그대로 써도 됩니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: merge two splits by hand
#
# Merge the `(out, lse)` of the two halves of the cache without `merge`. The total lse is
# $\log(e^{\operatorname{lse}_1} + e^{\operatorname{lse}_2})$, and each split's weight is
# $e^{\operatorname{lse}_s - \operatorname{lse}}$.
#
# <details markdown><summary>Answer</summary>
#
# The two weights add up to $1$ (difference `< 1e-6`{ data-claim="lab: weight_gap" }). The output merged by hand
# equals SDPA's within `< 1e-6`{ data-claim="lab: by_hand_gap" }. Both halves of this cache have keys to see, so their
# lse are finite and the formula works as written, with no guard.
#
# </details>

# %%
(out1, lse1), (out2, lse2) = [attend_split(q, k_s, v_s, m_s) for k_s, v_s, m_s in zip(
    k.tensor_split(2, -2), v.tensor_split(2, -2), keep.tensor_split(2, -1))]
lse_total = torch.logaddexp(lse1, lse2)
w1, w2 = torch.exp(lse1 - lse_total), torch.exp(lse2 - lse_total)
by_hand = w1[..., None] * out1 + w2[..., None] * out2
weight_gap = (w1 + w2 - 1).abs().max().item()
by_hand_gap = (by_hand - full).abs().max().item()
print(f"weights {w1.flatten().tolist()} + {w2.flatten().tolist()}")
print(f"max |by hand - SDPA| = {by_hand_gap:.1e}")

# %% [markdown] lang="ko"
# ## 모두 가려진 조각
#
# 조각 안의 보호와 합치기의 보호를 하나씩 빼 보며 출력의 `nan`을 셉니다.

# %% [markdown] lang="en"
# ## All-masked splits
#
# We take out the guard within a split and the guard in the merge one at a time, and count the `nan` in the output.

# %%
# snippet: chunked/empty_split.py
