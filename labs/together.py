# %% [markdown] lang="ko"
# # 실습: 모두 합치기
#
# [모두 합치기](../together.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터 차례로
# 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Putting it together
#
# This notebook runs the examples from [Putting it together: a copyable `attention`](../together.md) unchanged,
# ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a
# cell you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the
# site was built.

# %% [markdown] lang="ko"
# ## 검사하는 attention 함수
#
# 점수를 $\sqrt{d_k}$로 나누고, 마스크를 더하고, 키 방향으로 소프트맥스하고, 값을 섞어 `(output, weights)`를
# 돌려줍니다. 불리언 마스크의 `True`는 SDPA처럼 **참여**입니다. 파일의 끝은 일부러 잘못 불러 본 호출과 그
# 오류입니다.

# %% [markdown] lang="en"
# ## The checking `attention` function
#
# It divides the scores by $\sqrt{d_k}$, adds the mask, applies the softmax along the keys, mixes the values and
# returns `(output, weights)`. In a boolean mask, `True` means **attend**, as in SDPA. The end of the file makes
# calls that are wrong on purpose, with their errors.

# %%
# snippet: together/attention.py

# %% [markdown] lang="ko"
# ### 해 보기: $0$과 $1$로 된 마스크
#
# 토크나이저가 돌려준 `[1, 1, 1, 0, 0]` 같은 정수 마스크를 그대로 넘기면 어떻게 될까요? `mask.bool()`로 바꿔
# 넘길 때와 `mask == 0`으로 바꿔 넘길 때, 첫 쿼리의 가중치는 각각 어떻게 될까요? 여기서 `q`와 `k`는 모두
# $1$이라 점수가 모두 같습니다.
#
# <details markdown><summary>답</summary>
#
# 정수 마스크는 `TypeError`로 거절됩니다. `1`이 참여인지 가림인지는 만든 사람만 알기 때문입니다.
# `mask.bool()`은 `1`을 참여로 읽어 앞의 <span data-claim="lab: int(ints.sum())">세</span> 키가
# `1/3`{ data-claim="lab: as_keep[:3]" }씩 나눠 갖고, `mask == 0`은 `1`을 가림으로 읽어 뒤의
# <span data-claim="lab: int((ints == 0).sum())">두</span> 키가 `1/2`{ data-claim="lab: as_hide[3:]" }씩 나눠 갖습니다. 두 변환은 정반대의 칸을 보므로, 마스크를 만든 쪽의 규약을 알고
# 골라야 합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a mask of $0$ and $1$
#
# What happens if you pass an integer mask such as the `[1, 1, 1, 0, 0]` a tokenizer returns, unconverted? And what are
# the first query's weights when you convert it with `mask.bool()`, and when you convert it with `mask == 0`? Here `q`
# and `k` are all $1$, so every score is the same.
#
# <details markdown><summary>Answer</summary>
#
# The integer mask is refused with `TypeError`, because only whoever made it knows whether `1` means attend or
# masked. `mask.bool()` reads `1` as attend, so the first <span data-claim="lab: int(ints.sum())">three</span> keys get
# `1/3`{ data-claim="lab: as_keep[:3]" } each; `mask == 0` reads `1` as masked, so the last
# <span data-claim="lab: int((ints == 0).sum())">two</span> keys get `1/2`{ data-claim="lab: as_hide[3:]" } each. The two conversions see opposite cells, so choose based on the
# convention of whoever made the mask.
#
# </details>

# %%
ints = torch.tensor([1, 1, 1, 0, 0])
try:
    attention(q, k, v, ints)
except TypeError as error:
    print("TypeError:", error)
as_keep = attention(q, k, v, ints.bool())[1][0]  # 1 read as "take part"
as_hide = attention(q, k, v, ints == 0)[1][0]  # 1 read as "masked"
print("mask.bool():", as_keep)
print("mask == 0  :", as_hide)

# %% [markdown] lang="ko"
# ## 모두 가려진 줄
#
# 볼 키가 없는 줄을 보통의 소프트맥스, 이 장의 두 `masked_fill`, SDPA로 계산해 출력과 기울기를 견줍니다.

# %% [markdown] lang="en"
# ## Fully masked rows
#
# We compute a fully masked row three ways, with a plain softmax, with this chapter's two `masked_fill` calls and with
# SDPA, and compare the outputs and gradients.

# %%
# snippet: together/empty_rows.py

