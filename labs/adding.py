# %% [markdown] lang="ko"
# # 실습: 마스크는 왜 더하나
#
# [마스크는 왜 더하나](../adding.md) 장의 예제를 그대로 돌려 보고, 조금씩 바꿔 보는 노트북입니다. 위에서부터
# 차례로 실행하세요. "해 보기"마다 바로 아래 셀에서 직접 고쳐 볼 수 있고, 답은 접힌 상자에 있습니다.
# 이 페이지의 출력은 사이트를 빌드할 때 실제로 실행한 결과입니다.
#
# 모든 예제는 같은 점수 `S`를 씁니다. 줄은 "나는", "학교에", "간다" <span data-claim="adding/scores.py: len(queries)">세</span> 쿼리이고, 열은 그 <span data-claim="adding/scores.py: int(keep.sum())">세</span> 토큰과 `[PAD]` <span data-claim="adding/scores.py: int((~keep).sum())">두</span>
# 개입니다. `keep`은 진짜 토큰이 `True`인 불리언 마스크입니다.

# %% [markdown] lang="en"
# # Lab: Why masks are added
#
# This notebook runs the examples from [Why masks are added: what to add, and in which dtype](../adding.md)
# unchanged, ready for you to modify one step at a time. Run the cells from the top, in order. Each "Try it" is
# followed by a cell you can edit, and its answer is in the folded box. The outputs on this page come from the run
# made when the site was built.
#
# Every example uses the same scores `S`. The rows are the <span data-claim="adding/scores.py: len(queries)">three</span> queries "I", "go" and "home", and the columns are those
# <span data-claim="adding/scores.py: int(keep.sum())">three</span> tokens and <span data-claim="adding/scores.py: int((~keep).sum())">two</span> `[PAD]`. `keep` is the boolean mask that is `True` for the real tokens.

# %% [markdown] lang="ko"
# ## $0$을 곱하면

# %% [markdown] lang="en"
# ## Multiplying by $0$

# %%
# snippet: adding/multiply_zero.py

# %% [markdown] lang="ko"
# ### 해 보기: [PAD]가 더 많으면
#
# 짧은 문장을 긴 문장에 맞추다 보면 `[PAD]`가 두 개가 아니라 수십 개 붙기도 합니다. 점수에 $0$을 곱하는 방식에서
# `[PAD]`를 늘리면(`n_pad in (2, 10, 50)`) `[PAD]`가 가져가는 몫은 어떻게 될까요?
#
# <details markdown><summary>답</summary>
#
# `[PAD]`가 늘수록 몫이 커져 $1$에 다가갑니다. `n_pad = 50`이면 줄마다
# `[0.851, 0.9095, 0.9793]`{ data-claim="lab: shares[50]" }입니다. $0$을 곱한 `[PAD]`는 한 칸마다 분모에
# $e^0 = 1$을 보태므로, 몫은 $\tfrac{n}{n + \sum_j e^{S_j}}$ 입니다($n$은 `[PAD]`의 수, 합은 진짜 토큰만). 같은
# 문장이라도 배치에서 어떤 긴 문장과 함께 묶였느냐에 따라 출력이 달라진다는 뜻입니다. 진짜 토큰의 점수가 작은 "간다"
# 줄이 가장 먼저 `[PAD]`에 잠식됩니다(어느 `n_pad`에서나 몫이 가장 큰 줄인지 물으면
# `True`{ data-claim="lab: all(int(s.argmax()) == 2 for s in shares.values())" }).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: more `[PAD]`
#
# When a short sentence is padded to the length of a long one, it can get dozens of `[PAD]`, not just two. If you
# multiply the scores by $0$ and raise the number of `[PAD]` (`n_pad in (2, 10, 50)`), what happens to the share
# `[PAD]` takes?
#
# <details markdown><summary>Answer</summary>
#
# The more `[PAD]`, the larger the share, approaching $1$. At `n_pad = 50` it is
# `[0.851, 0.9095, 0.9793]`{ data-claim="lab: shares[50]" } in the three rows. Each `[PAD]` multiplied by $0$ adds
# $e^0 = 1$ to the denominator, so the share is $\tfrac{n}{n + \sum_j e^{S_j}}$ ($n$ is the number of `[PAD]`, and the
# sum is over the real tokens only). So the same sentence gives a different output depending on which long sentence it
# was batched with. The "home" row, whose real tokens have small scores, is the first to be taken over by `[PAD]`
# (asked whether it has the largest share at every `n_pad`: `True`{ data-claim="lab: all(int(s.argmax()) == 2 for s in shares.values())" }).
#
# </details>

