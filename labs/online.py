# %% [markdown] lang="ko"
# # 실습: 온라인 소프트맥스
#
# [온라인 소프트맥스](../online.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터 차례로
# 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Online softmax
#
# This notebook runs the examples from [Softmax in fused kernels: online softmax](../online.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you
# can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown] lang="ko"
# ## 블록마다 고치는 m과 l
#
# 점수 한 줄을 블록으로 나눠, 누적 최댓값 $m$과 누적 합 $l$을 블록마다 고칩니다. 마지막 $(m, l)$로 만든 확률은
# `torch.softmax`와 같습니다.

# %% [markdown] lang="en"
# ## m and l, updated block by block
#
# One row of scores is split into blocks, and the running max $m$ and the running sum $l$ are updated
# block by block. The probabilities made from the last $(m, l)$ equal `torch.softmax`.

# %%
# snippet: online/softmax.py

# %% [markdown] lang="ko"
# ### 해 보기: 블록 크기를 바꾸면
#
# 같은 줄 `x`를 블록 크기 $1$, $2$, $3$, $8$로 계산하면, 블록마다의 $m$과 $l$은 어떻게 달라질까요? 마지막 $(m, l)$은
# 블록 크기에 따라 달라질까요?
#
# <details markdown><summary>답</summary>
#
# 중간값은 블록 크기에 따라 다릅니다. 블록이 작을수록 $m$이 여러 번에 나눠 오르고, 그때마다 $l$이 줄었다가 다시
# 커집니다. 그러나 마지막 $m$은 언제나 줄의 최댓값이고, 마지막 $l$은 $\sum_j e^{x_j - m}$입니다. 넷째 자리까지
# 반올림하면 네 블록 크기의 마지막 $(m, l)$이 모두 같습니다(`True`{ data-claim="lab: len(set(finals.values())) == 1" }).
# 반올림만큼의 차이를 빼면 블록 크기와 상관이 없습니다. 블록이 줄 길이 이상이면 블록이 하나뿐이라 보통의 최댓값 빼기가 됩니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: changing the block size
#
# If you compute the same row `x` with block sizes $1$, $2$, $3$ and $8$, how do the per-block $m$ and $l$
# change? Does the last $(m, l)$ depend on the block size?
#
# <details markdown><summary>Answer</summary>
#
# The intermediate values depend on the block size. The smaller the blocks, the more steps $m$ rises in,
# and each time $l$ shrinks and then grows again. But the last $m$ is always the row's maximum, and the last
# $l$ is $\sum_j e^{x_j - m}$. Rounded to four places, the last $(m, l)$ is the
# same for all four block sizes (`True`{ data-claim="lab: len(set(finals.values())) == 1" }). Apart from rounding, they do not depend on the block size. When a block is
# as long as the row or longer, there is only one block, and it is ordinary max subtraction.
#
# </details>

# %%
finals = {}  # each block size's last (m, l)
for size in (1, 2, 3, 8):
    steps = [(round(m.item(), 4), round(l.item(), 4)) for m, l in online_stats(x, size)]
    finals[size] = steps[-1]
    print(f"block {size}: (m, l) per block = {steps}")

# %% [markdown] lang="ko"
# ## 출력도 같은 배율로: online_attention
#
# 정규화하지 않은 출력을 $l$과 같은 배율로 고치고, 맨 끝에 $l$로 나눕니다. 쿼리 `0`은 볼 키가 없습니다.

# %% [markdown] lang="en"
# ## The output, rescaled by the same factor: `online_attention`
#
# The unnormalized output is rescaled by the same factor as $l$ and divided by $l$ at the very end. Every key
# is masked for query `0`.

# %%
# snippet: online/attention.py