# %% [markdown] lang="ko"
# ### 해 보기: -inf 대신 가장 작은 유한한 수
#
# 같은 줄을 불리언 마스크가 아니라 `torch.finfo(torch.float32).min`으로 채운 실수 마스크로 가리면, `attention`이
# 내는 그 줄의 가중치는 $0$ 일까요? 줄마다 가중치의 합은 얼마일까요?
#
# <details markdown><summary>답</summary>
#
# $0$이 아니라 <span data-claim="lab: L_K">네</span> 키에 고르게 `1/4`{ data-claim="lab: low_rows['float finfo.min']" }씩입니다. 이 함수가 "모두 가려짐"으로 보는 것은 줄의 모든 칸이 정확히
# $-\infty$인 경우뿐입니다. 유한한 값으로 채우면 그 줄의 점수가 모두 같아지고, 소프트맥스의 이동 불변성 때문에
# 균등 분포가 됩니다. SDPA도 같은 결과를 냅니다(두 마스크에서 물으면 `[True, True]`{ data-claim="lab: list(low_same.values())" }).
# 불리언 마스크에서는 그 줄의 합이 `0`{ data-claim="lab: low_sums['bool keep'][1]" }, 실수 마스크에서는
# `1`{ data-claim="lab: low_sums['float finfo.min'][1]" }이지만, 어느 쪽이든 뜻 없는 출력이니 손실에서 빼야 합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: the smallest finite number instead of `-inf`
#
# If the same row is masked not with a boolean mask but with a float mask filled with `torch.finfo(torch.float32).min`,
# are that row's weights from `attention` $0$? What does each row's weights sum to?
#
# <details markdown><summary>Answer</summary>
#
# Not $0$: the <span data-claim="lab: L_K">four</span> keys get `1/4`{ data-claim="lab: low_rows['float finfo.min']" } each, evenly. This function treats a row as "fully masked" only when every cell
# of the row is exactly $-\infty$. Fill it with a finite value and the row's scores all become equal, and by the shift
# invariance of the softmax the result is a uniform distribution. SDPA gives the same result (asked for both masks:
# `[True, True]`{ data-claim="lab: list(low_same.values())" }). With the boolean mask the row sums to
# `0`{ data-claim="lab: low_sums['bool keep'][1]" }, with the float mask to `1`{ data-claim="lab: low_sums['float finfo.min'][1]" }, but either way the output means nothing, so it must be left out of the
# loss.
#
# </details>

# %%
low = torch.zeros(L_Q, L_K).masked_fill(~keep, torch.finfo(torch.float32).min)
low_rows, low_sums, low_same = {}, {}, {}  # by mask: row 1, the row sums, same as SDPA
for name, mask in [("bool keep", keep), ("float finfo.min", low)]:
    out, w = attention(q0, k0, v0, mask)
    low_rows[name], low_sums[name] = w[1], w.sum(dim=-1)
    sdpa_out = F.scaled_dot_product_attention(q0, k0, v0, mask)
    low_same[name] = torch.allclose(out, sdpa_out)
    print(f"{name:>15}: row 1 = {low_rows[name].tolist()}")
    print(f"{'':>15}  row sums = {low_sums[name].tolist()},",
          f"same as SDPA: {low_same[name]}")

# %% [markdown] lang="ko"
# ## 인과 마스크의 정렬
#
# 쿼리가 키보다 적을 때 `causal=True`(SDPA의 `is_causal=True`)는 왼쪽 위에 맞추고, KV 캐시에서는 오른쪽 아래에
# 맞춘 마스크가 필요합니다.

# %% [markdown] lang="en"
# ## Aligning the causal mask
#
# When there are fewer queries than keys, `causal=True` (SDPA's `is_causal=True`) aligns at the top left, but a KV cache
# needs a mask aligned at the bottom right.

# %%
# snippet: together/causal.py

# %% [markdown] lang="ko"
# ### 해 보기: 새 토큰이 하나일 때와 넷일 때
#
# 글을 한 토큰씩 생성하면 새 쿼리가 하나($L_Q = 1$)입니다. 이때 두 정렬은 각각 키를 몇 개 볼까요? 반대로 새 쿼리가
# 넷($L_Q = L_K$)이면 두 정렬이 같을까요?
#
# <details markdown><summary>답</summary>
#
# $L_Q = 1$이면 왼쪽 위 정렬은 첫 키 <span data-claim="lab: first_sees[1][0]">하나</span>만, 오른쪽 아래 정렬은 키
# <span data-claim="lab: first_sees[1][1]">넷</span>을 모두 봅니다. 한 토큰씩 생성할 때
# `is_causal=True`를 그대로 쓰면, 새 토큰이 앞의 문맥을 하나도 보지 못하는 셈입니다. $L_Q = L_K$이면 두 정렬은
# 같은 마스크입니다. 정렬이 문제 되는 것은 길이가 다를 때뿐입니다(새 쿼리가 하나, 둘, 넷일 때 두 마스크가 같은지
# 물으면 `[False, False, True]`{ data-claim="lab: [s[2] for s in first_sees.values()]" }).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: one new token, and four
#
# When text is generated one token at a time, there is one new query ($L_Q = 1$). How many keys does each alignment see
# then? Conversely, with four new queries ($L_Q = L_K$), are the two alignments the same?
#
# <details markdown><summary>Answer</summary>
#
# With $L_Q = 1$, top-left alignment sees only <span data-claim="lab: first_sees[1][0]">one</span> key, the first, and
# bottom-right alignment sees all <span data-claim="lab: first_sees[1][1]">four</span> keys. Using
# plain `is_causal=True` when generating one token at a time means the new token sees none of the preceding context.
# With $L_Q = L_K$ the two alignments are the same mask. Alignment matters only when the lengths differ (asked whether
# the two masks agree for one, two and four new queries: `[False, False, True]`{ data-claim="lab: [s[2] for s in first_sees.values()]" }).
#
# </details>

