# %% [markdown] lang="ko"
# # 실습: FlexAttention으로 보는 마스크 모음
#
# [FlexAttention으로 보는 마스크 모음](../flex.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다. CPU에서는 FlexAttention이 eager 모드로 돌고,
# 처음 부를 때 경고를 한 번 냅니다. 예제들은 그 경고만 메시지로 걸러 냅니다.

# %% [markdown] lang="en"
# # Lab: A collection of masks with FlexAttention
#
# This notebook runs the examples from [A collection of masks with FlexAttention](../flex.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you
# can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built. On a CPU, FlexAttention runs in eager mode and warns once, the first time it is called. The examples filter
# out only that warning, by its message.

# %% [markdown] lang="ko"
# ## 마스크 조각과 조합
#
# `causal`, `window`, `first`, `chunk` 네 조각을 `and_masks`, `or_masks`로 묶어 <span data-claim="flex/zoo.py: len(zoo)">다섯</span> 마스크를 만들고, 각각을
# FlexAttention과 SDPA로 계산해 차이를 `gap`에 모읍니다.

# %% [markdown] lang="en"
# ## Mask pieces and how they combine
#
# The four pieces `causal`, `window`, `first` and `chunk` are combined with `and_masks` and `or_masks` into <span data-claim="flex/zoo.py: len(zoo)">five</span>
# masks; each is computed with FlexAttention and with SDPA, and the differences are collected in `gap`.

# %%
# snippet: flex/zoo.py

# %%
for name, m in keep.items():
    print(f"{name:>15}: keys per row {m[0, 0].sum(-1).tolist()},",
          f"max |flex - SDPA| < 1e-6: {gap[name] < 1e-6}")

# %% [markdown] lang="ko"
# ### 해 보기: 양방향 슬라이딩 윈도
#
# 인코더처럼 앞뒤를 모두 보는 슬라이딩 윈도를 만들어 보세요. 쿼리 $i$가 키 $i - 2, \dots, i + 2$를 봅니다.
# `causal`을 쓰지 않고 조각 하나로 쓸 수 있을까요? 가운데 줄은 키를 몇 개 볼까요?
#
# <details markdown><summary>답</summary>
#
# `lambda b, h, q, kv: (q - kv).abs() <= 2` 하나면 됩니다. 가운데 줄은 자기와 양쪽 둘씩, 키 <span data-claim="lab: int(dense_both.sum(-1).max())">다섯</span> 개를 봅니다.
# 양 끝의 줄은 한쪽이 잘려 <span data-claim="lab: int(dense_both.sum(-1)[0])">셋</span>입니다. 파이썬의 `abs(q - kv)`도 텐서에서 돌아가지만 `if`는 쓸 수 없습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a two-sided sliding window
#
# Build a sliding window that sees both before and after, as an encoder does: query $i$ sees keys
# $i - 2, \dots, i + 2$. Can you write it as a single piece, without `causal`? How many keys does a row in the
# middle see?
#
# <details markdown><summary>Answer</summary>
#
# `lambda b, h, q, kv: (q - kv).abs() <= 2` alone does it. A row in the middle sees itself and two keys on each
# side, <span data-claim="lab: int(dense_both.sum(-1).max())">five</span> keys. The rows at the ends are cut off on one side and see <span data-claim="lab: int(dense_both.sum(-1)[0])">three</span>. Python's `abs(q - kv)` works on
# tensors too, but `if` cannot be used.
#
# </details>

# %%
both = lambda b, h, q, kv: (q - kv).abs() <= 2  # noqa: E731
dense_both = create_mask(both, 1, 1, 8, 8, device="cpu")[0, 0]
print(dense_both.sum(-1).tolist())
with warnings.catch_warnings():  # eager flex_attention on CPU warns: see the chapter
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    block = create_block_mask(both, 1, 1, 8, 8, device="cpu")
    out = flex_attention(q, k, v, block_mask=block)
