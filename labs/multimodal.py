# %% [markdown] lang="ko"
# # 실습: 이미지 블록이 있는 마스크
#
# [이미지 블록이 있는 마스크](../multimodal.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Multimodal block masks
#
# This notebook runs the examples from [Multimodal block masks](../multimodal.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 이미지 블록의 마스크
#
# `token_type_ids`에서 블록 번호를 매기고, 창이 없을 때와 있을 때의 마스크를 ■/⬚로 찍습니다.

# %% [markdown] lang="en"
# ## The image-block mask
#
# Block ids from `token_type_ids`, then the mask without and with a window, printed as ■/⬚.

# %%
# snippet: multimodal/mask.py

# %% [markdown] lang="ko"
# ### 해 보기: 창보다 넓은 이미지
#
# 글 토큰 둘 뒤에 이미지 토큰 `8`{ data-claim="lab: n_image" } 개가 있고, 창은 `4`{ data-claim="lab: window" }입니다. 이미지의 첫
# 토큰과 마지막 토큰은 같은 이미지의 키를 각각 몇 개 볼까요? 셀을 돌리기 전에 먼저 세어 보세요.
#
# <details markdown><summary>답</summary>
#
# 첫 토큰은 `8`{ data-claim="lab: first_sees" } 개, 곧 이미지 전체를 봅니다. 창은 아래쪽 경계뿐이라 쿼리 뒤의 키를 자르지
# 않습니다. 마지막 토큰은 창 안의 `4`{ data-claim="lab: last_sees" } 개만 봅니다. 같은 이미지 안에서도 보는 칸이 대칭이 아닙니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: an image wider than the window
#
# Two text tokens are followed by `8`{ data-claim="lab: n_image" } image tokens, and the window is
# `4`{ data-claim="lab: window" }. How many keys of its own image do the image's first and last tokens each see? Count
# before running the cell.
#
# <details markdown><summary>Answer</summary>
#
# The first token sees `8`{ data-claim="lab: first_sees" }, the whole image: the window has only a lower bound and cuts
# no key after the query. The last token sees only the `4`{ data-claim="lab: last_sees" } inside the window. Seeing is
# not symmetric inside the image.
#
# </details>

# %%
n_image, window = 8, 4
wide = torch.tensor([[0, 0] + [1] * n_image])
wide_blocks = image_blocks(wide)
keep = multimodal_mask(wide_blocks, window)[0]
in_image = wide_blocks[0] >= 0
first_sees = int(keep[2][in_image].sum())  # the image's first token
last_sees = int(keep[-1][in_image].sum())  # its last token
print(first_sees, last_sees)
