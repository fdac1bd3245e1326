# %% [markdown] lang="ko"
# # 실습: transformers에 나만의 마스크 넘기기
#
# [transformers에 나만의 마스크 넘기기](../custom.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Custom masks in Hugging Face
#
# This notebook runs the examples from [Custom masks in Hugging Face](../custom.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. The outputs on this page come from the run made
# when the site was built.

# %% [markdown] lang="ko"
# ## 구현에 맞는 마스크
#
# `to_hf_mask`로 만든 프리픽스 LM 마스크와 `create_causal_mask`가 만든 마스크를 두 구현에서 견줍니다.

# %% [markdown] lang="en"
# ## The right mask for each implementation
#
# A prefix-LM mask made by `to_hf_mask` against the one `create_causal_mask` builds, under both implementations.

# %%
import warnings

with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers

# %%
# snippet: custom/helper.py

# %% [markdown] lang="ko"
# ### 해 보기: 실수 keep 격자
#
# keep 격자를 `.float()`로 바꿔 `to_hf_mask`에 넘기면 어떻게 될까요? 모델에 곧바로 넘기면 오류 없이 틀렸지만, 이 함수는
# 자료형을 먼저 검사합니다. 아래 셀이 받은 오류 메시지를 출력합니다.

# %% [markdown] lang="en"
# ### Try it: a float keep grid
#
# What happens when the keep grid goes to `to_hf_mask` as `.float()`? Given straight to the model it was wrong without an
# error; this function checks the dtype first. The cell below prints the error message it gets.

# %%
try:
    to_hf_mask(keep.float(), "eager")
except ValueError as error:
    print(error)
