# %% [markdown] lang="ko"
# # 실습: 인과성 탐침
#
# [인과성 탐침: 모델이 미래를 보는지 재기](../probe.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: A causality probe
#
# This notebook runs the examples from [A causality probe anyone can run on their model](../probe.md) unchanged, ready
# for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you
# can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown] lang="ko"
# ## 탐침 함수
#
# `first_leak`은 토큰을 하나씩 바꿔 보고, 처음으로 미래를 본 출력 위치와 그것을 움직인 토큰 위치를 돌려줍니다.
# `nn.MultiheadAttention` 한 층에 인과 마스크를 줄 때와 빼먹을 때 돌립니다.

# %% [markdown] lang="en"
# ## The probe function
#
# `first_leak` replaces tokens one at a time and returns the first output position that saw the future, with the
# token position that moved it. It runs on one `nn.MultiheadAttention` layer with and without a causal mask.

# %%
# snippet: probe/probe.py

# %% [markdown] lang="ko"
# ### 해 보기: 새는 칸 하나
#
# 인과 마스크에서 한 칸만 풀어, 쿼리 `2`{ data-claim="lab: query" }가 키 `4`{ data-claim="lab: key" }를 보게 합니다.
# `first_leak`은 무엇을 돌려줄까요? 마지막 토큰만 바꾸는 값싼 검사(`last_only=True`)는요? 돌리기 전에 먼저 생각해 보세요.
#
# <details markdown><summary>답</summary>
#
# `first_leak`은 `(2, 4)`{ data-claim="lab: leak" }를 돌려줍니다. 이 층에서 미래를 보는 칸은 그것 하나뿐입니다. 값싼 검사는
# 마지막 토큰을 보는 출력만 찾으므로 아무것도 찾지 못합니다(`True`{ data-claim="lab: cheap is None" }). 값싼 검사가 조용하다고
# 모델이 인과적인 것은 아닙니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: one leaking cell
#
# Unmask a single cell of the causal mask so that query `2`{ data-claim="lab: query" } sees key
# `4`{ data-claim="lab: key" }. What does `first_leak` return? And the cheap check that replaces only the last token
# (`last_only=True`)? Think it through before running the cell.
#
# <details markdown><summary>Answer</summary>
#
# `first_leak` returns `(2, 4)`{ data-claim="lab: leak" }, the only cell of this layer that sees the future. The cheap
# check only finds outputs that see the last token, so it finds nothing
# (`True`{ data-claim="lab: cheap is None" }). A quiet cheap check does not make a model causal.
#
# </details>

# %%
query, key = 2, 4
one_cell = hide.clone()
one_cell[query, key] = False  # False: not hidden, so query 2 sees key 4
layer = lambda x: mha(*[emb(x)] * 3, attn_mask=one_cell)[0]  # noqa: E731
leak, cheap = first_leak(layer, ids), first_leak(layer, ids, last_only=True)
print(leak, cheap)

# %% [markdown] lang="ko"
# ## 의존 격자
#
# 바꾼 토큰(줄)마다 움직인 출력(열)을 모두 그립니다.

# %% [markdown] lang="en"
# ## The dependency grid
#
# For each replaced token (a row), every output (a column) that moved.

# %%
# snippet: probe/grid.py

# %% [markdown] lang="ko"
# ## 마스크 함수 없이 등록한 어텐션
#
# 어텐션 함수만 등록한 작은 Llama, 그리고 `sdpa_mask`와 `eager_mask`를 함께 등록한 경우입니다. transformers는 Jupyter에서
# 경고 하나를 내므로 먼저 그것을 걸러 불러옵니다.

# %% [markdown] lang="en"
# ## An attention function registered without a mask function
#
# A tiny Llama with only its attention function registered, then with `sdpa_mask` and with `eager_mask` registered
# too. transformers gives one warning under Jupyter, so it is imported first with that warning filtered.

# %%
import warnings

with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers

# %%
# snippet: probe/custom.py