# %%
S_real = S[:, keep]  # the three real keys
shares = {}  # number of [PAD] -> the share they take in each row
for n_pad in (2, 10, 50):
    padded = torch.cat([S_real, torch.zeros(3, n_pad)], dim=-1)  # [PAD] * 0 = 0
    shares[n_pad] = torch.softmax(padded, dim=-1)[:, 3:].sum(dim=-1)
    print(f"{n_pad:>2} [PAD]: share per row", shares[n_pad])

# %% [markdown] lang="ko"
# ## −∞를 곱하면

# %% [markdown] lang="en"
# ## Multiplying by −∞

# %%
# snippet: adding/multiply_inf.py

# %% [markdown] lang="ko"
# ### 해 보기: [PAD] 점수가 모두 양수라면
#
# 곱하기 $-\infty$는 음수 점수를 $+\infty$로 뒤집어서 망가졌습니다. 그러면 `[PAD]` 칸의 점수가 모두 양수일 때는
# 맞는 답을 낼까요? 아래 셀은 `[PAD]` 칸의 점수만 절댓값으로 바꾸고, 진짜 토큰만으로 한 소프트맥스와 비교합니다.
#
# <details markdown><summary>답</summary>
#
# "나는"과 "학교에" 줄은 정답이 나옵니다. 하지만 "간다" 줄은 여전히 `nan`입니다(줄마다 정답과 같은지 물으면
# `[True, True, False]`{ data-claim="lab: matches" }, "간다" 줄이 모두 `nan`인지 물으면
# `True`{ data-claim="lab: bool(weights_pos[2].isnan().all())" }). 그 줄의 첫째 `[PAD]` 점수가
# 정확히 $0$이라 절댓값도 $0$이고, $0 \times (-\infty)$는 `nan` 이기 때문입니다. 곱하기 방식이 맞는지는 점수
# **값**에 달려 있어서, 작은 예나 운 좋은 무작위 점수로 한 시험은 통과해 버립니다. 더하기는 어떤 점수에서도 같은
# 답을 내므로 이런 함정이 없습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: when every `[PAD]` score is positive
#
# Multiplying by $-\infty$ broke because it flipped negative scores to $+\infty$. Does it give the right answer when
# every `[PAD]` score is positive? The cell below replaces only the `[PAD]` scores with their absolute values and compares
# with a softmax over the real tokens alone.
#
# <details markdown><summary>Answer</summary>
#
# The "I" and "go" rows come out right. But the "home" row is still `nan` (asked row by row whether it matches:
# `[True, True, False]`{ data-claim="lab: matches" }; asked whether the "home" row is all `nan`:
# `True`{ data-claim="lab: bool(weights_pos[2].isnan().all())" }). That row's first `[PAD]` score is exactly
# $0$, so its absolute value is $0$ too, and $0 \times (-\infty)$ is `nan`. Whether multiplication works depends on the
# score **values**, so a test with a small example or lucky random scores passes. Adding gives the same answer for any
# scores, so it has no such trap.
#
# </details>

# %%
S_pos = S.clone()
S_pos[:, ~keep] = S[:, ~keep].abs()  # every [PAD] score >= 0
weights_pos = torch.softmax(S_pos * factor, dim=-1)
print(weights_pos)
right = torch.softmax(S[:, keep], dim=-1)  # softmax over the real tokens only
matches = [torch.allclose(w, r) for w, r in zip(weights_pos[:, keep], right)]
print("row matches:", matches)

# %% [markdown] lang="ko"
# ## −∞를 더하면, 그리고 항등식

# %% [markdown] lang="en"
# ## Adding −∞, and the identity

# %%
# snippet: adding/add_inf.py

# %%
# snippet: adding/identity.py

# %% [markdown] lang="ko"
# ### 해 보기: 마스크 방향을 뒤집으면
#
# `masked_fill(~keep, ...)`의 `~`를 빠뜨려 `masked_fill(keep, ...)`로 쓰면 어떻게 될까요? 오류가 날까요, 줄의 합은
# 여전히 $1$ 일까요?
#
# <details markdown><summary>답</summary>
#
# 오류는 나지 않고, 줄의 합도 여전히 `1.0000`{ data-claim="lab: weights_flipped.sum(dim=-1)" }입니다. 다만 진짜
# 토큰 <span data-claim="lab: int(keep.sum())">세</span> 칸이 정확히 `0`{ data-claim="lab: weights_flipped[:, keep]" }이
# 되고 가중치가 모두 `[PAD]` <span data-claim="lab: int((~keep).sum())">두</span> 칸에 갑니다. 가산 마스크는 어느 칸을 가리든 성실히 가리므로, "합이 $1$ 인가", "`nan`이 없는가" 같은 검사로는
# 방향이 틀린 것을 잡을 수 없습니다. 가린 칸이 `[PAD]` 인지를 직접 확인해야 합니다(아래 셀의 마지막 줄).
#
# </details>

