# %% [markdown] lang="ko"
# # 실습: 트리 어텐션
#
# [트리 어텐션: 추측 디코딩의 검증](../trees.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Tree attention
#
# This notebook runs the examples from [Tree attention: verification in speculative decoding](../trees.md) unchanged,
# ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell
# you can edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was
# built.

# %% [markdown] lang="ko"
# ## 부모 배열로 적은 트리
#
# 장의 트리를 글자로 그리고, 조상 마스크와 깊이를 만듭니다.

# %% [markdown] lang="en"
# ## A tree as a parent array
#
# We draw the chapter's tree as text, and build its ancestor mask and depths.

# %%
# snippet: trees/draw.py

# %%
# snippet: trees/mask.py

# %% [markdown] lang="ko"
# ### 해 보기: 그림에서 부모 배열 적기
#
# 아래 트리를 너비 우선으로 번호 붙였습니다. `parents`를 적어 보세요. 그리고 부모가 자식보다 뒤에 오게 적으면
# `ancestor_mask`는 무엇을 할까요?
#
# ```text
# cache
# ├── 0
# │   ├── 2
# │   │   └── 4
# │   └── 3
# └── 1
# ```
#
# <details markdown><summary>답</summary>
#
# `[-1, -1, 0, 0, 2]`{ data-claim="lab: guess" }입니다. 깊이는 `[0, 0, 1, 1, 2]`{ data-claim="lab: tree_depths(guess)" }이고, 노드
# `4`{ data-claim="lab: len(guess) - 1" }의 줄은 `[0, 2, 4]`{ data-claim="lab: ancestor_mask(guess)[4].nonzero().flatten()" }를 봅니다. 노드 번호를 바꿔 부모가 뒤에 오게 적으면
# 무엇이 틀렸는지 밝힌 `ValueError`가 납니다(`True`{ data-claim="lab: 'a parent must come before its child' in refused" }). 한 번 훑는 동안 부모의 줄이 아직 비어 있기 때문입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: write the parent array of a drawn tree
#
# The tree below is numbered breadth-first. Write its `parents`. And what does `ancestor_mask` do if a parent comes after
# its child?
#
# ```text
# cache
# ├── 0
# │   ├── 2
# │   │   └── 4
# │   └── 3
# └── 1
# ```
#
# <details markdown><summary>Answer</summary>
#
# `[-1, -1, 0, 0, 2]`{ data-claim="lab: guess" }. The depths are `[0, 0, 1, 1, 2]`{ data-claim="lab: tree_depths(guess)" }, and the row of node
# `4`{ data-claim="lab: len(guess) - 1" } sees `[0, 2, 4]`{ data-claim="lab: ancestor_mask(guess)[4].nonzero().flatten()" }. Renumbered so that a parent comes after its child,
# the array is refused with a `ValueError` that says what is wrong (`True`{ data-claim="lab: 'a parent must come before its child' in refused" }): in a single sweep the parent's row
# would still be empty.
#
# </details>

# %%
guess = [-1, -1, 0, 0, 2]  # your answer
print(ancestor_mask(guess).int())
print("depths:", tree_depths(guess).tolist())
try:
    ancestor_mask([-1, 2, -1])  # node 1's parent is node 2, listed after it
except ValueError as error:
    refused = str(error)
    print("ValueError:", refused)

# %% [markdown] lang="ko"
# ## 캐시 뒤의 트리
#
# 캐시 토큰 <span data-claim="trees/cache_mask.py: cache_len">셋</span> 뒤에 트리를 붙인 전체 마스크와 `position_ids`, 사슬과 깊이 우선 순서를 봅니다.

# %% [markdown] lang="en"
# ## The tree after the cache
#
# The full mask of the tree after <span data-claim="trees/cache_mask.py: cache_len">three</span> cached tokens, its `position_ids`, a chain and a depth-first order.

# %%
# snippet: trees/cache_mask.py