gap_both = (out - sdpa(q, k, v, attn_mask=dense_both)).abs().max().item()
print("max |flex - SDPA|:", gap_both)

# %% [markdown] lang="ko"
# ## 슬라이딩 윈도의 네 규약
#
# 같은 `W`를 transformers, FlashAttention, attention-gym, Keras의 규칙에 넘겼을 때 줄마다 보는 키의 수입니다.

# %% [markdown] lang="en"
# ## Four sliding-window conventions
#
# The number of keys each row sees when the same `W` is passed to the rules of transformers, FlashAttention,
# attention-gym and Keras.

# %%
# snippet: flex/window.py

# %% [markdown] lang="ko"
# ### 해 보기: Mistral의 창
#
# Mistral의 설정은 `sliding_window=4096`입니다. transformers와 같은 창을 FlashAttention의 `window_size`로 쓰려면
# 무엇을 넘겨야 할까요? attention-gym의 `generate_sliding_window`에는 무엇을 넘겨야 할까요?
#
# <details markdown><summary>답</summary>
#
# transformers는 자기를 포함해 키 $4096$개를 보므로, 양 끝을 포함하는 FlashAttention에는 `window_size=(4095, 0)`을,
# attention-gym에는 `generate_sliding_window(4095)`처럼 넘깁니다. 아래 셀은 작은 `W`로 같은 것을 확인합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: Mistral's window
#
# Mistral's config has `sliding_window=4096`. What do you pass as FlashAttention's `window_size` to get the same
# window as transformers? And what do you pass to attention-gym's `generate_sliding_window`?
#
# <details markdown><summary>Answer</summary>
#
# transformers sees $4096$ keys, itself included, so pass `window_size=(4095, 0)` to FlashAttention, which includes
# both ends, and `generate_sliding_window(4095)` to attention-gym. The cell below checks the same thing with small values of `W`.
#
# </details>

# %%
for W in (2, 5):
    hf = and_masks(causal, lambda b, h, q, kv, W=W: kv > q - W)
    fa = lambda b, h, q, kv, W=W: (q - (W - 1) <= kv) & (kv <= q)  # noqa: E731
    same = torch.equal(create_mask(hf, 1, 1, 12, 12, device="cpu"),
                       create_mask(fa, 1, 1, 12, 12, device="cpu"))
    print(W, same)

# %% [markdown] lang="ko"
# ## 문서 마스크와 packing
#
# <span data-claim="flex/packing.py: len(lengths)">두</span> 글을 한 줄로 이어 붙여, 인과 마스크만 쓸 때, 문서 마스크를 쓸 때, 문서 마스크와 다시 센 위치를 함께 쓸 때를
# 혼자 돌린 것과 견줍니다.

# %% [markdown] lang="en"
# ## Document masks and packing
#
# <span data-claim="flex/packing.py: len(lengths)">Two</span> documents are packed into one row and compared with running each alone: with only the causal mask, with a
# document mask, and with a document mask together with positions that restart in each document.

# %%
# snippet: flex/packing.py

# %% [markdown] lang="ko"
# ### 해 보기: 글이 셋이면
#
# 길이 $2, 3, 3$인 글 셋을 이어 붙이면 `reset`은 어떻게 써야 할까요? 셋째 글도 혼자 돌린 것과 같아질까요?
#
# <details markdown><summary>답</summary>
#
# `reset`은 글마다 $0$부터 다시 셉니다: `[0, 1, 0, 1, 2, 0, 1, 2]`{ data-claim="lab: reset3.tolist()" }. 문서 마스크와 함께 쓰면 세 글 모두 반올림 범위에서
# 혼자 돌린 것과 같습니다(차이 `< 1e-6`{ data-claim="lab: gap3" }). `torch.cat([torch.arange(n) for n in lengths])`로 만들면 손으로 쓰지 않아도 됩니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: three documents
#
# If you pack three documents of lengths $2, 3, 3$, how should `reset` be written? Does the third document also
# match running it alone?
#
# <details markdown><summary>Answer</summary>
#
# `reset` counts again from $0$ for each document: `[0, 1, 0, 1, 2, 0, 1, 2]`{ data-claim="lab: reset3.tolist()" }. Together with the document mask, all
# three documents match running alone, within rounding (they differ by `< 1e-6`{ data-claim="lab: gap3" }). Build it with
# `torch.cat([torch.arange(n) for n in lengths])` and you need not write it out by hand.
#
# </details>

