# %% [markdown] lang="ko"
# # 실습: 인과 정렬과 디코딩
#
# [인과 정렬과 디코딩](../decoding.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Causal alignment and decoding
#
# This notebook runs the examples from [Causal alignment and decoding](../decoding.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 두 가지 정렬
#
# `causal_mask(l_q, l_k, align)`은 왼쪽 위 또는 오른쪽 아래에 맞춘 인과 keep 마스크를 만들고, PyTorch의
# `causal_upper_left`, `causal_lower_right`와 견줍니다.

# %% [markdown] lang="en"
# ## Two alignments
#
# `causal_mask(l_q, l_k, align)` builds a causal keep mask aligned to the top-left or to the bottom-right, and we
# compare it with PyTorch's `causal_upper_left` and `causal_lower_right`.

# %%
# snippet: decoding/align.py

# %% [markdown] lang="ko"
# ### 해 보기: 쿼리가 키보다 많을 때 빈 줄의 수
#
# 오른쪽 아래 정렬에서 $L_Q > L_K$이면 위쪽 줄이 빕니다. 쿼리 여섯, 키 둘이면 몇 줄이 빌까요? 일반적으로는?
# 그리고 길이에 $0$을 넘기면 `causal_mask`는 무엇을 할까요?
#
# <details markdown><summary>답</summary>
#
# <span data-claim="lab: empty[6, 2]">네</span> 줄이 빕니다. 일반적으로 $L_Q - L_K$ 줄입니다(아래 셀의 <span data-claim="lab: len(empty)">세</span> 쌍에서 모두 그런지
# 물으면 `True`{ data-claim="lab: all(n == l_q - l_k for (l_q, l_k), n in empty.items())" }). 오른쪽 아래 정렬은 마지막 쿼리를 마지막 키에 맞추므로, 쿼리
# $i$는 키 $0, \dots, i - (L_Q - L_K)$를 보고, $i < L_Q - L_K$이면 볼 키가 없습니다. 길이 $0$은 `ValueError`로
# 거절합니다. 키가 없는 어텐션은 모든 줄이 빈 줄이라 뜻이 없기 때문입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: empty rows when there are more queries than keys
#
# With bottom-right alignment and $L_Q > L_K$, the top rows are empty. With six queries and two keys, how many rows
# are empty? And in general? And what does `causal_mask` do when given a length of $0$?
#
# <details markdown><summary>Answer</summary>
#
# <span data-claim="lab: empty[6, 2]">Four</span> rows are empty; in general, $L_Q - L_K$ rows (asked whether that holds for
# the <span data-claim="lab: len(empty)">three</span> pairs in the cell below: `True`{ data-claim="lab: all(n == l_q - l_k for (l_q, l_k), n in empty.items())" }). Bottom-right alignment lines up the last query with the last
# key, so query $i$ sees keys $0, \dots, i - (L_Q - L_K)$, and when $i < L_Q - L_K$ it sees no key at all. A length
# of $0$ is refused with a `ValueError`: an attention with no keys has only empty rows, so it means nothing.
#
# </details>

# %%
empty = {}  # (L_Q, L_K) -> rows that see no key, bottom-right aligned
for l_q, l_k in [(6, 2), (7, 3), (4, 4)]:
    mask = causal_mask(l_q, l_k, "bottom_right")
    empty[l_q, l_k] = int((~mask.any(dim=-1)).sum())
    print(f"L_Q={l_q}, L_K={l_k}: rows with no key = {empty[l_q, l_k]}")
try:
    causal_mask(0, 5)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown] lang="ko"
# ## SDPA의 is_causal
#
# `is_causal=True`는 왼쪽 위 정렬입니다. 디코딩 한 단계에서 새 쿼리가 보는 키의 수와, 볼 키가 없는 줄에 SDPA가
# 내는 값을 잽니다.

