# %% [markdown] lang="ko"
# # 실습: 어텐션 한눈에
#
# [어텐션 한눈에](../attention.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Attention at a glance
#
# This notebook runs the examples from [Attention at a glance](../attention.md) unchanged, ready for you to modify
# one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and
# its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 다섯 단계를 손으로: 점수, 스케일링, 마스크, 가중치, 출력
#
# 쿼리 <span data-claim="attention/tiny.py: len(Q)">둘</span>, 키와 값 <span data-claim="attention/tiny.py: len(K)">셋</span>, $d_k = 2$인 정수 예입니다. 셋째 키는 `[PAD]`라서 가립니다. 중간값이 모두 찍힙니다.

# %% [markdown] lang="en"
# ## The five steps by hand: scores, scaling, mask, weights, output
#
# An integer example with <span data-claim="attention/tiny.py: len(Q)">two</span> queries, <span data-claim="attention/tiny.py: len(K)">three</span> keys and values, and $d_k = 2$. The third key is a `[PAD]`, so it is
# masked. Every intermediate value is printed.

# %%
# snippet: attention/tiny.py

# %% [markdown] lang="ko"
# ### 해 보기: 가린 값을 엉뚱하게 바꾸면
#
# `[PAD]`의 값 `V[2]`는 `(9, 9)`{ data-claim="attention/tiny.py: V[2]" }입니다. `V[2] = (1000, -1000)`으로 바꾸면 출력은 얼마나 달라질까요? 가중치는 그대로
# 두고 값만 바꿔 새 출력을 계산한 뒤, 원래 `output`과 비트까지 같은지 `torch.equal`로 확인합니다.
#
# <details markdown><summary>답</summary>
#
# 조금도 달라지지 않습니다(`True`{ data-claim="lab: unchanged" }). `[PAD]` 칸의 가중치는 $e^{-\infty}$에서 나온 정확한 $0$이고, $0$에
# 유한한 수를 곱하면 정확히 $0$이라 더해도 아무 흔적이 남지 않습니다. 가중치가 아주 작은 수였다면 값이 클수록
# 새어 들어왔을 것입니다. 다만 값에 `inf`나 `nan`이 있으면 $0 \times \infty$가 `nan`이라 마스크로도 막지
# 못합니다. 마스크는 가중치를 지울 뿐, 값 자체를 고치지는 않습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: changing the masked value to something wild
#
# The `[PAD]`'s value `V[2]` is `(9, 9)`{ data-claim="attention/tiny.py: V[2]" }. If it is changed with `V[2] = (1000, -1000)`, how much does the output change? Keep the
# weights, compute a new output with only the value changed, and check with `torch.equal` whether it is bit for bit the
# same as the original `output`.
#
# <details markdown><summary>Answer</summary>
#
# It does not change at all (`True`{ data-claim="lab: unchanged" }). The weight of the `[PAD]` cell is an exact $0$ that came from $e^{-\infty}$, and
# $0$ times a finite number is exactly $0$, so adding it leaves no trace. Had the weight been a very small number, the
# value would have leaked in more the larger it was. But if a value holds `inf` or `nan`, $0 \times \infty$ is `nan`
# and the mask cannot stop it either. A mask only erases weights; it does not fix the values themselves.
#
# </details>

# %%
V_odd = V.clone()
V_odd[2] = torch.tensor([1000.0, -1000.0])
print(weights @ V_odd)
unchanged = torch.equal(weights @ V_odd, output)
unchanged

# %% [markdown] lang="ko"
# ### 해 보기: 나누지 않으면
#
# 둘째 단계의 $\sqrt{d_k}$ 나누기를 빼면 첫째 쿼리의 가중치는 더 고르게 될까요, 더 한쪽으로 쏠릴까요? 둘째
# 쿼리는 어떨까요? 아래 셀은 나누지 않고 구한 가중치 `not_scaled`와 장에서 나누어 구한 `weights`를 차례로
# 찍습니다.
#
# <details markdown><summary>답</summary>
#
# 첫째 쿼리는 더 쏠립니다(큰 가중치가 `0.6698`{ data-claim="lab: weights[0, 0]" }에서 `0.7311`{ data-claim="lab: not_scaled[0, 0]" }로). 남은 두 점수의
# **차이**가 $\tfrac{1}{\sqrt 2}$, 곧 `0.7071`{ data-claim="lab: (scaled[0, 0] - scaled[0, 1]).item()" }에서 `1`{ data-claim="lab: (scores[0, 0] - scores[0, 1]).item()" }로 커지고, 소프트맥스는 차이에
# 지수적으로 반응하기 때문입니다. 두 가중치의 비는 늘 $e^{\text{차이}}$입니다. 둘째 쿼리는 남은 두 점수가 같아서
# 무엇으로 나누든 차이가 $0$이라 그대로 반반(`[0.5, 0.5, 0]`{ data-claim="lab: not_scaled[1]" })입니다. 나누기는 점수의 순서를 바꾸지 않고 간격만 줄입니다.
# $d_k$가 클 때 이 간격이 얼마나 벌어지는지는 [스케일링 장](../scaling.md)에서 봅니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: without the division
#
# If step two's division by $\sqrt{d_k}$ is dropped, do the first query's weights become more even, or more lopsided?
# What about the second query? The cell below prints the weights computed without the division, `not_scaled`,
# then the chapter's `weights`, computed with it.
#
# <details markdown><summary>Answer</summary>
#
# The first query becomes more lopsided: its larger weight goes from `0.6698`{ data-claim="lab: weights[0, 0]" } to
# `0.7311`{ data-claim="lab: not_scaled[0, 0]" }. The **difference** between the two remaining scores grows from
# $\tfrac{1}{\sqrt 2}$, that is `0.7071`{ data-claim="lab: (scaled[0, 0] - scaled[0, 1]).item()" }, to `1`{ data-claim="lab: (scores[0, 0] - scores[0, 1]).item()" }, and the softmax responds exponentially to differences: the ratio of the two weights is
# always $e^{\text{difference}}$. For the second query the two remaining scores are equal, so whatever you divide by,
# the difference is $0$ and it stays half and half (`[0.5, 0.5, 0]`{ data-claim="lab: not_scaled[1]" }). Dividing does not change the order of the scores; it only shrinks
# the gaps. How wide these gaps get when $d_k$ is large is shown in the chapter
# [Scaling: why divide by √dₖ](../scaling.md).
#
# </details>

