# %% [markdown] lang="ko"
# # 실습: 페이지 단위 KV 캐시
#
# [페이지 단위 KV 캐시](../paged.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.

# %% [markdown] lang="en"
# # Lab: Paged KV cache
#
# This notebook runs the examples from [Paged KV cache](../paged.md) unchanged, ready for you to modify one step at a
# time. Run the cells from the top, in order. Each "Try it" is followed by a cell you can edit, and its answer is in
# the folded box. The outputs on this page come from the run made when the site was built.

# %% [markdown] lang="ko"
# ## 페이지 풀과 블록 테이블
#
# 길이가 다른 시퀀스 <span data-claim="paged/pool.py: len(lengths)">셋</span>을 한 풀의 페이지에 담고, 페이지마다 누구의 몇 번째 블록인지 그립니다.

# %% [markdown] lang="en"
# ## The page pool and block tables
#
# <span data-claim="paged/pool.py: len(lengths)">Three</span> sequences of different lengths go into the pages of one pool, and each page is drawn with the block it
# holds.

# %%
# snippet: paged/pool.py

# %% [markdown] lang="ko"
# ### 해 보기: 블록 테이블 읽기
#
# 블록 테이블만 보고, B의 토큰 $7$과 A의 토큰 $4$, C의 토큰 $2$가 어느 페이지의 어느 슬롯에 있는지 찾아보세요. A의 토큰
# $6$은 어디에 있을까요? 아래 셀의 `slot_of`로 답을 확인합니다.
#
# <details markdown><summary>답</summary>
#
# 토큰 $t$는 논리 블록 `t // P`에 있으므로, 블록 테이블의 그 자리가 페이지이고 `t % P`가 슬롯입니다. B의 토큰 $7$은
# `(3, 3)`{ data-claim="lab: found['B', 7]" }, A의 토큰 $4$는 `(1, 0)`{ data-claim="lab: found['A', 4]" }, C의 토큰 $2$는
# `(4, 2)`{ data-claim="lab: found['C', 2]" }입니다(페이지, 슬롯). A는 토큰이 <span data-claim="lab: lengths['A']">여섯</span> 개뿐이라 토큰 $6$은 없습니다. 페이지
# `1`{ data-claim="lab: tables['A'][6 // P]" }의 슬롯 `2`{ data-claim="lab: 6 % P" }는 아직 빈 꼬리이고, `slot_of`는 그 자리를 돌려주지 않고
# `IndexError`를 냅니다. 꼬리의 슬롯을 토큰처럼 읽는 것이 바로 이 장의 새는 버그입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: reading a block table
#
# From the block tables alone, find the page and slot of B's token $7$, A's token $4$ and C's token $2$. Where is A's
# token $6$? The cell below checks the answers with `slot_of`.
#
# <details markdown><summary>Answer</summary>
#
# Token $t$ is in logical block `t // P`, so that entry of the block table is its page, and `t % P` is its slot. B's
# token $7$ is at `(3, 3)`{ data-claim="lab: found['B', 7]" }, A's token $4$ at `(1, 0)`{ data-claim="lab: found['A', 4]" },
# and C's token $2$ at `(4, 2)`{ data-claim="lab: found['C', 2]" } (page, slot). A has only
# <span data-claim="lab: lengths['A']">six</span> tokens, so there is no token $6$. Slot `2`{ data-claim="lab: 6 % P" } of page
# `1`{ data-claim="lab: tables['A'][6 // P]" } is still unused tail, and `slot_of` raises an `IndexError` instead of
# returning it. Reading a tail slot as if it were a token is exactly the leak of this chapter.
#
# </details>