# %% [markdown] lang="ko"
# ### 해 보기: 마스크의 한 줄 예측하기
#
# 장의 트리에서 노드 `6`{ data-claim="lab: len(parents) - 1" }의 줄은 키 몇 번을 볼까요(캐시가 키 $0, 1, 2$)? 그 노드의 `position_ids`는요? 캐시가 비어
# 있으면(`cache_len = 0`) 줄은 어떻게 바뀔까요?
#
# <details markdown><summary>답</summary>
#
# 키 `[0, 1, 2, 4, 7, 9]`{ data-claim="lab: row" }입니다. 캐시 셋에 더해 조상 $1$, $4$와 자기 $6$의 열 $P + i$입니다. 깊이가
# `2`{ data-claim="lab: int(depth[6])" }이므로 위치는 `5`{ data-claim="lab: int(position_ids[6])" }입니다. 캐시가 비면 캐시 열이 사라지고 트리 쪽만 남아
# `[1, 4, 6]`{ data-claim="lab: row_empty" }을 봅니다. 음수 캐시 길이는 `ValueError`로 거절합니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: predict one row of the mask
#
# In the chapter's tree, which keys does the row of node `6`{ data-claim="lab: len(parents) - 1" } see (the cache is keys $0, 1, 2$)? What is that node's
# `position_ids`? And how does the row change when the cache is empty (`cache_len = 0`)?
#
# <details markdown><summary>Answer</summary>
#
# Keys `[0, 1, 2, 4, 7, 9]`{ data-claim="lab: row" }: the three cache keys, plus the columns $P + i$ of its ancestors $1$, $4$ and of itself,
# $6$. Its depth is `2`{ data-claim="lab: int(depth[6])" }, so its position is `5`{ data-claim="lab: int(position_ids[6])" }. With an empty cache the cache columns are gone and
# only the tree's remain: it sees `[1, 4, 6]`{ data-claim="lab: row_empty" }. A negative cache length is refused with a `ValueError`.
#
# </details>

# %%
row = keep[6].nonzero().flatten().tolist()
row_empty = tree_attention_mask(parents, 0)[6].nonzero().flatten().tolist()
print("node 6 sees keys", row, "at position", int(position_ids[6]))
print("with no cache:", row_empty)
try:
    tree_attention_mask(parents, -1)
except ValueError as error:
    print("ValueError:", error)

# %% [markdown] lang="ko"
# ## 받아들일 가지와 남길 캐시 줄
#
# 손으로 적은 초안과 대상 모델의 토큰으로 가장 깊이 받아들인 노드와 보너스 토큰을 찾습니다.

# %% [markdown] lang="en"
# ## The branch to accept and the cache rows to keep
#
# With a draft and target tokens written by hand, we find the deepest accepted node and the bonus token.

# %%
# snippet: trees/accept.py

# %% [markdown] lang="ko"
# ### 해 보기: 받아들인 뒤 남길 캐시 줄
#
# 대상 모델이 노드 $0$ 다음에 토큰 $2$를 쓴다면(`target[1]`을 바꿔서), 어느 노드까지 받아들일까요? 캐시 토큰이
# <span data-claim="lab: cache_len">셋</span>일 때 KV 캐시에서 남길 줄은 무엇일까요?
#
# <details markdown><summary>답</summary>
#
# 노드 `3`{ data-claim="lab: node_2" }(초안 토큰 $2$)을 받아들이고 경로는 `[0, 3]`{ data-claim="lab: accepted_path(parents, node_2)" }입니다. 노드 $3$은 잎이라 더 내려갈 수 없고, 보너스 토큰은
# 대상 모델이 노드 $3$ 다음에 쓸 `target[4]`입니다. 남길 줄은 캐시 $0, 1, 2$와 $P$ + 경로, 곧
# `[0, 1, 2, 3, 6]`{ data-claim="lab: rows" }입니다. 나머지 트리 줄은 버리고, 남긴 줄을 캐시 앞쪽에 빈틈없이 다시 씁니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: the cache rows to keep after acceptance
#
# If the target writes token $2$ after node $0$ (a change to `target[1]`), which node is accepted? With
# <span data-claim="lab: cache_len">three</span> cached tokens, which rows of the KV cache are kept?
#
# <details markdown><summary>Answer</summary>
#
# Node `3`{ data-claim="lab: node_2" } (draft token $2$) is accepted, and its path is `[0, 3]`{ data-claim="lab: accepted_path(parents, node_2)" }. Node $3$ is a leaf, so nothing deeper can be
# accepted, and the bonus token is `target[4]`, what the target writes after node $3$. The rows kept are the cache rows
# $0, 1, 2$ and $P$ + the path: `[0, 1, 2, 3, 6]`{ data-claim="lab: rows" }. The other tree rows are dropped, and the kept rows are
# written back to the front of the cache with no gaps.
#
# </details>

# %%
cache_len = 3
target_2 = list(target)
target_2[1] = 2  # the target writes 2 after node 0
node_2 = longest_accepted(parents, draft, target_2)
rows = list(range(cache_len)) + [cache_len + i for i in accepted_path(parents, node_2)]
print("accepted node:", node_2, "cache rows to keep:", rows)