# %%
not_scaled = torch.softmax(scores + M, dim=-1)
print("not_scaled:", not_scaled)
print("weights:", weights)

# %% [markdown] lang="ko"
# ### 해 보기: 마스크를 뒤집어 넘기면
#
# `F.scaled_dot_product_attention`의 불리언 `attn_mask`는 `True`가 **참여**입니다. 실수로 `~keep`(`[PAD]`만
# `True`)을 넘기면 출력은 무엇이 될까요? 오류가 날까요?
#
# <details markdown><summary>답</summary>
#
# 오류 없이, 두 쿼리 모두 `[PAD]` 하나만 보게 됩니다. 그 칸의 가중치가 $1$이므로 출력의 두 줄은 모두 `[PAD]`의
# 값 그대로 `[[9, 9], [9, 9]]`{ data-claim="lab: flipped" }입니다. 모양은 맞으니 어떤 검사도 걸리지 않습니다. API마다 `True`의 뜻이 다르다는 것은
# [패딩 마스크 장](../padding.md#conventions)에서 표로 정리합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: passing the mask flipped
#
# In `F.scaled_dot_product_attention`'s boolean `attn_mask`, `True` means **attend**. If you pass `~keep` by mistake
# (`True` only at the `[PAD]`), what is the output? Is there an error?
#
# <details markdown><summary>Answer</summary>
#
# There is no error, and both queries see only the `[PAD]`. Its cell's weight is $1$, so both rows of the output are
# exactly the `[PAD]`'s value: `[[9, 9], [9, 9]]`{ data-claim="lab: flipped" }. The shapes fit, so no check catches it. That `True` means different things in
# different APIs is summed up in a table in
# [What `True` means in each API](../padding.md#conventions).
#
# </details>

# %%
flipped = F.scaled_dot_product_attention(Q, K, V, attn_mask=~keep)
flipped

# %% [markdown] lang="ko"
# ## 모양: 셀프, 크로스, 헤드
#
# <span data-claim="attention/shapes.py: x.shape[1]">네</span> 토큰짜리 문장 `x`가 묻고, 셀프 어텐션에서는 `x` 자신이, 크로스 어텐션에서는 <span data-claim="attention/shapes.py: memory.shape[1]">다섯</span> 토큰짜리 `memory`가
# 대답합니다. `shapes` 함수가 <span data-claim="attention/shapes.py: len(names)">여섯</span> 텐서의 모양을 돌려줍니다.

# %% [markdown] lang="en"
# ## Shapes: self, cross, heads
#
# A <span data-claim="attention/shapes.py: x.shape[1]">four</span>-token sentence `x` asks; in self-attention `x` itself answers, and in cross-attention a
# <span data-claim="attention/shapes.py: memory.shape[1]">five</span>-token `memory` answers. The `shapes` function returns the shapes of <span data-claim="attention/shapes.py: len(names)">six</span> tensors.

# %%
# snippet: attention/shapes.py

# %% [markdown] lang="ko"
# ### 해 보기: 대답하는 쪽이 길어지면
#
# 크로스 어텐션에서 `memory`를 <span data-claim="lab: longer.shape[1]">일곱</span> 토큰으로 늘리면 <span data-claim="attention/shapes.py: len(names)">여섯</span> 모양 가운데 어느 것이 바뀔까요? 출력의 모양은
# 어떨까요?
#
# <details markdown><summary>답</summary>
#
# 키와 값, 그리고 점수와 가중치의 마지막 축($L_K$)이 바뀝니다. 출력은 그대로 (배치, 쿼리 수, $d_v$), 곧 `(2, 4, 12)`{ data-claim="lab: longer_shapes[-1]" }입니다.
# 가중치 $(L_Q, L_K)$에 값 $(L_K, d_v)$를 곱하면 $L_K$ 축이 더해져 사라지기 때문입니다. 그래서 대답하는 쪽의
# 길이가 얼마든, 어텐션을 지난 뒤에도 묻는 쪽 문장의 모양이 유지되고 잔차 연결로 `x`에 더할 수 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a longer answering side
#
# If `memory` in cross-attention grows to <span data-claim="lab: longer.shape[1]">seven</span> tokens, which of the <span data-claim="attention/shapes.py: len(names)">six</span> shapes change? What is the shape of the
# output?
#
# <details markdown><summary>Answer</summary>
#
# The keys and values change, and so does the last axis ($L_K$) of the scores and weights. The output stays
# (batch, number of queries, $d_v$), `(2, 4, 12)`{ data-claim="lab: longer_shapes[-1]" }: multiplying the weights $(L_Q, L_K)$ by the values $(L_K, d_v)$ sums the $L_K$
# axis away. So however long the answering side is, the asking sentence keeps its shape after attention, and the
# output can be added to `x` by a residual connection.
#
# </details>

# %%
longer = torch.randn(B, 7, d_model)
longer_shapes = shapes(x @ w_q, longer @ w_k, longer @ w_v)
for name, shape in zip(names, longer_shapes):
    print(f"{name:8}", shape)