# %% [markdown] lang="ko"
# ### 해 보기: 첫 블록만 가린 쿼리
#
# `late[2, :2] = False`로 쿼리 하나가 앞의 키 둘을 못 보게 하고 블록 크기를 $2$로 하면, 첫 블록을 처리하는
# 동안 그 줄의 $m$은 $-\infty$입니다. 결과는 SDPA와 같을까요?
#
# <details markdown><summary>답</summary>
#
# 같습니다(차이 `< 1e-6`{ data-claim="lab: (mine - theirs).abs().max().item()" }). 빼는 값이 $-\infty$일 때 $0$을 빼는 보호 덕분에, 가려진 블록에서는 $l$과 출력의 누적값이 $0$으로 남고
# 진짜 키를 만나는 블록부터 정상으로 계산됩니다. 보호가 없으면 첫 블록에서 $-\infty - (-\infty)$가 `nan`을 만들고,
# 그 `nan`은 뒤의 블록에서도 지워지지 않습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a query with only its first block masked
#
# If you change `keep` so that one query cannot see the first two keys (`late[2, :2] = False`), and set the
# block size to $2$, that row's $m$ is $-\infty$ while the first block is processed. Is the result the same as SDPA's?
#
# <details markdown><summary>Answer</summary>
#
# It is (a difference of `< 1e-6`{ data-claim="lab: (mine - theirs).abs().max().item()" }). Thanks to the guard that subtracts $0$ when the value to subtract is $-\infty$, $l$ and the running
# output stay $0$ in the masked block, and the computation is normal from the block where real keys appear.
# Without the guard, $-\infty - (-\infty)$ produces `nan` in the first block, and that `nan` is not erased
# by the later blocks either.
#
# </details>

# %%
late = keep.clone()
late[2, :2] = False
mine, _ = online_attention(q, k, v, late, 2)
theirs = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=late)
print("query 2 sees keys:", late[2].nonzero().flatten().tolist())
print(f"max |online - SDPA| = {(mine - theirs).abs().max().item():.1e}")

# %% [markdown] lang="ko"
# ## 볼 키가 없는 줄
#
# 보호하지 않은 계산, 보호한 계산, `torch.softmax`, `torch._safe_softmax`, SDPA의 두 커널을 견줍니다.

# %% [markdown] lang="en"
# ## When every key is masked
#
# The unguarded computation, the guarded one, `torch.softmax`, `torch._safe_softmax` and SDPA's two kernels,
# side by side.

# %%
# snippet: online/guard.py

# %% [markdown] lang="ko"
# ### 해 보기: SDPA의 기본 선택은 어느 연산인가
#
# CPU에서 SDPA의 기본 선택이 정말 flash 커널이라면, 같은 입력을 `torch.ops.aten`의 CPU flash 연산에 직접 넘긴
# 결과와 비트까지 같아야 합니다. 두 결과를 `torch.equal`로 견주고, 그 연산이 함께 돌려주는 lse에서 볼 키가 없는
# 줄의 값도 봅니다.
#
# <details markdown><summary>답</summary>
#
# 비트까지 같습니다(`True`{ data-claim="lab: torch.equal(direct, sdpa(q, k, v, attn_mask=x))" }). 이 연산은 불리언 마스크를 받지 않으므로 `x`처럼 `q`와 같은 자료형의 가산 마스크를
# 넘깁니다. SDPA는 불리언 마스크를 받으면 먼저 가산 마스크로 바꿔 이 연산에 넘깁니다. 볼 키가 없는 첫 줄의 lse는 $-\infty$가 아니라
# `0`{ data-claim="lab: direct_lse[0, 0, 0].item()" }입니다. 커널이 끝에서 $m$을
# $0$으로, $l$을 $1$로 바꾼 뒤 $m + \log l$을 저장하기 때문입니다. 이 값이 합치기에서 문제가 되는 것을 다음 절에서
# 봅니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: which op is SDPA's default choice?
#
# If SDPA's default choice on CPU really is the flash kernel, its result must be bit-for-bit equal to
# passing the same inputs directly to the CPU flash op in `torch.ops.aten`. Compare the two results with
# `torch.equal`, and look at the lse that op returns alongside for the fully masked row.
#
# <details markdown><summary>Answer</summary>
#
# They are bit-for-bit equal (`True`{ data-claim="lab: torch.equal(direct, sdpa(q, k, v, attn_mask=x))" }). This op does not accept a boolean mask, so you pass an additive mask
# of the same dtype as `q`, like `x`. Given a boolean mask, SDPA first converts it into an additive mask and
# passes that to this op. The lse of the first row, which is fully masked, is
# `0`{ data-claim="lab: direct_lse[0, 0, 0].item()" }, not $-\infty$, because
# the kernel stores $m + \log l$ after turning $m$ into $0$ and $l$ into $1$ at the end. The next section
# shows how this value causes trouble when merging.
#
# </details>

# %%
cpu_flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
direct, direct_lse = cpu_flash(q, k, v, attn_mask=x)
print("SDPA == the CPU flash op:", torch.equal(direct, sdpa(q, k, v, attn_mask=x)))
print("its lse per row:", direct_lse.flatten().tolist())

