"""The chunked chapter's functions, for lengths the page does not show.

`chunk_mask` (snippets/chunked/masks.py) must be torch's `causal_lower_right` materialised, and the
chunks' masks must stack up to the full causal mask. `chunked_prefill` (snippets/chunked/prefill.py),
with any prompt length and any split into chunk sizes, must give what one causal pass gives.
`attend_cached` (snippets/chunked/prefix.py), a suffix after a shared cached prefix, must give that
request's rows of one causal pass over prefix and suffix. `attend_split` and `merge`
(snippets/chunked/split_kv.py), over any number of key splits, empty and all-masked splits among
them, and rows that see no key, must give F.scaled_dot_product_attention's output (0 for such a
row) and the masked scores' logsumexp (-inf for such a row), with no nan. Bad inputs raise with a
message naming the problem.

Tolerances: float64 throughout (the chunked and the full pass add the same terms in another order,
so they agree to rounding, well within 1e-12).
"""

import warnings

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.bias import causal_lower_right

chunk_mask = project.function("chunked/masks.py", "chunk_mask")
chunked_prefill = project.function("chunked/prefill.py", "chunked_prefill")
attend_cached = project.function("chunked/prefix.py", "attend_cached")
attend_split = project.function("chunked/split_kv.py", "attend_split")
merge = project.function("chunked/split_kv.py", "merge")

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)
TOL = {"rtol": 1e-12, "atol": 1e-12}
SEEDS = st.integers(0, 2**16)


def _randn(seed, *shapes):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(shape, generator=g, dtype=torch.float64) for shape in shapes]


@SETTINGS
@given(st.integers(1, 12), st.integers(0, 12))
def test_chunk_mask_is_torchs_lower_right_causal_bias(chunk_len, cached_len):
    mask = chunk_mask(chunk_len, cached_len)
    assert mask.dtype == torch.bool and mask.shape == (chunk_len, cached_len + chunk_len)
    assert torch.equal(mask, causal_lower_right(chunk_len, cached_len + chunk_len)._materialize())
    assert mask[:, :cached_len].all()  # every cached key, for every query of the chunk
    assert mask.sum(dim=-1).tolist() == [cached_len + i + 1 for i in range(chunk_len)]


@st.composite
def prompts(draw):
    """A prompt length, a split of it into chunk sizes, heads, d_k, d_v and a seed."""
    length = draw(st.integers(1, 16))
    cuts = sorted(draw(st.sets(st.integers(1, length - 1), max_size=length - 1))) if length > 1 else []
    bounds = [0, *cuts, length]
    sizes = [b - a for a, b in zip(bounds, bounds[1:])]
    return length, sizes, draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(SEEDS)


@SETTINGS
@given(prompts())
def test_chunked_prefill_equals_one_prefill(prompt):
    length, sizes, heads, d_k, d_v, seed = prompt
    q, k, v = _randn(seed, (heads, length, d_k), (heads, length, d_k), (heads, length, d_v))
    whole = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(chunked_prefill(q, k, v, sizes), whole, **TOL)
    # the chunks' masks, padded to the prompt's keys, stack up to the full causal mask
    starts = [sum(sizes[:j]) for j in range(len(sizes))]
    rows = [F.pad(chunk_mask(c, s), (0, length - s - c)) for c, s in zip(sizes, starts)]
    assert torch.equal(torch.cat(rows), torch.ones(length, length, dtype=torch.bool).tril())


@SETTINGS
@given(st.integers(1, 10), st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(1, 3),
       st.integers(1, 5), SEEDS)
def test_a_cached_shared_prefix_equals_each_request_in_full(prefix_len, suffix_lens, heads, d, seed):
    prefix_q, prefix_k, prefix_v = _randn(seed, *[(heads, prefix_len, d)] * 3)
    prefix_out = F.scaled_dot_product_attention(prefix_q, prefix_k, prefix_v, is_causal=True)
    for n, (q, k, v) in zip(suffix_lens, (_randn(seed + i + 1, *[(heads, n, d)] * 3)
                                          for i, n in enumerate(suffix_lens))):
        full = F.scaled_dot_product_attention(torch.cat([prefix_q, q], -2), torch.cat([prefix_k, k], -2),
                                              torch.cat([prefix_v, v], -2), is_causal=True)
        torch.testing.assert_close(attend_cached(q, k, v, prefix_k, prefix_v), full[..., prefix_len:, :], **TOL)
        torch.testing.assert_close(prefix_out, full[..., :prefix_len, :], **TOL)  # the prefix's rows: once


@st.composite
def split_caches(draw):
    """A decode (or a few queries) against keys cut into splits of any sizes, empty ones included,
    with a keep-mask hiding whole random splits and random keys, and some rows that see no key."""
    l_q, n_keys, d = draw(st.integers(1, 3)), draw(st.integers(0, 24)), draw(st.integers(1, 6))
    cuts = sorted(draw(st.lists(st.integers(0, n_keys), max_size=8)))  # repeated cuts: empty splits
    bounds = [0, *cuts, n_keys]
    hidden = draw(st.lists(st.booleans(), min_size=len(bounds) - 1, max_size=len(bounds) - 1))
    return l_q, n_keys, d, bounds, hidden, draw(st.floats(0, 0.6)), draw(SEEDS)