# %% [markdown] lang="en"
# ## SDPA's `is_causal`
#
# `is_causal=True` is top-left aligned. We measure how many keys a new query sees in a single decode step, and what
# SDPA gives for fully masked rows.

# %%
# snippet: decoding/sdpa_align.py

# %% [markdown] lang="ko"
# ## KV 캐시
#
# 토큰 <span data-claim="decoding/kv_cache.py: steps[0][1]">넷</span>을 프리필하고 나머지를 한 토큰씩 디코딩해, 단계마다의 출력을 한 번에 계산한 출력과 견줍니다.

# %% [markdown] lang="en"
# ## KV cache
#
# We prefill <span data-claim="decoding/kv_cache.py: steps[0][1]">four</span> tokens, decode the rest one token at a time, and compare each step's output with the output
# computed in one pass.

# %%
# snippet: decoding/kv_cache.py

# %% [markdown] lang="ko"
# ### 해 보기: 두 토큰씩 디코딩하기, 그리고 is_causal=True로 디코딩하기
#
# 추측 디코딩(speculative decoding)처럼 한 단계에 새 토큰을 둘씩 넣으면 $L_Q = 2$입니다. `decode_step`은 그래도
# 한 번에 계산한 출력과 같을까요? 반대로 한 토큰씩 디코딩하면서 마스크 대신 `is_causal=True`를 넘기면 어떻게
# 될까요? 캐시를 여섯 슬롯으로 잡고 여덟 토큰을 넣으면요?
#
# <details markdown><summary>답</summary>
#
# 두 토큰씩 넣어도 같습니다(가장 큰 차이 `< 1e-6`{ data-claim="lab: (by_two - full).abs().max()" }). `decode_step`은 새 토큰이 몇 개든 캐시의 마지막 위치로 보고 오른쪽 아래 정렬
# 마스크를 만들기 때문입니다. `is_causal=True`로 바꾸면 프리필은 같지만($L_Q = L_K$), 디코딩 단계마다 새 쿼리가
# 첫 키만 봅니다. 출력은 첫 토큰의 값 벡터가 되어(단계마다 그런지 물으면
# `[True, True, True, True]`{ data-claim="lab: first_value" }) 한 번에 계산한 출력과 크게 어긋납니다(단계마다의 차이가
# `> 0.4`{ data-claim="lab: causal_gaps" }). 캐시가 모자라면 `append`가 넘치는 수를 밝힌 `ValueError`를 냅니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: decoding two tokens at a time, and decoding with `is_causal=True`
#
# If each step feeds two new tokens, as in speculative decoding, then $L_Q = 2$. Does `decode_step` still match the
# output computed in one pass? Conversely, what happens if you decode one token at a time but pass `is_causal=True`
# instead of the mask? And if the cache has six slots and you feed it eight tokens?
#
# <details markdown><summary>Answer</summary>
#
# Two tokens at a time also match (largest gap `< 1e-6`{ data-claim="lab: (by_two - full).abs().max()" }), because `decode_step` treats however many new tokens it is given as the last
# positions of the cache and builds a bottom-right aligned mask. With `is_causal=True`, the prefill is the same
# ($L_Q = L_K$), but at every decode step the new query sees only the first key. The output becomes the first token's
# value vector (asked step by step: `[True, True, True, True]`{ data-claim="lab: first_value" }) and is far from the
# output computed in one pass (every step is off by `> 0.4`{ data-claim="lab: causal_gaps" }). When the cache is too
# small, `append` raises a `ValueError` that states by how much it overflows.
#
# </details>

# %%
g = torch.Generator().manual_seed(0)
x, *w = (torch.randn(n, 6, generator=g) / 6**0.5 for n in (8, 6, 6, 6))
full = F.scaled_dot_product_attention(*(x @ m for m in w), is_causal=True)
cache = new_cache(8, 6)
pairs = [(0, 4), (4, 6), (6, 8)]  # prefill 4, then two tokens a step
by_two = torch.cat([decode_step(x[a:b], cache, *w) for a, b in pairs])
print(f"two at a time: max |diff| = {(by_two - full).abs().max().item():.1e}")