# %% [markdown] lang="en"
# ### Try it: flipping the mask
#
# What happens if you drop the `~` from `masked_fill(~keep, ...)` and write `masked_fill(keep, ...)`? Is there an error?
# Do the rows still sum to $1$?
#
# <details markdown><summary>Answer</summary>
#
# There is no error, and the rows still sum to `1.0000`{ data-claim="lab: weights_flipped.sum(dim=-1)" }. But the
# <span data-claim="lab: int(keep.sum())">three</span> real tokens get exactly `0`{ data-claim="lab: weights_flipped[:, keep]" }
# and all the weight goes to the <span data-claim="lab: int((~keep).sum())">two</span> `[PAD]`. An additive mask faithfully masks whichever cells it is told to, so checks such as "does it sum
# to $1$?" or "is there no `nan`?" cannot catch a flipped polarity. You have to check directly that the masked cells
# are the `[PAD]` ones (the last line of the cell below).
#
# </details>

# %%
M_flipped = torch.zeros(5).masked_fill(keep, float("-inf"))  # forgot the ~
weights_flipped = torch.softmax(S + M_flipped, dim=-1)
print(weights_flipped)
print("row sums:", weights_flipped.sum(dim=-1))
print("weight on [PAD] is 0:", bool((weights_flipped[:, ~keep] == 0).all()))

# %% [markdown] lang="ko"
# ## 소프트맥스 뒤에 가리면

# %% [markdown] lang="en"
# ## Masking after the softmax

# %%
# snippet: adding/after.py

# %% [markdown] lang="ko"
# ### 해 보기: float32에서는
#
# 예제는 float16에서 `[PAD]` 점수 `20`{ data-claim="adding/after.py: S16[0, 3]" } 하나로 "나는" 줄을 `nan`으로
# 만들었습니다. float32는 범위가 훨씬 넓습니다. `[PAD]` 점수를 올리며(`pad_score in (20.0, 100.0, 105.0, 110.0)`)
# "소프트맥스 뒤에 가리기"의 "나는" 줄을 보세요. 정답은 먼저 더한 쪽입니다.
#
# <details markdown><summary>답</summary>
#
# `20`{ data-claim="lab: max(s for s in kinds if kinds[s] == 'right')" }에서는 float32가 버팁니다. 하지만
# `100`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'wrong')" }에서는 `nan`도 없이 **조용히** 틀린 값이
# 나옵니다. 진짜 토큰의 $e^{S_j - 100}$이 float32의 비정규수 구간까지 내려가 유효숫자를 대부분 잃었기 때문입니다.
# `105`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'one-hot')" }에서는 작은
# <span data-claim="lab: int((rows[105.0][keep] == 0).sum())">두</span> 칸이 $0$으로 언더플로하고 가장 큰 칸만 남아,
# 다시 나누면 원-핫이 됩니다. 역시 오류는 없습니다.
# `110`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'nan')" }에서야
# <span data-claim="lab: int(keep.sum())">세</span> 칸이 모두 $0$이 되어 $\tfrac00$의 `nan`이 나옵니다. 먼저 더한
# 쪽은 `[PAD]`가 최댓값 후보에서 빠지므로 점수가 얼마든 같은 답입니다(<span data-claim="lab: len(firsts)">네</span> 점수에서 모두 같은지 물으면
# `True`{ data-claim="lab: all(torch.equal(r, early[0]) for r in firsts.values())" }). 자료형마다의 언더플로 경계는 [지수함수 장](../exp.md#underflow)에 있습니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: in float32
#
# The example made the "I" row `nan` in float16 with a single `[PAD]` score of `20`{ data-claim="adding/after.py: S16[0, 3]" }.
# float32 has a much wider range. Raise the `[PAD]` score (`pad_score in (20.0, 100.0, 105.0, 110.0)`) and watch the
# "I" row of "mask after the softmax". The add-first route is the right answer.
#
# <details markdown><summary>Answer</summary>
#
# At `20`{ data-claim="lab: max(s for s in kinds if kinds[s] == 'right')" }, float32 holds up. But at
# `100`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'wrong')" } you get a **silently** wrong value, without
# even a `nan`: the real tokens' $e^{S_j - 100}$ have dropped into float32's subnormal range and lost most of their
# significant digits. At `105`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'one-hot')" } the
# <span data-claim="lab: int((rows[105.0][keep] == 0).sum())">two</span> smaller cells underflow to $0$ and only the
# largest remains, so dividing again gives a one-hot row. Again no error. Only at
# `110`{ data-claim="lab: min(s for s in kinds if kinds[s] == 'nan')" } do all
# <span data-claim="lab: int(keep.sum())">three</span> cells become $0$, giving the `nan` of $\tfrac00$. In the
# add-first route `[PAD]` never competes for the maximum, so the answer is the same whatever its score (asked whether
# it is the same at all <span data-claim="lab: len(firsts)">four</span> scores: `True`{ data-claim="lab: all(torch.equal(r, early[0]) for r in firsts.values())" }). The underflow edges of each dtype are
# in [Underflow by dtype](../exp.md#underflow).
#
# </details>

