# %% [markdown] lang="ko"
# # 실습: 인코더-디코더의 마스크
#
# [인코더-디코더의 마스크](../encdec.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Masks in encoder–decoder models
#
# This notebook runs the examples from [Masks in encoder–decoder models](../encdec.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 세 마스크
#
# 소스 길이 `[4, 2]`{ data-claim="encdec/masks.py: src_lengths" }, 타깃 길이 `[3, 2]`{ data-claim="encdec/masks.py: tgt_lengths" }인
# 배치의 세 마스크입니다(■가 보는 칸).

# %% [markdown] lang="en"
# ## The three masks
#
# The three masks of a batch with source lengths `[4, 2]`{ data-claim="encdec/masks.py: src_lengths" } and target
# lengths `[3, 2]`{ data-claim="encdec/masks.py: tgt_lengths" } (■ a cell seen).

# %%
# snippet: encdec/masks.py

# %% [markdown] lang="ko"
# ### 해 보기: 세 쌍의 배치
#
# 소스 길이가 `[5, 3, 1]`{ data-claim="lab: sources" }, 타깃 길이가 `[2, 4, 3]`{ data-claim="lab: targets" }인 배치입니다. 크로스
# 마스크의 모양은 무엇이고, 셋째 쌍의 크로스 마스크에서 보는 칸은 몇 개일까요? 둘째 쌍의 디코더 마스크에서는요? 셀을
# 돌리기 전에 먼저 세어 보세요.
#
# <details markdown><summary>답</summary>
#
# 크로스 마스크의 모양은 (배치, 가장 긴 타깃, 가장 긴 소스), 곧 `(3, 4, 5)`{ data-claim="lab: cross_shape" }입니다. 셋째
# 쌍은 소스의 진짜 토큰이 하나뿐이라 타깃의 줄마다 한 칸씩, 모두 `4`{ data-claim="lab: cross_cells" } 칸을 봅니다. 타깃의
# `[PAD]` 줄도 가리지 않기 때문입니다. 둘째 쌍의 디코더 마스크는 패딩이 없는 인과 마스크라
# `10`{ data-claim="lab: decoder_cells" } 칸입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a batch of three pairs
#
# A batch with source lengths `[5, 3, 1]`{ data-claim="lab: sources" } and target lengths `[2, 4, 3]`{ data-claim="lab: targets" }.
# What is the shape of the cross mask, and how many cells does the third pair's cross mask keep? The second pair's
# decoder mask? Count them before running the cell.
#
# <details markdown><summary>Answer</summary>
#
# The cross mask has the shape (batch, longest target, longest source), that is
# `(3, 4, 5)`{ data-claim="lab: cross_shape" }. The third pair has one real source token, so each target row keeps one
# cell: `4`{ data-claim="lab: cross_cells" } cells in all, since the target's `[PAD]` rows are not masked either. The
# second pair's decoder mask is a causal mask with no padding: `10`{ data-claim="lab: decoder_cells" } cells.
#
# </details>

# %%
sources, targets = [5, 3, 1], [2, 4, 3]
batch = encdec_masks(sources, targets)
cross_shape = tuple(batch["cross"].shape)
cross_cells = int(batch["cross"][2].sum())
decoder_cells = int(batch["decoder"][1].sum())
print(cross_shape, cross_cells, decoder_cells)

# %% [markdown] lang="ko"
# ## `nn.Transformer`에 넘기기
#
# 무작위 가중치의 작은 `nn.Transformer`에서, 빠른 경로와 느린 경로로 세 탐침을 돌립니다.

# %% [markdown] lang="en"
# ## Passing them to `nn.Transformer`
#
# The three probes on a tiny `nn.Transformer` with random weights, on the fast and the slow path.

# %%
# snippet: encdec/transformer.py

# %% [markdown] lang="ko"
# ### 해 보기: 어느 인자에, 어느 극성으로
#
# `encdec_masks`가 돌려주는 크로스 마스크는 `True`가 보는 칸입니다. 이 마스크의 한 줄 `keep`을 `nn.Transformer`의 어느
# 인자에, 어떻게 넘겨야 할까요? 뒤집지 않고 그대로 넘기면 둘째 쌍의 출력은 따로 돌린 것과 얼마나 다를까요?
#
# <details markdown><summary>답</summary>
#
# `memory_key_padding_mask`에 `~keep`으로 넘깁니다. `nn.Transformer`는 `True`가 가림이기 때문입니다. 그러면 차이가
# `< 1e-6`{ data-claim="lab: right" }입니다. 그대로 넘기면 둘째 쌍의 타깃은 소스의 `[PAD]`만 보게 되어 차이가
# `> 0.1`{ data-claim="lab: wrong" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: which argument, which polarity
#
# The cross mask `encdec_masks` returns has `True` for a cell that is seen. Which argument of `nn.Transformer` takes
# one row of it, `keep`, and how? Passed as it is, not inverted, how far is the second pair's output from the pair run
# alone?
#
# <details markdown><summary>Answer</summary>
#
# `memory_key_padding_mask`, as `~keep`, since `True` means masked in `nn.Transformer`. Then the gap is
# `< 1e-6`{ data-claim="lab: right" }. Passed as it is, the second pair's target sees only the source's `[PAD]`, and
# the gap is `> 0.1`{ data-claim="lab: wrong" }.
#
# </details>

# %%
keep = encdec_masks([4, 2], [3, 2])["cross"][:, 0, :]  # (2, S): a row per pair
kw = dict(tgt=tgt, src_pad=src_pad, tgt_pad=tgt_pad)
right = (forward(model, src, memory_pad=~keep, **kw)[1, :2] - alone).abs().max()
wrong = (forward(model, src, memory_pad=keep, **kw)[1, :2] - alone).abs().max()
print(right.item() < 1e-6, wrong.item() > 0.1)

# %% [markdown] lang="ko"
# ### 해 보기: 무엇이 움직이나
#
# 느린 경로에서 `memory_key_padding_mask`를 빠뜨립니다. 두 쌍 가운데 어느 쌍의 출력이 달라질까요?
#
# <details markdown><summary>답</summary>
#
# 둘째 쌍만 달라집니다(`[1]`{ data-claim="lab: moved_pairs" }). 첫째 쌍의 소스에는 `[PAD]`가 없으니 크로스 어텐션이
# 가릴 것도 없습니다. 둘째 쌍은 `[PAD]` 타깃 위치를 포함한 모든 줄이 `[PAD]` 소스를 읽어 달라집니다. 그래서 이 실수는
# 소스가 가장 긴 문장에서는 드러나지 않고, 짧은 문장에서만 드러납니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: what moves
#
# On the slow path, leave out `memory_key_padding_mask`. Which of the two pairs changes its output?
#
# <details markdown><summary>Answer</summary>
#
# Only the second pair (`[1]`{ data-claim="lab: moved_pairs" }). The first pair's source has no `[PAD]`, so
# cross-attention has nothing to hide there. In the second pair every row, the `[PAD]` target position's included,
# reads the `[PAD]` of the source and changes. So this mistake never shows on the pair with the longest source, only
# on shorter ones.
#
# </details>

# %%
kw = dict(tgt=tgt, src_pad=src_pad, tgt_pad=tgt_pad, fast=False)
with_mask = forward(model, src, memory_pad=src_pad, **kw)
without = forward(model, src, memory_pad=None, **kw)
moved_pairs = [b for b in range(2) if (without[b] - with_mask[b]).abs().max() > 1e-6]
print(moved_pairs)