# %%
three = [2, 3, 3]
reset3 = torch.cat([torch.arange(n) for n in three])
docs3 = and_masks(causal, document(three, 8))
with warnings.catch_warnings():  # eager flex_attention on CPU warns: see the chapter
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    starts = (0, 2, 5)
    alone3 = torch.cat([layer(x[a:a + n], table[:n], w, causal)
                        for a, n in zip(starts, three)])
    packed3 = layer(x, table[reset3], w, docs3)
gap3 = (packed3 - alone3).abs().max().item()
print(reset3.tolist(), "max |packed - alone|:", gap3)

# %% [markdown] lang="ko"
# ## 비용
#
# 밀집 불리언 마스크와 `BlockMask`의 바이트 수, 그리고 패턴마다 건너뛰는 블록의 비율을 블록 단위로 셉니다.

# %% [markdown] lang="en"
# ## Cost
#
# The byte counts of a dense boolean mask and of a `BlockMask`, and the fraction of blocks each pattern skips,
# counted block by block.

# %%
# snippet: flex/cost.py

# %% [markdown] lang="ko"
# ### 해 보기: 창을 넓히면
#
# 토큰 `131072`{ data-claim="lab: L" } 개에서 슬라이딩 윈도를 키 `1024`{ data-claim="lab: widths[0]" } 개에서 `4096`{ data-claim="lab: widths[1]" } 개로 넓히면 건너뛰는 블록의 비율은 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# 쿼리 블록마다 살아남는 키 블록은 대략 창의 폭을 블록 크기로 나눈 만큼에 대각선의 블록 하나를 더한 수이므로, 창을
# <span data-claim="lab: widths[1] // widths[0]">네 배</span>로 넓히면 계산하는 블록은 네 배가 조금 못 되는 `3.62`{ data-claim="lab: computed[widths[1]] / computed[widths[0]]" }배가 됩니다. 건너뛰는 비율은
# `0.9912`{ data-claim="lab: 1 - computed[widths[0]]" }에서 `0.9683`{ data-claim="lab: 1 - computed[widths[1]]" }으로 줄지만 여전히 대부분의 블록을 건너뜁니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a wider window
#
# At `131072`{ data-claim="lab: L" } tokens, what happens to the fraction of blocks skipped if the sliding window is
# widened from `1024`{ data-claim="lab: widths[0]" } keys to `4096`{ data-claim="lab: widths[1]" }?
#
# <details markdown><summary>Answer</summary>
#
# For each query block, the key blocks that survive number roughly the window width divided by the block size, plus
# the block on the diagonal, so a window <span data-claim="lab: widths[1] // widths[0]">four times</span> as wide means a little under four times as many blocks
# computed: `3.62`{ data-claim="lab: computed[widths[1]] / computed[widths[0]]" } times. The fraction skipped drops from `0.9912`{ data-claim="lab: 1 - computed[widths[0]]" } to
# `0.9683`{ data-claim="lab: 1 - computed[widths[1]]" }, but most blocks are still skipped.
#
# </details>

# %%
L, widths = 131072, (1024, 4096)
q_rows = torch.arange(L)
computed = {}  # the fraction of blocks computed, by window width
for W in widths:
    partial, full = block_map(q_rows - (W - 1), q_rows)
    computed[W] = (partial | full).sum().item() / (L // 128) ** 2
    print(W, "skipped:", 1 - computed[W])