# %%
# by [PAD] score: row 0 masked late, row 0 masked first, and what late gives
rows, firsts, kinds = {}, {}, {}
for pad_score in (20.0, 100.0, 105.0, 110.0):
    S32 = S.clone()
    S32[0, 3] = pad_score
    late = torch.softmax(S32, dim=-1) * keep
    late = late / late.sum(dim=-1, keepdim=True)
    early = torch.softmax(S32 + M, dim=-1)
    rows[pad_score], firsts[pad_score] = late[0], early[0]
    kinds[pad_score] = ("nan" if late[0].isnan().any()
                        else "one-hot" if late[0].max() == 1
                        else "right" if torch.allclose(late[0], early[0]) else "wrong")
    print(f"[PAD] = {pad_score:g}: softmax first is {kinds[pad_score]}")
    print("  softmax first:", [round(x, 4) for x in late[0].tolist()])
    print("  mask first:   ", [round(x, 4) for x in early[0].tolist()])

# %% [markdown] lang="ko"
# ## 채움값과 검사하는 함수

# %% [markdown] lang="en"
# ## Fill values and the checking helper

# %%
# snippet: adding/fill.py

# %%
# snippet: adding/additive.py

# %% [markdown] lang="ko"
# ### 해 보기: 잘못된 입력
#
# `additive_mask`에 다음을 넣으면 각각 어떻게 될까요? ① $0$과 $1$로 된 실수 마스크, ② float16에 채움값
# `-1e9`, ③ float16에 `torch.finfo(torch.float16).min`, ④ 정수 자료형 `torch.int64`, ⑤ 채움값 $0$.
#
# <details markdown><summary>답</summary>
#
# ③ 만 마스크를 돌려줍니다. ① 은 `1`이 "참여"인지 "가림"인지 추측하지 않고 `TypeError`로 `True = keep` 규약을
# 알려 줍니다. ② 는 위 표에서 본 것처럼 float16이 `-1e9`를 담지 못해 `-inf`로 바뀌므로 `ValueError`를 내고
# `finfo.min`을 권합니다. ④ 는 정수에 $-\infty$가 없으므로 `TypeError`입니다. ⑤ 의 채움값 $0$은 아무것도
# 가리지 않으니 `ValueError`입니다. 조용히 틀린 마스크를 만드는 대신, 무엇이 틀렸는지 말하며 멈추는 것이 이
# 함수의 목적입니다. <span data-claim="lab: len(got)">다섯</span> 호출의 결과를 차례로 적으면
# `['TypeError', 'ValueError', 'mask', 'TypeError', 'ValueError']`{ data-claim="lab: list(got.values())" }입니다.
#
# </details>

# %% [markdown] lang="en"
# ### Try it: bad input
#
# What does `additive_mask` do with each of these? ① a float mask of $0$ and $1$, ② float16 with the fill value
# `-1e9`, ③ float16 with `torch.finfo(torch.float16).min`, ④ the integer dtype `torch.int64`, ⑤ the fill value
# $0$.
#
# <details markdown><summary>Answer</summary>
#
# Only ③ returns a mask. ① does not guess whether `1` means attend or masked; it raises `TypeError` stating
# the convention (its message says `True = keep`). ② raises `ValueError` and recommends `finfo.min`, since, as in
# the table above, float16 cannot hold `-1e9` and it would turn into `-inf`. ④ is a `TypeError`, since integers have no $-\infty$. The fill
# value $0$ in ⑤ masks nothing, so it is a `ValueError`. The point of this helper is to stop and say what is wrong,
# instead of silently building a wrong mask. The <span data-claim="lab: len(got)">five</span> calls give, in order,
# `['TypeError', 'ValueError', 'mask', 'TypeError', 'ValueError']`{ data-claim="lab: list(got.values())" }.
#
# </details>

# %%
tries = {
    "(1) float keep": dict(keep=keep.float()),
    "(2) float16, -1e9": dict(keep=keep, dtype=torch.float16, fill=-1e9),
    "(3) float16, finfo.min": dict(keep=keep, dtype=torch.float16,
                                   fill=torch.finfo(torch.float16).min),
    "(4) int64": dict(keep=keep, dtype=torch.int64),
    "(5) fill 0": dict(keep=keep, fill=0.0),
}
got = {}  # what each call gave: a mask, or the name of its error
for label, kwargs in tries.items():
    try:
        print(label, "->", additive_mask(**kwargs).tolist())
        got[label] = "mask"
    except (TypeError, ValueError) as err:
        print(label, "->", type(err).__name__)
        print("   ", err)
        got[label] = type(err).__name__