# %%
def slot_of(table, length, t, page_size):
    """(page, slot) of token t of a sequence, or an IndexError past its end."""
    if not 0 <= t < length:
        raise IndexError(f"token {t} is not in a sequence of {length} tokens")
    return table[t // page_size], t % page_size


asked = [("B", 7), ("A", 4), ("C", 2)]  # (sequence, token)
found = {(s, t): slot_of(tables[s], lengths[s], t, P) for s, t in asked}
print(found)
try:
    slot_of(tables["A"], lengths["A"], 6, P)
except IndexError as error:
    print("IndexError:", error)

# %% [markdown] lang="ko"
# ## 논리 순서로 모으기
#
# `gather_kv`로 모아 자른 것과, 모은 페이지 전체에 `paged_mask`를 씌운 것을 이어진 캐시와 견줍니다.

# %% [markdown] lang="en"
# ## Gathering into logical order
#
# Gathering and trimming with `gather_kv`, and masking whole pages with `paged_mask`, are compared with the contiguous
# cache.

# %%
# snippet: paged/gather.py

# %% [markdown] lang="ko"
# ### 해 보기: 잘못된 블록 테이블
#
# 블록 테이블에서 마지막 페이지를 빼면, 또는 풀에 없는 페이지 $9$를 넣으면 `gather_kv`는 어떻게 할까요?
#
# <details markdown><summary>답</summary>
#
# 둘 다 문제를 밝힌 `ValueError`로 거절합니다. 페이지 <span data-claim="lab: len(short)">두</span> 개로는 토큰 `8`{ data-claim="lab: len(short) * P" } 개밖에 담지 못해
# 길이 `10`{ data-claim="lab: n" }이 넘치고, 페이지 $9$는 풀의 페이지 `8`{ data-claim="lab: len(pool_k)" } 개 밖에 있습니다. 조용히 잘린 캐시나
# 남의 페이지를 읽는 대신 바로 멈춥니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: a wrong block table
#
# What does `gather_kv` do if the last page is dropped from the block table, or if page $9$, which is not in the
# pool, is put in?
#
# <details markdown><summary>Answer</summary>
#
# Both are refused with a `ValueError` that names the problem. <span data-claim="lab: len(short)">Two</span> pages hold only
# `8`{ data-claim="lab: len(short) * P" } tokens, fewer than the length `10`{ data-claim="lab: n" }, and page $9$ lies outside
# the pool's `8`{ data-claim="lab: len(pool_k)" } pages. It stops right there instead of quietly reading a truncated cache or
# someone else's page.
#
# </details>

# %%
short, outside = table[:-1], table[:-1] + [9]
for bad in (short, outside):
    try:
        gather_kv(pool_k, pool_v, bad, n)
    except ValueError as error:
        print("ValueError:", error)

# %% [markdown] lang="ko"
# ## 꼬리를 가리지 않으면
#
# 재활용된 페이지의 꼬리에 끝난 시퀀스의 키와 값이 남아 있을 때, 꼬리를 가린 것과 가리지 않은 것을 견줍니다.

# %% [markdown] lang="en"
# ## Without the tail mask
#
# With a finished sequence's keys and values left in the tail of a recycled page, the output with the tail masked is
# compared with the output without.

# %%
# snippet: paged/leak.py

# %% [markdown] lang="ko"
# ### 해 보기: 새는 곳 찾기
#
# 새 시퀀스가 토큰 하나를 더 쓰면 페이지 $3$의 슬롯 $2$에 들어가고, 끝난 시퀀스의 토큰 하나를 덮어씁니다. 그러면 꼬리에
# 남은 옛 슬롯은 몇 개이고, 꼬리를 가리지 않은 출력은 여전히 틀릴까요?
#
# <details markdown><summary>답</summary>
#
# 옛 슬롯은 `1`{ data-claim="lab: int((~keep7).sum())" } 개 남고, 가리지 않은 출력은 여전히 `> 0.1`{ data-claim="lab: grown['tail not masked']" }만큼 어긋납니다.
# 가리면 `< 1e-6`{ data-claim="lab: grown['tail masked']" } 안에서 같습니다. 꼬리가 한 슬롯이라도 남아 있는 한 새는 것은 멈추지 않고,
# 시퀀스 길이가 $P$의 배수가 되어 꼬리가 없어지는 순간에만 우연히 맞습니다. 그래서 이 버그는 길이에 따라 나타났다
# 사라졌다 하고, 짧은 시험으로는 놓치기 쉽습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: spotting the leak
#
# If the new sequence writes one more token, it goes into slot $2$ of page $3$ and overwrites one of the finished
# sequence's tokens. How many old slots are then left in the tail, and is the output without the tail mask still
# wrong?
#
# <details markdown><summary>Answer</summary>
#
# `1`{ data-claim="lab: int((~keep7).sum())" } old slot is left, and the output without the mask is still off by
# `> 0.1`{ data-claim="lab: grown['tail not masked']" }; with the mask it agrees to within
# `< 1e-6`{ data-claim="lab: grown['tail masked']" }. As long as a single tail slot is left, the leak goes on; it is right
# only by accident, at the moment the length is a multiple of $P$ and there is no tail. So this bug comes and goes
# with the length, and short tests easily miss it.
#
# </details>

# %%
k7, v7 = torch.randn(2, d, generator=g)  # the new sequence's token 6
pool_k[3, 2], pool_v[3, 2] = k7, v7  # slot 6 % P of its last page, page 3
k_grown = torch.cat([kv["new"][0], k7[None]])
v_grown = torch.cat([kv["new"][1], v7[None]])
keys, values = pool_k[table].flatten(0, 1), pool_v[table].flatten(0, 1)
keep7 = torch.arange(len(keys)) < 7
own_step = sdpa(q, k_grown, v_grown)
outs = {"tail masked": sdpa(q, keys, values, attn_mask=keep7),
        "tail not masked": sdpa(q, keys, values)}
grown = {s: (out - own_step).abs().max().item() for s, out in outs.items()}
print("old slots left:", int((~keep7).sum()))
print({s: round(x, 4) for s, x in grown.items()})

# %% [markdown] lang="ko"
# ## 복사 없이 나누기
#
# A의 프롬프트 페이지를 B가 `fork`로 나눠 받고, 저마다 토큰 하나를 붙입니다. 덜 찬 공유 페이지는 쓰기 전에 복사합니다.

# %% [markdown] lang="en"
# ## Sharing without copies
#
# B gets A's prompt pages through `fork`, and each appends a token. A partly filled shared page is copied before it is
# written.

# %%
# snippet: paged/share.py

# %% [markdown] lang="ko"
# ### 해 보기: 복사를 빼먹으면
#
# 쓰기 시 복사 없이 A와 B가 다음 토큰을 공유 페이지에 그대로 쓰면 어떻게 될까요? 두 시퀀스의 디코딩 출력을 각자의
# 이어진 캐시와 견줘 보세요.
#
# <details markdown><summary>답</summary>
#
# 두 토큰은 같은 페이지 `1`{ data-claim="lab: naive['tables']['A'][-1]" }의 같은 슬롯 `2`{ data-claim="lab: 6 % P" }에 들어가므로, 나중에 쓴 B의 토큰만 남습니다. B는 자기 캐시와
# 같지만(`< 1e-6`{ data-claim="lab: naive_gap['B']" }), A는 자기 토큰 대신 B의 토큰을 보아 `> 0.1`{ data-claim="lab: naive_gap['A']" }만큼 어긋납니다.
# 오류는 나지 않습니다. 어느 쪽이 틀리는지는 누가 나중에 썼는지에 달렸습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: skipping the copy
#
# What happens if A and B write their next tokens straight into the shared page, without copy-on-write? Compare each
# sequence's decode output with its own contiguous cache.
#
# <details markdown><summary>Answer</summary>
#
# Both tokens go to the same slot `2`{ data-claim="lab: 6 % P" } of the same page
# `1`{ data-claim="lab: naive['tables']['A'][-1]" }, so only B's, written later, is left. B matches its own cache
# (`< 1e-6`{ data-claim="lab: naive_gap['B']" }), but A sees B's token instead of its own and is off by
# `> 0.1`{ data-claim="lab: naive_gap['A']" }. No error is raised, and which of the two is wrong depends on who wrote
# last.
#
# </details>

# %%
naive = {"kv": torch.zeros(8, P, 2, d), "refs": torch.zeros(8, dtype=torch.long),
         "tables": {}, "lengths": {}}
for kv in own["A"][:6]:
    append(naive, "A", kv)
fork(naive, "A", "B")
for s in "AB":  # no copy on write: both write slot 6 % P of the shared last page
    naive["kv"][naive["tables"][s][-1], 6 % P] = own[s][-1]
    naive["lengths"][s] = 7
naive_gap = {s: (sdpa(q, *naive["kv"][t].flatten(0, 1)[:7].unbind(1))
                 - sdpa(q, *own[s].unbind(1))).abs().max().item()
             for s, t in naive["tables"].items()}
print("tables:", naive["tables"])
print("gap:", {s: round(x, 4) for s, x in naive_gap.items()})

# %% [markdown] lang="ko"
# ## FlexAttention의 PagedAttention
#
# PyTorch의 실험용 `PagedAttention`을 CPU의 eager 모드로 돌려, `kv_len`을 넘길 때와 넘기지 않을 때를 견줍니다.

# %% [markdown] lang="en"
# ## PagedAttention in FlexAttention
#
# PyTorch's experimental `PagedAttention` runs eagerly on CPU, with and without `kv_len`.

# %%
# snippet: paged/flex.py

# %% [markdown] lang="ko"
# ## 캐시 메모리
#
# 가장 긴 시퀀스에 맞춰 패딩할 때와 페이지로 담을 때, 비어 있는 캐시 메모리를 견줍니다.

# %% [markdown] lang="en"
# ## Cache memory
#
# The cache memory left empty when padding to the longest sequence is compared with paging.

# %%
# snippet: paged/memory.py
