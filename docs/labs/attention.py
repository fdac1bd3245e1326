# %% [markdown]
# # 실습: 어텐션 한눈에
#
# [어텐션 한눈에](../attention.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown]
# ## 다섯 단계를 손으로: 점수, 스케일링, 마스크, 가중치, 출력
#
# 쿼리 <span data-claim="attention/tiny.py: len(Q)">둘</span>, 키와 값 <span data-claim="attention/tiny.py: len(K)">셋</span>, $d_k = 2$인 정수 예입니다. 셋째 키는 `[PAD]`라서 가립니다. 중간값이 모두 찍힙니다.

# %%
# snippet: attention/tiny.py

# %% [markdown]
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

# %%
V_odd = V.clone()
V_odd[2] = torch.tensor([1000.0, -1000.0])
print(weights @ V_odd)
unchanged = torch.equal(weights @ V_odd, output)
unchanged

# %% [markdown]
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

# %%
not_scaled = torch.softmax(scores + M, dim=-1)
print("not_scaled:", not_scaled)
print("weights:", weights)

# %% [markdown]
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

# %%
flipped = F.scaled_dot_product_attention(Q, K, V, attn_mask=~keep)
flipped

# %% [markdown]
# ## 모양: 셀프, 크로스, 헤드
#
# <span data-claim="attention/shapes.py: x.shape[1]">네</span> 토큰짜리 문장 `x`가 묻고, 셀프 어텐션에서는 `x` 자신이, 크로스 어텐션에서는 <span data-claim="attention/shapes.py: memory.shape[1]">다섯</span> 토큰짜리 `memory`가
# 대답합니다. `shapes` 함수가 <span data-claim="attention/shapes.py: len(names)">여섯</span> 텐서의 모양을 돌려줍니다.

# %%
# snippet: attention/shapes.py

# %% [markdown]
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

# %%
longer = torch.randn(B, 7, d_model)
longer_shapes = shapes(x @ w_q, longer @ w_k, longer @ w_v)
for name, shape in zip(names, longer_shapes):
    print(f"{name:8}", shape)