keys, values = x @ w[1], x @ w[2]
causal_gaps, first_value = [], []  # per decode step with is_causal=True
for i in range(4, 8):  # one new query, cache of i + 1 keys, top-left aligned
    query = x[i:i + 1] @ w[0]
    out = F.scaled_dot_product_attention(query, keys[:i + 1], values[:i + 1],
                                         is_causal=True)
    causal_gaps.append((out - full[i]).abs().max().item())
    first_value.append(torch.allclose(out[0], values[0]))
    print(f"is_causal=True, token {i}: |diff| = {causal_gaps[-1]:.3f},",
          f"equals the first value vector: {first_value[-1]}")
try:
    small = new_cache(6, 6)
    for a, b in steps:
        decode_step(x[a:b], small, *w)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown] lang="ko"
# ## 왼쪽 패딩과 position_ids
#
# 길이가 다른 프롬프트 <span data-claim="decoding/left_pad.py: len(prompts)">셋</span>을 왼쪽 패딩한 배치와, 각 프롬프트를 혼자 넣은 결과를 견줍니다.

# %% [markdown] lang="en"
# ## Left padding and `position_ids`
#
# We compare a left-padded batch of <span data-claim="decoding/left_pad.py: len(prompts)">three</span> prompts of different lengths with the results of running each prompt
# alone.

# %%
# snippet: decoding/left_pad.py

# %% [markdown] lang="ko"
# ### 해 보기: 오른쪽 패딩이라면
#
# 같은 프롬프트를 `[PAD]`를 뒤에 채워(오른쪽 패딩) 넣고, 위치는 슬롯 번호 그대로(`torch.arange`) 쓰면 진짜 토큰의
# 출력은 혼자 넣은 것과 같을까요? 그렇다면 생성에서는 왜 굳이 왼쪽 패딩을 쓸까요?
#
# <details markdown><summary>답</summary>
#
# 같습니다(<span data-claim="lab: len(right_gaps)">세</span> 프롬프트의 가장 큰 차이 `< 1e-6`{ data-claim="lab: max(right_gaps)" }). 오른쪽 패딩에서는 진짜 토큰이 슬롯 $0$부터 시작하므로 슬롯 번호가 곧 위치이고, `[PAD]`는 모두 뒤에 있어
# 인과 마스크가 이미 가립니다. 그러나 생성은 각 문장의 마지막 토큰 바로 뒤에 새 토큰을 붙입니다. 오른쪽 패딩에서는
# 문장마다 그 위치가 다르고 그 사이에 `[PAD]`가 끼므로, 한 배치를 한 번에 한 슬롯씩 늘려 갈 수 없습니다. 왼쪽
# 패딩은 모든 문장의 끝을 같은 슬롯에 맞추고, 그 대가로 마스크와 `position_ids`를 맞춰야 합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: what about right padding?
#
# If the same prompts are fed with the `[PAD]` at the end (right padding) and the slot index itself is used as the
# position (`torch.arange`), do the outputs of the real tokens equal those of running each prompt alone? If so, why
# does generation bother with left padding?
#
# <details markdown><summary>Answer</summary>
#
# They are equal (largest gap over the <span data-claim="lab: len(right_gaps)">three</span> prompts `< 1e-6`{ data-claim="lab: max(right_gaps)" }). With right padding the real tokens start in the first slot, so the slot index is the position, and the
# `[PAD]` are all at the end, where the causal mask already hides them. But generation appends the new token right
# after the last token of each sentence. With right padding that place differs from sentence to sentence, with
# `[PAD]` in between, so the batch cannot grow by one slot at a time as a whole. Left padding lines up the ends of all
# sentences in the same slot, and the price is getting the mask and the `position_ids` right.
#
# </details>