# %% [markdown] lang="ko"
# ### 해 보기: 드롭아웃이 켜진 모델
#
# 드롭아웃이 있는 작은 `GPT2LMHeadModel`을 `.eval()` 없이 탐침에 넘기면 어떻게 될까요? `.eval()`을 부른 뒤에는요?
#
# <details markdown><summary>답</summary>
#
# 학습 모드에서는 같은 입력으로 두 번 불러도 출력이 달라서, 탐침이 `ValueError`로 거절합니다
# (`True`{ data-claim="lab: refused" }). 이것을 누설로 알렸다면 틀린 경보였을 것입니다. `.eval()`을 부르면 아무것도 새지
# 않습니다(`True`{ data-claim="lab: in_eval is None" }).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a model with dropout on
#
# What happens when a tiny `GPT2LMHeadModel` with dropout goes to the probe without `.eval()`? And after `.eval()`?
#
# <details markdown><summary>Answer</summary>
#
# In training mode two calls on the same input give different outputs, so the probe refuses with a `ValueError`
# (`True`{ data-claim="lab: refused" }). Reporting that as a leak would have been a false alarm. After `.eval()` nothing
# leaks (`True`{ data-claim="lab: in_eval is None" }).
#
# </details>

# %%
gpt2 = transformers.GPT2LMHeadModel(transformers.GPT2Config(
    vocab_size=32, n_embd=16, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=0))
try:  # a fresh model is in training mode: dropout on
    first_leak(lambda x: gpt2(x).logits, ids)
    refused = False
except ValueError as error:
    print(error)
    refused = True
in_eval = first_leak(lambda x: gpt2.eval()(x).logits, ids)
print(refused, in_eval)

# %% [markdown] lang="ko"
# ## 뒤집힌 마스크
#
# 작은 Llama에 극성이 맞거나 뒤집힌 $4$차원 마스크를 `sdpa`와 `eager`로 넘깁니다.

# %% [markdown] lang="en"
# ## Inverted masks
#
# A tiny Llama given four-dimensional masks of the right and the wrong polarity, under `sdpa` and `eager`.

# %%
# snippet: probe/inverted.py

# %% [markdown] lang="ko"
# ### 해 보기: 대각선을 잘못 잡은 마스크
#
# 가릴 칸을 `triu(1)` 대신 `triu(2)`로 잘못 만들면, 쿼리마다 바로 다음 키 하나를 더 봅니다. 위의 `nn.MultiheadAttention`
# 층에 이 마스크를 주면 처음 새는 곳은 어디일까요? 값싼 검사는 어디를 알려 줄까요?
#
# <details markdown><summary>답</summary>
#
# 처음 새는 곳은 `(0, 1)`{ data-claim="lab: off_by_one" }입니다. 첫 출력이 바로 다음 토큰을 봅니다. 마지막 토큰만 바꾸는
# 값싼 검사는 그 바로 앞의 출력에서 `(4, 5)`{ data-claim="lab: off_by_one_cheap" }를 찾습니다. 둘 다 새는 것은 찾았지만,
# 어디서 처음 새는지는 모든 위치를 바꿔 봐야 압니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a mask off by one diagonal
#
# Build the hidden cells with `triu(2)` instead of `triu(1)`, and each query also sees the key right after it. Given
# this mask, where does the `nn.MultiheadAttention` layer above first leak? What does the cheap check report?
#
# <details markdown><summary>Answer</summary>
#
# The first leak is at `(0, 1)`{ data-claim="lab: off_by_one" }: the first output sees the next token. The cheap check,
# replacing only the last token, finds the output just before it, `(4, 5)`{ data-claim="lab: off_by_one_cheap" }. Both
# find the leak, but only replacing every position tells where it starts.
#
# </details>

# %%
tokens = torch.randint(1, 16, (1, 6))  # six tokens for the layer's 16-token embedding
shifted = torch.ones(6, 6).triu(2).bool()  # meant: triu(1)
layer = lambda x: mha(*[emb(x)] * 3, attn_mask=shifted)[0]  # noqa: E731
off_by_one = first_leak(layer, tokens)
off_by_one_cheap = first_leak(layer, tokens, last_only=True)
print(off_by_one, off_by_one_cheap)