@SETTINGS
@given(split_caches())
def test_merged_splits_equal_full_attention_with_all_masked_splits(case):
    l_q, n_keys, d, bounds, hidden, share, seed = case
    q, k, v = _randn(seed, (2, l_q, d), (2, n_keys, d), (2, n_keys, d))
    keep = torch.rand(l_q, n_keys, generator=torch.Generator().manual_seed(seed)) >= share
    for (a, b), hide in zip(zip(bounds, bounds[1:]), hidden):
        keep[:, a:b] &= not hide  # a whole split masked
    parts = [attend_split(q, k[..., a:b, :], v[..., a:b, :], keep[:, a:b]) for a, b in zip(bounds, bounds[1:])]
    out, lse = merge(parts)
    assert not out.isnan().any() and not lse.isnan().any()
    if n_keys:
        full = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)  # 0 where a row sees no key
        scores = (q @ k.mT / d**0.5).masked_fill(~keep, -torch.inf)
        torch.testing.assert_close(lse, torch.logsumexp(scores, dim=-1), **TOL)
    else:
        full = torch.zeros_like(q)
    torch.testing.assert_close(out, full, **TOL)
    no_key = ~keep.any(dim=-1)
    assert torch.isneginf(lse[:, no_key]).all() and (out[:, no_key] == 0).all()


def test_chunk_mask_refuses_bad_input():
    for args, error, message in [
        ((0, 3), ValueError, "chunk_len must be at least 1, got 0"),
        ((2, -1), ValueError, "cached_len must be at least 0, got -1"),
        ((2.0, 3), TypeError, "chunk_len must be an int, got float"),
        ((2, True), TypeError, "cached_len must be an int, got bool"),
    ]:
        with pytest.raises(error, match=message):
            chunk_mask(*args)


def test_chunked_prefill_refuses_bad_input():
    q, k, v = _randn(0, (1, 5, 4), (1, 5, 4), (1, 5, 3))
    with pytest.raises(ValueError, match="a chunk of 3 is longer than the 2 tokens left"):
        chunked_prefill(q, k, v, [3, 3])
    with pytest.raises(ValueError, match=r"the chunks \[2, 2\] leave 1 tokens of the prompt"):
        chunked_prefill(q, k, v, [2, 2])
    for size in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="a chunk size must be an int >= 1, got"):
            chunked_prefill(q, k, v, [size, 5])
    with pytest.raises(ValueError, match=r"q \(1, 5, 4\), k \(1, 4, 4\), v \(1, 5, 3\): want"):
        chunked_prefill(q, k[:, :4], v, [5])
    with pytest.raises(ValueError, match=r"q \(1, 5, 4\), k \(1, 5, 4\), v \(1, 4, 3\): want"):
        chunked_prefill(q, k, v[:, :4], [5])


def test_attend_cached_refuses_bad_input():
    q, k, v, ck, cv = _randn(0, (1, 2, 4), (1, 2, 4), (1, 2, 3), (1, 5, 4), (1, 5, 3))
    attend_cached(q, k, v, ck, cv)  # the good call runs
    for bad in [(q, k[..., :3], v, ck, cv), (q, k, v, ck[..., :3], cv), (q, k, v, ck, cv[:, :4]),
                (q, k, v, ck, cv[..., :2]), (q, k, v, ck[None], cv[None])]:
        with pytest.raises(ValueError, match=r"q, k, v, cached_k, cached_v \[.*\]: want \(\.\.\., n, d_k\) twice"):
            attend_cached(*bad)


def test_attend_split_and_merge_refuse_bad_input():
    q, k, v = _randn(0, (2, 1, 4), (2, 6, 4), (2, 6, 3))
    keep = torch.ones(1, 6, dtype=torch.bool)
    with pytest.raises(ValueError, match=r"q \(2, 1, 4\), k \(2, 6, 5\), v \(2, 6, 3\): want"):
        attend_split(q, torch.zeros(2, 6, 5, dtype=torch.float64), v, keep)
    with pytest.raises(ValueError, match=r"q \(2, 1, 4\), k \(3, 6, 4\), v \(3, 6, 3\): want"):
        attend_split(q, torch.zeros(3, 6, 4, dtype=torch.float64), torch.zeros(3, 6, 3, dtype=torch.float64), keep)
    with pytest.raises(ValueError, match=r"q \(2, 1, 4\), k \(2, 6, 4\), v \(2, 5, 3\): want"):
        attend_split(q, k, v[:, :5], keep)
    with pytest.raises(TypeError, match="mask must be a bool keep-mask, got torch.int64"):
        attend_split(q, k, v, keep.long())
    with pytest.raises(ValueError, match="merge needs at least one split, got an empty list"):
        merge([])


def test_a_naive_merge_gives_nan_where_the_guarded_one_gives_the_answer():
    # snippets/chunked/empty_split.py, as the page states it: only both guards give no nan
    ways = project.Names("chunked/empty_split.py")
    assert ways["nans"][-1] == 0 and all(n > 0 for n in ways["nans"][:-1])
    assert ways["same"][-1] == [True, True]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the guarded path warns of nothing either
        out, lse = merge([attend_split(*_randn(1, (1, 2), (0, 2), (0, 3)), torch.ones(1, 0, dtype=torch.bool))])
    assert torch.equal(out, torch.zeros(1, 3, dtype=torch.float64)) and torch.isneginf(lse).all()
