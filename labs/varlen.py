# %% [markdown] lang="ko"
# # 실습: 패딩 없는 가변 길이 배치
#
# [패딩 없는 가변 길이 배치](../varlen.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다.
# 위에서부터 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Variable-length batches without padding
#
# This notebook runs the examples from [Variable-length batches without padding](../varlen.md) unchanged, ready for
# you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can
# edit, and its answer is in the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## cu_seqlens와 문서 마스크
#
# 길이 <span data-claim="varlen/mask.py: len(lengths)">세</span> 개에서 `cu_seqlens`를 만들고, 문서 마스크를 ■/⬚ 격자로 그린 뒤, 한 줄에 SDPA를 한 번 한 결과를
# 시퀀스를 하나씩 돌린 결과와 견줍니다.

# %% [markdown] lang="en"
# ## cu_seqlens and the document mask
#
# `cu_seqlens` is built from <span data-claim="varlen/mask.py: len(lengths)">three</span> lengths, the document mask is drawn as a ■/⬚ grid, and one SDPA call over
# the packed row is compared with running each sequence alone.

# %%
# snippet: varlen/mask.py

# %% [markdown] lang="ko"
# ### 해 보기: 길이에서 cu_seqlens로
#
# 길이가 $4, 1, 3, 2$인 시퀀스 넷의 `cu_seqlens`는 무엇일까요? 손으로 적은 뒤, 길이에서 만드는 한 줄을 써 보세요.
#
# <details markdown><summary>답</summary>
#
# 앞에 $0$을 붙인 누적합, `[0, 4, 5, 8, 10]`{ data-claim="lab: cu4.tolist()" }입니다. `torch.cat([torch.tensor([0]), lengths.cumsum(0)])`이면 되고,
# `check_cu`를 지나면 경계가 맞다는 뜻입니다. 마지막 값이 토큰 수 `10`{ data-claim="lab: int(cu4[-1])" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: from lengths to cu_seqlens
#
# What is `cu_seqlens` for four sequences of lengths $4, 1, 3, 2$? Write it by hand, then write the line that builds it
# from the lengths.
#
# <details markdown><summary>Answer</summary>
#
# The running sum with a $0$ in front: `[0, 4, 5, 8, 10]`{ data-claim="lab: cu4.tolist()" }. `torch.cat([torch.tensor([0]), lengths.cumsum(0)])` does it,
# and passing `check_cu` means the boundaries are well formed. The last value is the number of tokens,
# `10`{ data-claim="lab: int(cu4[-1])" }.
#
# </details>

# %%
lengths4 = torch.tensor([4, 1, 3, 2])
cu4 = check_cu(torch.cat([torch.tensor([0]), lengths4.cumsum(0)]))
print(cu4.tolist())

# %% [markdown] lang="ko"
# ### 해 보기: 한 줄을 미리 맞히기
#
# 위의 `cu4`로 만든 문서 마스크에서 여섯째 줄 `keep4[5]`는 어떤 모양일까요? 그 토큰은 몇째 시퀀스의 몇째 토큰이고, 키를
# 몇 개 볼까요? 격자를 그리기 전에 적어 보세요.
#
# <details markdown><summary>답</summary>
#
# 여섯째 토큰은 셋째 시퀀스(`cu4[2]`부터 `cu4[3]` 앞까지)의 첫 토큰이므로 자기 하나만 봅니다:
# `[0, 0, 0, 0, 0, 1, 0, 0, 0, 0]`{ data-claim="lab: row5" }. 키는 <span data-claim="lab: sum(row5)">한</span> 개입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: predict a row
#
# In the document mask built from `cu4` above, what does the sixth row, `keep4[5]`, look like? Which sequence is that
# token in, at which place, and how many keys does it see? Write it down before drawing the grid.
#
# <details markdown><summary>Answer</summary>
#
# The sixth token is the first of the third sequence (from `cu4[2]` up to `cu4[3]`), so it sees itself alone:
# `[0, 0, 0, 0, 0, 1, 0, 0, 0, 0]`{ data-claim="lab: row5" }. That is <span data-claim="lab: sum(row5)">one</span> key.
#
# </details>

# %%
keep4 = document_mask(cu4)
row5 = keep4[5].int().tolist()
print(*(" ".join("■⬚"[not x] for x in row) for row in keep4), sep="\n")

# %% [markdown] lang="ko"
# ## 시퀀스마다 맞추는 인과 정렬
#
# 키 `[3, 5, 2]`{ data-claim="varlen/align.py: cu_k.diff()" } 개 가운데 끝의 `[2, 2, 1]`{ data-claim="varlen/align.py: cu_q.diff()" } 개가 새 쿼리일 때의 마스크를, 줄 전체에 정렬을 하나만 쓴
# 두 마스크와 견줍니다.

# %% [markdown] lang="en"
# ## Causal alignment per sequence
#
# The mask for sequences with `[3, 5, 2]`{ data-claim="varlen/align.py: cu_k.diff()" } keys, the last `[2, 2, 1]`{ data-claim="varlen/align.py: cu_q.diff()" } of which are new queries, compared
# with the two masks that use one alignment for the whole row.

# %%
# snippet: varlen/align.py