# %% [markdown] lang="ko"
# ## lse로 합치기
#
# CPU의 flash 커널이 돌려주는 `(output, logsumexp)`로 키를 반씩 나눠 계산하고 합칩니다.

# %% [markdown] lang="en"
# ## Merging with lse
#
# With the `(output, logsumexp)` that the CPU flash kernel returns, the keys are split in half, computed
# separately and merged.

# %%
# snippet: online/merge.py

# %% [markdown] lang="ko"
# ### 해 보기: 셋으로 나누면
#
# 키 <span data-claim="lab: k.shape[-2]">여덟</span> 개를 $3, 3, 2$ 개로 나눠 계산하고, `merge`를 두 번 불러 합치면 한 번에 계산한 것과 같을까요? 합치는
# 순서를 바꾸면 어떨까요?
#
# <details markdown><summary>답</summary>
#
# 같습니다(차이 `< 1e-6`{ data-claim="lab: max((left[0] - full).abs().max().item(), (right[0] - full).abs().max().item())" }). lse로 합치는 것은 "지수의 합을 더하는 것"이라 순서와 묶는 방법에 상관이 없습니다.
# 다만 쿼리 `0`처럼 한 조각에서 볼 키가 없는 줄은 그 조각의 lse를 $-\infty$로 바로잡아야 합니다. 아래 셀은
# 조각마다 마스크에서 그런 줄을 찾아 고칩니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: splitting into three
#
# If you split the <span data-claim="lab: k.shape[-2]">eight</span> keys into pieces of $3$, $3$ and $2$, compute them separately and call `merge`
# twice to merge them, is the result the same as computing in one go? What if you change the order of
# merging?
#
# <details markdown><summary>Answer</summary>
#
# It is the same, to within
# `< 1e-6`{ data-claim="lab: max((left[0] - full).abs().max().item(), (right[0] - full).abs().max().item())" }. Merging with lse is "adding up the exponential sums", so the order and
# the grouping do not matter. But a row that sees no key in some piece, like query `0`, needs that
# piece's lse corrected to $-\infty$. The cell below finds such rows from the mask, piece by piece, and
# fixes them.
#
# </details>

# %%
pieces = []
for h in (slice(0, 3), slice(3, 6), slice(6, 8)):
    out_h, lse_h = flash(q, k[..., h, :], v[..., h, :], attn_mask=hide[:, h])
    no_key = torch.isneginf(hide[:, h]).all(-1)  # rows that see no key in this piece
    pieces.append((out_h, lse_h.masked_fill(no_key, -torch.inf)))
left = merge(*merge(*pieces[0], *pieces[1]), *pieces[2])
right = merge(*pieces[0], *merge(*pieces[1], *pieces[2]))
print(f"((1, 2), 3): max gap {(left[0] - full).abs().max().item():.1e}")
print(f"(1, (2, 3)): max gap {(right[0] - full).abs().max().item():.1e}")

# %% [markdown] lang="ko"
# ## 그림: 블록마다의 m과 l

# %% [markdown] lang="en"
# ## Figure: m and l block by block

# %%
# snippet: online/figure.py

# %% [markdown] lang="ko"
# 가로축은 키의 번호 $j$입니다. 위 그림의 회색 점은 점수 $x_j$, 파란 가로선은 그 블록까지의 누적 최댓값 $m_t$입니다.
# 아래 그림은 $m_t$를 기준으로 한 누적 합 $l_t$입니다. 블록의 마지막 키 위치에 찍었으니, 그 가로 위치가 지금까지
# 본 키의 수입니다. $m$이 오른 블록에서 $l$은 $e^{m_{\text{old}} - m_{\text{new}}}$ 배로 줄어든 뒤 새 항이
# 더해집니다.

# %% [markdown] lang="en"
# The horizontal axis is the index $j$ of the key. In the upper plot, the gray dots are the scores $x_j$ and the
# blue horizontal lines the running max $m_t$ up to each block. The lower plot is the running sum $l_t$, relative
# to $m_t$, drawn at each block's last key, so its horizontal position is the number of keys seen so far. In a block
# where $m$ rises, $l$ shrinks by a factor of $e^{m_{\text{old}} - m_{\text{new}}}$, and then the new terms are
# added.
