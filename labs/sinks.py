# %% [markdown] lang="ko"
# # 실습: 싱크, 소프트맥스 플러스 원, 게이트, 소프트 캡
#
# [싱크, 소프트맥스 플러스 원, 게이트, 소프트 캡](../sinks.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는
# 노트북입니다. 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에
# 있습니다. 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Sinks, softmax plus one, gates and soft caps
#
# This notebook runs the examples from [Sinks, softmax plus one, gates and soft caps](../sinks.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 분모에 더하는 로짓
#
# `attention_with_sink`는 점수 끝에 싱크를 열 하나로 붙여 소프트맥스를 하고 그 열을 버립니다. 가중치의 합, 볼 키가
# 없는 줄, LSE 합치기와의 차이를 봅니다.

# %% [markdown] lang="en"
# ## A logit in the denominator
#
# `attention_with_sink` appends the sink to the scores as one more column, takes the softmax and drops the column. The
# cell checks the sums of the weights, the row with no key, and the gap from the LSE merge.

# %%
# snippet: sinks/sink.py

# %% [markdown] lang="ko"
# ### 해 보기: 점수가 모두 싱크와 같을 때
#
# 키 `3`{ data-claim="lab: n" } 개의 점수가 모두 싱크 로짓 $s$와 같습니다. 싱크가 가져가는 몫은 얼마일까요? 값을
# 원-핫으로 두면 출력이 곧 가중치입니다.
#
# <details markdown><summary>답</summary>
#
# 분모의 항 $n + 1$ 개가 모두 $e^{s}$로 같으므로 몫도 모두 같습니다. 싱크의 몫은 $1 / (n + 1)$, 곧
# `0.25`{ data-claim="lab: sink_weight" }입니다. 키가 늘어날수록 싱크의 몫은 줄어듭니다. 소프트맥스 플러스 원($s = 0$)이라면
# 점수가 모두 $0$일 때 이렇게 됩니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: every score equal to the sink
#
# The scores of `3`{ data-claim="lab: n" } keys all equal the sink logit $s$. What share does the sink take? With
# one-hot values, the output is the weights.
#
# <details markdown><summary>Answer</summary>
#
# The $n + 1$ terms of the denominator are all $e^{s}$, so every share is the same: the sink takes $1 / (n + 1)$, that
# is `0.25`{ data-claim="lab: sink_weight" }. The more keys, the smaller the sink's share. Under softmax plus one
# ($s = 0$), this is what happens when every score is $0$.
#
# </details>

# %%
n, s = 3, 0.0  # the sink logit s, and every score below equals it
q1, k1 = torch.zeros(1, 1, 8), torch.zeros(1, n, 8)  # every score q k^T / sqrt(d) = 0
w = attention_with_sink(q1, k1, torch.eye(n)[None], s)  # one-hot values: the weights
sink_weight = 1 - w.sum().item()
print(w.shape, sink_weight)

# %% [markdown] lang="ko"
# ## 게이트와 싱크
#
# 게이트는 소프트맥스 뒤에서 출력을 줄이고, 싱크는 보통 어텐션에 $\sigma(\ell - s)$를 곱한 것입니다.

# %% [markdown] lang="en"
# ## Gates and sinks
#
# A gate shrinks the output after the softmax; a sink is plain attention times $\sigma(\ell - s)$.

# %%
# snippet: sinks/gate.py

# %% [markdown] lang="ko"
# ### 해 보기: 싱크를 게이트로 읽기
#
# 위 해 보기의 줄(키 셋, 점수가 모두 $s$)에서 싱크를 게이트로 읽으면 배율 $\sigma(\ell - s)$는 얼마일까요?
#
# <details markdown><summary>답</summary>
#
# $\ell = s + \log n$이므로 $\sigma(\log n) = n / (n + 1)$, 곧 `0.75`{ data-claim="lab: factor" }입니다. 싱크의 몫을 뺀
# 나머지와 같습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: reading a sink as a gate
#
# In the row of the last exercise (three keys, every score $s$), what is the factor $\sigma(\ell - s)$ when the sink is
# read as a gate?
#
# <details markdown><summary>Answer</summary>
#
# $\ell = s + \log n$, so $\sigma(\log n) = n / (n + 1)$, that is `0.75`{ data-claim="lab: factor" }: what is left after
# the sink's share.
#
# </details>

# %%
row = torch.full((n,), s)  # n scores, all equal to s
factor = torch.sigmoid(row.logsumexp(-1) - s).item()
print(factor)

# %% [markdown] lang="ko"
# ## 소프트 캡과 마스크의 순서
#
# FlexAttention의 `score_mod`로 씌운 캡과 밀집 계산, 그리고 순서를 바꾼 캡이 가린 키에 주는 가중치를 봅니다.

# %% [markdown] lang="en"
# ## The soft cap and the order against the mask
#
# A cap applied as FlexAttention's `score_mod` against the dense computation, and the weight a cap in the wrong order
# gives masked keys.

# %%
# snippet: sinks/softcap.py

# %% [markdown] lang="ko"
# ### 해 보기: 유한한 채움값으로 순서 바꾸기
#
# transformers의 eager 마스크처럼 $-\infty$ 대신 `-1e9`를 **더한** 뒤 캡을 씌우면, 쿼리 `0`이 가린 키들에 주는 가중치의
# 합은 어떻게 될까요? 캡을 먼저 씌우면요?
#
# <details markdown><summary>답</summary>
#
# $\tanh$가 `-1e9`도 $-1$로 누르므로 $-\infty$와 똑같이 새어, 헤드 모두에서 합이 `> 0.05`{ data-claim="lab: finite_leak" }입니다.
# 캡을 먼저 씌우면 가린 키의 점수는 `-1e9`쯤에 머물고 가중치는 `0`{ data-claim="lab: right" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: the wrong order with a finite fill
#
# Add `-1e9` instead of $-\infty$, as transformers' eager mask adds a finite number, and cap after. What do query `0`'s
# weights on its masked keys add up to? And if the cap comes first?
#
# <details markdown><summary>Answer</summary>
#
# $\tanh$ squashes `-1e9` to $-1$ just as it squashes $-\infty$, so the leak is the same: `> 0.05`{ data-claim="lab: finite_leak" }
# in every head. Cap first and a masked key's score stays near `-1e9`, and its weight is `0`{ data-claim="lab: right" }.
#
# </details>

# %%
fill = torch.zeros(6, 6).masked_fill(~keep, -1e9)  # additive, finite
late = (cap * ((scores + fill) / cap).tanh()).softmax(-1)  # mask, then cap
early = (cap * (scores / cap).tanh() + fill).softmax(-1)  # cap, then mask
finite_leak = late[..., 0, 1:].sum(-1).min().item()  # query 0 sees key 0 only
right = early[..., 0, 1:].sum().item()
print(finite_leak > 0.05, right)
