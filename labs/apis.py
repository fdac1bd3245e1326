# %% [markdown] lang="ko"
# # 실습: 한 마스크, 여러 라이브러리
#
# [한 마스크, 여러 라이브러리](../apis.md) 장의 변환 함수와 탐침을 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다. 이 노트북은 PyTorch만 씁니다.

# %% [markdown] lang="en"
# # Lab: One mask, many libraries
#
# This notebook runs the conversion functions and the probe from [One mask, many libraries](../apis.md) unchanged,
# ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a
# cell you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the
# site was built. This notebook uses PyTorch only.

# %% [markdown] lang="ko"
# ## 규약 사이를 오가기
#
# `to_keep`은 여섯 규약 가운데 하나로 적힌 마스크를 불리언 keep(`True` = 참여)으로 바꾸고, `from_keep`은 그
# 반대입니다. 규약 $a$에서 $b$로는 `from_keep(to_keep(m, a), b)`입니다.

# %% [markdown] lang="en"
# ## Converting between conventions
#
# `to_keep` turns a mask written in one of the six conventions into a boolean keep (`True` = attend), and
# `from_keep` does the reverse. From convention $a$ to $b$ is `from_keep(to_keep(m, a), b)`.

# %%
# snippet: apis/convert.py

# %% [markdown] lang="ko"
# ### 해 보기: MHA의 마스크를 SDPA로
#
# `nn.MultiheadAttention`에 넘기던 `key_padding_mask`(`True` = 가림)가 있습니다. 같은 가림을
# `F.scaled_dot_product_attention`에 불리언으로 넘기려면, 그리고 가산 마스크로 넘기려면 어떻게 바꿀까요?
#
# <details markdown><summary>답</summary>
#
# MHA의 마스크는 hide 규약입니다. SDPA의 불리언 마스크는 keep 규약이므로 `from_keep(to_keep(m, "hide"), "keep")`,
# 곧 `~m`입니다. 가산 마스크로는 `from_keep(to_keep(m, "hide"), "additive")`이고, 가린 칸이 `-inf`, 나머지가
# `0`인 float 마스크가 됩니다(`[[0, 0, -inf]]`{ data-claim="lab: additive" }). 아래 셀이 두 결과를 찍습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: an MHA mask for SDPA
#
# You have a `key_padding_mask` (`True` = masked) that you used to pass to `nn.MultiheadAttention`. How do
# you convert it to pass the same masking to `F.scaled_dot_product_attention` as a boolean mask, and as an
# additive mask?
#
# <details markdown><summary>Answer</summary>
#
# The MHA mask follows the hide convention. SDPA's boolean mask follows the keep convention, so it is
# `from_keep(to_keep(m, "hide"), "keep")`, that is, `~m`. As an additive mask it is
# `from_keep(to_keep(m, "hide"), "additive")`, a float mask with `-inf` in the masked cells and `0`
# elsewhere (`[[0, 0, -inf]]`{ data-claim="lab: additive" }). The cell below prints both results.
#
# </details>

# %%
hide = torch.tensor([[False, False, True]])  # key_padding_mask: the last key is [PAD]
additive = from_keep(to_keep(hide, "hide"), "additive")
print(from_keep(to_keep(hide, "hide"), "keep"))
print(additive)

# %% [markdown] lang="ko"
# ### 해 보기: 합친 `finfo.min` 마스크
#
# `float16`에서 인과 마스크와 패딩 마스크를 둘 다 `finfo.min` 가산 마스크로 만들어 더했습니다. 더한 마스크를
# `to_keep(..., "finfo_min")`에 넘기면 어떻게 될까요? 두 마스크를 어떻게 합쳐야 안전할까요?
#
# <details markdown><summary>답</summary>
#
# 두 마스크가 모두 가린 칸은 `finfo.min`을 두 번 더해 넘치므로 `-inf`{ data-claim="lab: summed.min().item()" }가 됩니다. 그 값은 `finfo_min` 규약에 없으니
# `to_keep`이 `ValueError`로 알립니다. 안전한 방법은 불리언 keep 마스크끼리 논리곱(`&`)으로 먼저 합치고, 마지막에
# 한 번만 `from_keep(..., "finfo_min", torch.float16)`으로 바꾸는 것입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: combined `finfo.min` masks
#
# In `float16`, a causal mask and a padding mask were both built as `finfo.min` additive masks and added.
# What happens when the sum is passed to `to_keep(..., "finfo_min")`? How should the two masks be combined
# safely?
#
# <details markdown><summary>Answer</summary>
#
# A cell masked by both masks gets `finfo.min` added twice, overflows and becomes `-inf`{ data-claim="lab: summed.min().item()" }. That value is not
# in the `finfo_min` convention, so `to_keep` reports a `ValueError`. The safe way is to combine the
# boolean keep masks first with a logical AND (`&`) and convert only once, at the end, with
# `from_keep(..., "finfo_min", torch.float16)`.
#
# </details>

