# %% [markdown] lang="ko"
# # 실습: 슬라이딩 윈도 캐시와 링 버퍼
#
# [슬라이딩 윈도 캐시와 링 버퍼](../ring.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Sliding-window caches as ring buffers
#
# This notebook runs the examples from [Sliding-window caches as ring buffers](../ring.md) unchanged, ready for you to
# modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit,
# and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 토큰은 어느 슬롯에 들어가나
#
# 슬롯 <span data-claim="ring/slots.py: W">네</span> 개의 링 버퍼에 토큰을 하나씩 써 넣으며 슬롯마다 든 위치를 따라갑니다.

# %% [markdown] lang="en"
# ## Which slot a token takes
#
# Tokens go one by one into a ring buffer of <span data-claim="ring/slots.py: W">four</span> slots; the table follows the
# position each slot holds.

# %%
# snippet: ring/slots.py

# %% [markdown] lang="ko"
# ### 해 보기: 긴 창
#
# 창이 `4096`{ data-claim="lab: window" }인 모델이 위치 `10000`{ data-claim="lab: position" }의 토큰을 디코딩합니다. 이 토큰은 어느
# 슬롯에 들어가고, 그 슬롯에서 밀려나는 토큰의 위치는 무엇일까요? 셀을 돌리기 전에 먼저 계산해 보세요.
#
# <details markdown><summary>답</summary>
#
# 슬롯 `1808`{ data-claim="lab: slot" }입니다. 밀려나는 것은 창 하나만큼 앞의 토큰, 위치 `5904`{ data-claim="lab: evicted" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a long window
#
# A model with a window of `4096`{ data-claim="lab: window" } decodes the token at position `10000`{ data-claim="lab: position" }. Which
# slot does that token take, and the token at which position does it push out? Work it out before running the cell.
#
# <details markdown><summary>Answer</summary>
#
# Slot `1808`{ data-claim="lab: slot" }. What it pushes out is the token one window earlier, at position
# `5904`{ data-claim="lab: evicted" }.
#
# </details>

# %%
window, position = 4096, 10000
slot = ring_slot(position, window)
before = ring_positions(position, window)  # tokens 0 .. position - 1 written
evicted = before[slot]  # what the slot held until now
print(slot, evicted)

# %% [markdown] lang="ko"
# ## 슬롯의 순서는 상관없다
#
# 링 버퍼로 한 토큰씩 디코딩한 출력을, 슬라이딩 윈도 마스크로 한 번에 계산한 출력과 견줍니다.

# %% [markdown] lang="en"
# ## The order of the slots does not matter
#
# Decoding one token at a time through a ring buffer, against one pass under the sliding-window mask.

# %%
# snippet: ring/decode.py

# %% [markdown] lang="ko"
# ### 해 보기: 키와 값을 뒤섞기
#
# 마지막 쿼리 하나가 키와 값 전부를 보는 어텐션에서, 키와 값을 **같은** 순서로 뒤섞으면 출력이 바뀔까요? 키만
# 뒤섞으면요?
#
# <details markdown><summary>답</summary>
#
# 함께 뒤섞으면 출력의 차이가 `< 1e-6`{ data-claim="lab: together" }로, 바뀌지 않습니다. 키만 뒤섞으면 키마다의 가중치가
# 다른 값에 붙어 차이가 `> 0.01`{ data-claim="lab: keys_only" }입니다. 링 버퍼가 슬롯에 키와 값을 함께 넣는 까닭입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: shuffling keys and values
#
# One query, the last, attends to all the keys and values. Does its output change if the keys and values are shuffled
# in the **same** order? If only the keys are?
#
# <details markdown><summary>Answer</summary>
#
# Shuffled together, the output differs by `< 1e-6`{ data-claim="lab: together" }: no change. Shuffle only the keys and
# each weight lands on another value, a difference of `> 0.01`{ data-claim="lab: keys_only" }. That is why a ring
# buffer puts a key and its value into the same slot.
#
# </details>

# %%
def attend(query, keys, values):
    return (keys @ query / d**0.5).softmax(-1) @ values


order = torch.randperm(L, generator=torch.Generator().manual_seed(1))
as_is = attend(q[-1], k, v)
together = (attend(q[-1], k[order], v[order]) - as_is).abs().max().item()
keys_only = (attend(q[-1], k[order], v) - as_is).abs().max().item()
print(together < 1e-6, keys_only > 0.01)

# %% [markdown] lang="ko"
# ## 싱크와 위치 번호
#
# 싱크를 둔 캐시에서 글 속 위치와 캐시 속 위치를 셉니다.

# %% [markdown] lang="en"
# ## Sinks and position numbers
#
# Text positions and cache positions in a cache with sinks.

# %%
# snippet: ring/positions.py

# %% [markdown] lang="ko"
# ### 해 보기: 싱크 넷, 링 여덟
#
# 싱크 `4`{ data-claim="lab: sinks" } 개와 링 슬롯 `8`{ data-claim="lab: ring" } 개인 캐시에 위치 `100`{ data-claim="lab: newest" }의
# 토큰을 써 넣습니다. 이 토큰은 어느 슬롯에 들어갈까요? 캐시 속 위치로 매기면 이 토큰의 위치는 무엇일까요?
#
# <details markdown><summary>답</summary>
#
# 싱크 뒤 링에서 `(100 - 4) mod 8`번째, 곧 슬롯 `4`{ data-claim="lab: taken" }입니다. 캐시가 다 찼으므로 가장 새 토큰의
# 캐시 속 위치는 슬롯 수에서 하나를 뺀 `11`{ data-claim="lab: newest_in_cache" }입니다. 글 속 위치 `100`{ data-claim="lab: newest" }과는
# 크게 다릅니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: four sinks, a ring of eight
#
# The token at position `100`{ data-claim="lab: newest" } is written into a cache of `4`{ data-claim="lab: sinks" }
# sinks and `8`{ data-claim="lab: ring" } ring slots. Which slot does it take? Numbered by cache position, what is its
# position?
#
# <details markdown><summary>Answer</summary>
#
# Slot `4`{ data-claim="lab: taken" }: the ring after the sinks, at place `(100 - 4) mod 8`. The cache is full, so the
# newest token's cache position is the number of slots less one, `11`{ data-claim="lab: newest_in_cache" }, far from
# its text position `100`{ data-claim="lab: newest" }.
#
# </details>

# %%
sinks, ring, newest = 4, 8, 100
taken = ring_slot(newest, ring, sinks)
cached = ring_positions(newest + 1, ring, sinks)  # tokens 0 .. newest written
newest_in_cache = sorted(cached).index(newest)
print(taken, cached, newest_in_cache)