# %%
L = max(len(p) for p in prompts)
right = torch.tensor([p + [0] * (L - len(p)) for p in prompts])
keep_right = torch.arange(L) < torch.tensor([len(p) for p in prompts])[:, None]
out_right = forward(right, keep_right, torch.arange(L).expand(right.shape), *params)
right_gaps = [(out_right[b, keep_right[b]] - a).abs().max().item()
              for b, a in enumerate(alone)]
for b, gap in enumerate(right_gaps):
    print(f"prompt {b}: right padding, arange positions: max |diff| = {gap:.1e}")

# %% [markdown] lang="ko"
# ## 캐시의 빈 슬롯
#
# 빈 슬롯을 `nan`으로 채운 캐시에 여러 방법을 써 보고, 출력의 `nan` 수를 셉니다.

# %% [markdown] lang="en"
# ## Empty slots in the cache
#
# We try several methods on a cache whose empty slots are filled with `nan`, and count the `nan` in the output.

# %%
# snippet: decoding/empty_slots.py

# %% [markdown] lang="ko"
# ### 해 보기: nan 대신 아주 큰 수나 inf
#
# 빈 슬롯을 `nan` 대신 아주 큰 유한값이나 무한대로 채우고(`fill in (1e30, float("inf"))`) 불리언 마스크로 가리면 출력은
# 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# `fill = 1e30`은 `float32`에서 유한하므로 점수도 유한하고, $-\infty$를 더하면 가려지고, 가중치 $0$을 곱하면 $0$입니다.
# 출력은 잘라 낸 것과 같습니다(`True`{ data-claim="lab: fill_same[0]" }, `nan`은
# `0`{ data-claim="lab: fill_nans[0]" } 개). `inf`는 다릅니다. 값 쪽에서 $0 \times \infty$가 `nan`이고, 키 쪽에서도
# 점수가 $\pm\infty$가 되어 $-\infty$를 더하면 `nan`이 될 수 있습니다. 이 예에서는 출력
# 출력 값 `4`{ data-claim="lab: reference.numel()" } 개 가운데 `4`{ data-claim="lab: fill_nans[1]" } 개가 `nan`입니다. 초기화하지 않은 메모리에 무엇이 있을지 모르니,
# 빈 슬롯은 $0$으로 만들거나 잘라 내는 것이 안전합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a huge number or `inf` instead of `nan`
#
# If the empty slots are filled with a huge finite number or with infinity instead of `nan`
# (`fill in (1e30, float("inf"))`) and masked with a boolean mask, what happens to the output?
#
# <details markdown><summary>Answer</summary>
#
# `fill = 1e30` is finite in `float32`, so the scores are finite too; adding $-\infty$ masks them, and multiplying by a
# weight of $0$ gives $0$. The output equals the sliced one (`True`{ data-claim="lab: fill_same[0]" }, with
# `0`{ data-claim="lab: fill_nans[0]" } `nan`). `inf` is different. On the value side $0 \times \infty$ is `nan`, and on
# the key side the scores become $\pm\infty$, and adding $-\infty$ can give `nan`. Here
# `4`{ data-claim="lab: fill_nans[1]" } of the output's `4`{ data-claim="lab: reference.numel()" } cells are `nan`. You cannot know what
# uninitialized memory holds, so creating the empty slots with $0$ or slicing them off is the safe choice.
#
# </details>

# %%
fill_nans, fill_same = [], []  # per fill: NaNs in the output; equal to the slice?
for fill in (1e30, float("inf")):
    k_fill, v_fill = k.nan_to_num(fill), v.nan_to_num(fill)
    out = sdpa(q, k_fill, v_fill, attn_mask=keep)
    fill_nans.append(int(out.isnan().sum()))
    fill_same.append(torch.allclose(out, reference))
    print(f"fill {fill:g}: NaN {fill_nans[-1]} of {out.numel()},",
          f"same as slice: {fill_same[-1]}")