# %%
causal = torch.ones(3, 3, dtype=torch.bool).tril()
padding = torch.tensor([True, True, False]).expand(3, 3)
summed = (from_keep(causal, "finfo_min", torch.float16)
          + from_keep(padding, "finfo_min", torch.float16))
try:
    to_keep(summed, "finfo_min")
except ValueError as error:
    print("ValueError:", error)
print(from_keep(causal & padding, "finfo_min", torch.float16))

# %% [markdown] lang="ko"
# ## 모두 가려진 줄, 경로마다
#
# 같은 탐침을 PyTorch의 여러 경로에 넘겨, 모두 가려진 줄이 무엇이 되는지와 기울기의 `nan` 개수를 봅니다.
# 출력은 경로와 마스크 형태마다 한 줄이고, `float32`, `float16`, `bfloat16` 차례로 "모두 가려진 줄이 된 것 ·
# 기울기의 `nan` 개수"를 적습니다. <span data-claim="apis/fully_masked.py: len(S[-1])">네</span> 칸이 모두 $\tfrac{1}{4}$인 균등 분포는 `1/4`{ data-claim="apis/fully_masked.py: 1 / len(S[-1])" }, 마스크가 없었던 것처럼 점수를
# 그대로 소프트맥스한 줄은 `softmax(S[-1])`입니다.

# %% [markdown] lang="en"
# ## Fully masked rows, path by path
#
# The same probe goes to several PyTorch paths, to see what the fully masked row becomes and how many
# `nan`s the gradients get. The output has one line per path and mask form, giving for `float32`,
# `float16` and `bfloat16` in turn "what the fully masked row became · the number of `nan`s in the
# gradients". `1/4`{ data-claim="apis/fully_masked.py: 1 / len(S[-1])" } is the uniform distribution, all <span data-claim="apis/fully_masked.py: len(S[-1])">four</span> cells $\tfrac{1}{4}$; `softmax(S[-1])` is the
# softmax of the unmasked scores, as if there had been no mask.

# %%
# snippet: apis/fully_masked.py

# %% [markdown] lang="ko"
# ### 해 보기: 균등과 `nan` 사이
#
# MHA의 `need_weights=True` 경로에서 `nan`을 피하려고 `-inf` 대신 `finfo.min`으로 채웠습니다. `nan`은 사라지지만
# 그 줄의 출력은 무엇이 될까요? 그 줄을 손실에서 빼지 않으면 어떤 일이 생길까요?
#
# <details markdown><summary>답</summary>
#
# 그 줄은 모든 키를 똑같이 보는 균등 분포가 되어(위 출력의 `MHA need_weights=True · finfo.min` 줄, `float32`에서
# `'1/4 · 0'`{ data-claim="apis/fully_masked.py: cells[3 * labels.index('MHA need_weights=True · finfo.min')]" }),
# `[PAD]`를 포함한 모든 값의 평균을 출력합니다. 기울기도 유한하므로 손실에서 빼지 않으면 뜻 없는 줄이
# 조용히 학습에 섞입니다. `nan`은 사라졌지만 문제가 숨은 것입니다. 그런 줄은 출력과 손실에서 직접 빼야 합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: between uniform and `nan`
#
# To avoid `nan` on MHA's `need_weights=True` path, you filled with `finfo.min` instead of `-inf`. The
# `nan` goes away, but what does that row's output become? What happens if the row is not left out of the
# loss?
#
# <details markdown><summary>Answer</summary>
#
# The row becomes the uniform distribution, looking at every key equally (the line
# `MHA need_weights=True · finfo.min` in the output above, `'1/4 · 0'`{ data-claim="apis/fully_masked.py: cells[3 * labels.index('MHA need_weights=True · finfo.min')]" } in `float32`), and outputs the average of all the values,
# `[PAD]` included. Its gradients are finite too, so unless it is left out of the loss, a meaningless row
# quietly joins the training. The `nan` is gone, but the problem is only hidden. Such rows have to be left
# out of the output and the loss explicitly.
#
# </details>