# %% [markdown] lang="ko"
# ### 해 보기: 새는 줄 찾기
#
# 이번에는 키가 $4, 2, 3$ 개이고 새 쿼리가 $3, 1, 1$ 개입니다. 줄 전체에 오른쪽 아래 정렬을 쓰면 어느 줄이 미래의 키를
# 볼까요? 줄 전체의 어긋남과 시퀀스마다의 어긋남을 견주어 보세요.
#
# <details markdown><summary>답</summary>
#
# 줄 전체의 어긋남은 마지막 시퀀스의 것, `cu_k[-1] - cu_q[-1]` = `4`{ data-claim="lab: int(ck[-1] - cq[-1])" }입니다. 첫 시퀀스의 몫은
# `1`{ data-claim="lab: int(ck[1] - cq[1])" }이라 첫 시퀀스의 앞 두 쿼리가 미래의 키를 봅니다: 틀린 줄은
# `[0, 1]`{ data-claim="lab: leaked_rows" }입니다. 둘째와 셋째 시퀀스는 새 쿼리가 하나씩이고 그 쿼리가 자기 시퀀스의 마지막 자리라
# 키를 모두 보므로, 어긋남이 커도 더 볼 키가 없습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: find the leaking rows
#
# Now the sequences have $4, 2, 3$ keys and $3, 1, 1$ new queries. With bottom-right over the whole row, which rows see
# future keys? Compare the whole row's offset with each sequence's.
#
# <details markdown><summary>Answer</summary>
#
# The whole row's offset is the last sequence's, `cu_k[-1] - cu_q[-1]` = `4`{ data-claim="lab: int(ck[-1] - cq[-1])" }. The first sequence's share is
# `1`{ data-claim="lab: int(ck[1] - cq[1])" }, so the first two queries of the first sequence see future keys: the wrong rows are
# `[0, 1]`{ data-claim="lab: leaked_rows" }. The second and third sequences have one new query each, in the last place of its sequence, so it
# sees all of its keys already and a larger offset has nothing more to show it.
#
# </details>

# %%
cq, ck = torch.tensor([0, 3, 4, 5]), torch.tensor([0, 4, 6, 9])
per_seq = varlen_causal_mask(cq, ck)
blocks = [torch.ones(a, b) for a, b in zip(cq.diff(), ck.diff())]  # queries x keys
same_seq = torch.block_diag(*blocks).bool()
global_br = same_seq & torch.ones_like(per_seq).tril(int(ck[-1] - cq[-1]))
leaked_rows = (global_br & ~per_seq).any(-1).nonzero().flatten().tolist()
print("rows that see future keys:", leaked_rows)

# %% [markdown] lang="ko"
# ## 시퀀스를 하나씩 돌린 것과 견주기
#
# 참고 구현 `attend_each`는 시퀀스마다 `causal_lower_right`로 SDPA를 부릅니다. 한 줄에 SDPA를 한 번 한 결과와 줄마다 견줍니다.

# %% [markdown] lang="en"
# ## Against each sequence alone
#
# The reference `attend_each` calls SDPA with `causal_lower_right` per sequence. The result of one SDPA call over the
# packed row is compared with it row by row.

# %%
# snippet: varlen/each.py

# %% [markdown] lang="ko"
# ### 해 보기: 바로 위의 예로
#
# 앞의 해 보기의 `cq`, `ck`와 마스크 `per_seq`, `global_br`로 출력을 견주어 보세요. 어느 줄이 달라질까요?
#
# <details markdown><summary>답</summary>
#
# `per_seq`는 `attend_each`와 `< 1e-6`{ data-claim="lab: gap_lab['per sequence'].max()" }으로 같고, `global_br`는 미래의 키를 본 줄
# `[0, 1]`{ data-claim="lab: torch.where(gap_lab['global bottom-right'] > 1e-6)[0]" }에서만 달라집니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: with the example just above
#
# Compare the outputs for the previous exercise's `cq`, `ck` and the masks `per_seq` and `global_br`. Which rows differ?
#
# <details markdown><summary>Answer</summary>
#
# `per_seq` matches `attend_each` to `< 1e-6`{ data-claim="lab: gap_lab['per sequence'].max()" }, and `global_br` differs only in the rows that saw
# future keys, `[0, 1]`{ data-claim="lab: torch.where(gap_lab['global bottom-right'] > 1e-6)[0]" }.
#
# </details>

# %%
torch.manual_seed(1)
q3, k3, v3 = torch.randn(5, 8), torch.randn(9, 8), torch.randn(9, 8)
ref = attend_each(q3, k3, v3, cq, ck)
masks_lab = {"per sequence": per_seq, "global bottom-right": global_br}
gap_lab = {name: (sdpa(q3, k3, v3, attn_mask=m) - ref).abs().amax(-1)
           for name, m in masks_lab.items()}
print({name: torch.where(g > 1e-6)[0].tolist() for name, g in gap_lab.items()})

# %% [markdown] lang="ko"
# ## FlexAttention의 mask_mod
#
# 같은 마스크를 토큰마다의 시퀀스 번호 텐서로 쓴 `mask_mod`입니다. CPU에서는 eager 모드로 돌고, 그 경고만 메시지로 거릅니다.

# %% [markdown] lang="en"
# ## A FlexAttention mask_mod
#
# The same masks as a `mask_mod` that looks up each token's sequence index in a tensor. On a CPU it runs eagerly, and
# only that warning is filtered, by its message.

# %%
# snippet: varlen/flex.py