# %%
# new queries -> keys the first one sees (top-left, bottom-right), same mask?
first_sees = {}
for n_new in (1, 2, 4):
    top = torch.ones(n_new, L_K, dtype=torch.bool).tril()
    bottom = torch.ones(n_new, L_K, dtype=torch.bool).tril(L_K - n_new)
    first_sees[n_new] = (int(top[0].sum()), int(bottom[0].sum()),
                         torch.equal(top, bottom))
    print(f"L_Q={n_new}: top-left sees {top.sum(-1).tolist()},",
          f"bottom-right sees {bottom.sum(-1).tolist()},",
          f"same: {torch.equal(top, bottom)}")

# %% [markdown] lang="ko"
# ## 여러 헤드로 나누고 합치기
#
# 투영, `split`, 헤드별 어텐션, merge, 출력 투영을 직접 쓰고, 같은 가중치를 복사해 넣은
# `nn.MultiheadAttention`과 견줍니다.

# %% [markdown] lang="en"
# ## Splitting into heads and merging them
#
# We write the projection, `split`, per-head attention, merge and output projection by hand, and compare with an
# `nn.MultiheadAttention` with the same weights copied in.

# %%
# snippet: together/multihead.py

# %% [markdown] lang="ko"
# ### 해 보기: 헤드 수만 바꾸면
#
# 가중치 `params`는 그대로 두고 헤드를 넷으로 바꾸면 출력이 달라질까요? 같은 가중치에 헤드를 넷으로 만든 MHA와는
# 같을까요?
#
# <details markdown><summary>답</summary>
#
# 출력은 달라집니다(가장 큰 차이 `> 0.5`{ data-claim="lab: (by_four - ours).abs().max()" }). 투영 행렬이 같아도 마지막 축을 자르는 방식이 바뀌어, 내적을 더하는 묶음과 소프트맥스를 하는
# 단위가 달라지기 때문입니다. 헤드가 넷이면 헤드 하나의 폭은 <span data-claim="lab: d_model // 4">둘</span>이고 나누는
# 수도 $\sqrt{2}$입니다. 그래도 헤드가 넷인 MHA와는 반올림 범위에서 같습니다(가장 큰 차이
# `< 1e-6`{ data-claim="lab: (by_four - by_mha4).abs().max()" }). 헤드 수는 가중치에 들어 있지 않은, 모델 구조의 일부입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: changing only the number of heads
#
# Keep the same weights `params` and switch to four heads: does the output change? Does it match an MHA built
# with four heads and the same weights?
#
# <details markdown><summary>Answer</summary>
#
# The output changes (largest gap `> 0.5`{ data-claim="lab: (by_four - ours).abs().max()" }). Even with the same projection matrices, the last axis is cut differently, so the groups summed in
# each dot product and the units the softmax runs over change. With four heads, each head is
# <span data-claim="lab: d_model // 4">two</span> wide and the divisor is $\sqrt{2}$. It still matches the four-head MHA
# within rounding (largest gap `< 1e-6`{ data-claim="lab: (by_four - by_mha4).abs().max()" }). The number of heads is not stored in the weights; it
# is part of the model's architecture.
#
# </details>

# %%
by_four = multihead(x_q, x_kv, 4, *params, keep[:, None, None, :])
mha4 = torch.nn.MultiheadAttention(d_model, 4, batch_first=True)
mha4.load_state_dict(dict(zip(mha4.state_dict(), params)))  # the same weights
by_mha4, _ = mha4(x_q, x_kv, x_kv, key_padding_mask=~keep)
print(f"max |4 heads - 2 heads|: {(by_four - ours).abs().max().item():.1e}")
print(f"max |4 heads - MHA(4)| : {(by_four - by_mha4).abs().max().item():.1e}")
