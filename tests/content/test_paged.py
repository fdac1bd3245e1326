"""The paged chapter's functions, for pools the page does not show.

`scatter_kv` (snippets/paged/pool.py) and `gather_kv` (snippets/paged/gather.py) must be inverses over any
pool, page size and block table, with finite garbage in every slot no sequence owns; a decode step over a
sequence's whole pages with `paged_mask` must equal the step over its contiguous cache; `fork` and `append`
(snippets/paged/share.py) must keep every sequence equal to its own contiguous cache under any order of forks
and appends, with reference counts that count the tables. Each function's bad inputs are refused with the
error the page describes.

Tolerances: float64 throughout (the masked step adds the same terms as the contiguous one, plus exact zeros,
possibly in another order: well within 1e-12). Gathering copies values, so it is compared exactly.
"""

import math

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

scatter_kv = project.function("paged/pool.py", "scatter_kv")
gather_kv = project.function("paged/gather.py", "gather_kv")
paged_mask = project.function("paged/gather.py", "paged_mask")
new_page = project.function("paged/share.py", "new_page")
append = project.function("paged/share.py", "append")
fork = project.function("paged/share.py", "fork")
padded_waste = project.function("paged/memory.py", "padded_waste")
paged_waste = project.function("paged/memory.py", "paged_waste")

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)
TOL = {"rtol": 1e-12, "atol": 1e-12}


@st.composite
def pools(draw):
    """A pool of finite garbage, a page size, and sequences of any lengths (empty ones too) whose block
    tables take pages of a random permutation, each table perhaps a page longer than its length needs."""
    page_size, n_pages, d = draw(st.integers(1, 6)), draw(st.integers(1, 12)), draw(st.integers(1, 5))
    order = draw(st.permutations(range(n_pages)))
    tables, lengths = [], []
    for _ in range(draw(st.integers(1, 4))):
        left = n_pages - sum(len(t) for t in tables)
        length = draw(st.integers(0, left * page_size))
        pages = math.ceil(length / page_size) + draw(st.integers(0, 1 if left * page_size - length >= page_size else 0))
        start = sum(len(t) for t in tables)
        tables.append(list(order[start:start + pages]))
        lengths.append(length)
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    pool_k, pool_v = torch.randn(2, n_pages, page_size, d, generator=g, dtype=torch.float64) * 10
    own = [torch.randn(2, n, d, generator=g, dtype=torch.float64) for n in lengths]
    return pool_k, pool_v, tables, lengths, own, g


@SETTINGS
@given(pools())
def test_gather_undoes_scatter_and_touches_no_other_slot(problem):
    pool_k, pool_v, tables, lengths, own, _ = problem
    garbage_k, garbage_v = pool_k.clone(), pool_v.clone()
    for table, (k, v) in zip(tables, own):
        scatter_kv(pool_k, pool_v, table, k, v)
    written = torch.zeros(pool_k.shape[:2], dtype=torch.bool)
    for table, n, (k, v) in zip(tables, lengths, own):
        keys, values = gather_kv(pool_k, pool_v, table, n)
        assert torch.equal(keys, k) and torch.equal(values, v)
        written.view(-1)[[table[t // pool_k.shape[1]] * pool_k.shape[1] + t % pool_k.shape[1] for t in range(n)]] = True
    assert torch.equal(pool_k[~written], garbage_k[~written]) and torch.equal(pool_v[~written], garbage_v[~written])


@SETTINGS
@given(pools())
def test_masked_step_over_whole_pages_equals_the_contiguous_cache(problem):
    pool_k, pool_v, tables, lengths, own, g = problem
    page_size, d = pool_k.shape[1], pool_k.shape[2]
    for table, (k, v) in zip(tables, own):
        scatter_kv(pool_k, pool_v, table, k, v)
    for table, n, (k, v) in zip(tables, lengths, own):
        keep = paged_mask(table, n, page_size)
        assert keep.dtype == torch.bool and keep.shape == (len(table) * page_size,)
        assert keep.tolist() == [True] * n + [False] * (len(table) * page_size - n)
        if n == 0:
            continue  # no key to attend to: nothing to compare
        q = torch.randn(1, d, generator=g, dtype=torch.float64)
        reference = F.scaled_dot_product_attention(q, k, v)
        pages_k, pages_v = pool_k[table].flatten(0, 1), pool_v[table].flatten(0, 1)
        masked = F.scaled_dot_product_attention(q, pages_k, pages_v, attn_mask=keep)
        torch.testing.assert_close(masked, reference, **TOL)
        assert torch.equal(F.scaled_dot_product_attention(q, *gather_kv(pool_k, pool_v, table, n)), reference)
        if len(table) * page_size > n:  # a tail of garbage: unmasked, it takes a share of the weight
            # (the output need not move visibly: a garbage key may score far below the real ones)
            assert (pages_k @ q[0] / d**0.5).softmax(-1)[n:].sum() > 0


@st.composite
def programs(draw):
    """A pool and a run of appends (one token to a sequence) and forks (a new sequence from one)."""
    page_size, n_pages, d = draw(st.integers(1, 4)), draw(st.integers(1, 10)), draw(st.integers(1, 4))
    steps = draw(st.lists(st.tuples(st.sampled_from(["append", "fork"]), st.integers(0, 5)), min_size=1, max_size=25))
    return page_size, n_pages, d, steps, draw(st.integers(0, 2**16))


@SETTINGS
@given(programs())
def test_copy_on_write_keeps_every_sequence_its_own(program):
    page_size, n_pages, d, steps, seed = program
    g = torch.Generator().manual_seed(seed)
    cache = {"kv": torch.randn(n_pages, page_size, 2, d, generator=g, dtype=torch.float64) * 10,
             "refs": torch.zeros(n_pages, dtype=torch.long), "tables": {}, "lengths": {}}
    own = {}  # each sequence's keys and values, as a contiguous cache holds them
    for op, pick in steps:
        names = sorted(own)
        if op == "fork" and names:
            parent, child = names[pick % len(names)], f"s{len(own)}"
            fork(cache, parent, child)
            own[child] = own[parent].clone()
        else:
            seq = names[pick % len(names)] if names and op == "append" else f"s{len(own)}"
            kv = torch.randn(2, d, generator=g, dtype=torch.float64)
            before = {s: list(t) for s, t in cache["tables"].items()}, cache["refs"].clone()
            try:
                append(cache, seq, kv)
            except ValueError as error:
                assert str(error) == f"no free page: all {n_pages} are in use"
                # a refused append changes nothing
                assert {s: list(t) for s, t in cache["tables"].items()} == before[0]
                assert torch.equal(cache["refs"], before[1])
                break
            own[seq] = torch.cat([own.get(seq, torch.zeros(0, 2, d, dtype=torch.float64)), kv[None]])
        held = torch.zeros(n_pages, dtype=torch.long)
        for seq, table in cache["tables"].items():
            held[table] += 1
            gathered = cache["kv"][table].flatten(0, 1)[:cache["lengths"][seq]]
            assert torch.equal(gathered, own[seq]), f"{seq} no longer holds its own tokens"
        assert torch.equal(held, cache["refs"])  # a page's count is the number of tables naming it
    q = torch.randn(1, d, generator=g, dtype=torch.float64)
    for seq, table in cache["tables"].items():
        n, pages = cache["lengths"][seq], cache["kv"][table].flatten(0, 1)
        if n:
            keep = torch.arange(len(pages)) < n
            torch.testing.assert_close(F.scaled_dot_product_attention(q, *pages.unbind(1), attn_mask=keep),
                                       F.scaled_dot_product_attention(q, *own[seq].unbind(1)), **TOL)


def test_a_full_shared_page_is_shared_and_a_partly_filled_one_copied():
    cache = {"kv": torch.zeros(4, 2, 2, 1), "refs": torch.zeros(4, dtype=torch.long), "tables": {}, "lengths": {}}
    for i in range(3):
        append(cache, "A", torch.full((2, 1), float(i)))
    fork(cache, "A", "B")
    assert cache["tables"] == {"A": [0, 1], "B": [0, 1]} and cache["refs"].tolist() == [2, 2, 0, 0]
    append(cache, "B", torch.full((2, 1), 9.0))  # page 1 is partly filled and shared: B copies it
    assert cache["tables"] == {"A": [0, 1], "B": [0, 2]} and cache["refs"].tolist() == [2, 1, 1, 0]
    append(cache, "A", torch.full((2, 1), 7.0))  # page 1 is A's alone now: written in place
    assert cache["tables"]["A"] == [0, 1] and cache["kv"][1, :, 0, 0].tolist() == [2.0, 7.0]
    assert cache["kv"][2, :, 0, 0].tolist() == [2.0, 9.0]
    append(cache, "A", torch.full((2, 1), 8.0))  # A's last page is full: a new page, not a copy
    assert cache["tables"]["A"] == [0, 1, 3] and cache["refs"].tolist() == [2, 1, 1, 1]


@pytest.mark.parametrize("call, match", [
    (lambda k, v: gather_kv(k, v, [0, 1], 9), "a block table of 2 pages holds 8 tokens, fewer than length 9"),
    (lambda k, v: gather_kv(k, v, [0, 3], 5), r"block table \[0, 3\] names a page outside the pool's pages 0..2"),
    (lambda k, v: gather_kv(k, v, [-1, 0], 5), r"block table \[-1, 0\] names a page outside the pool's pages 0..2"),
    (lambda k, v: gather_kv(k, v, [0], -1), "length must be >= 0, got -1"),
    (lambda k, v: paged_mask([0], 1, 0), "page_size must be > 0, got 0"),
    (lambda k, v: paged_mask([0], 1, -4), "page_size must be > 0, got -4"),
    (lambda k, v: paged_mask([0], -2, 4), "length must be >= 0, got -2"),
    (lambda k, v: paged_mask([], 1, 4), "a block table of 0 pages holds 0 tokens, fewer than length 1"),
    (lambda k, v: scatter_kv(k, v, [2], torch.zeros(5, 3), torch.zeros(5, 3)),
     "a block table of 1 pages holds 4 tokens, fewer than 5"),
    (lambda k, v: scatter_kv(k, v, [3], torch.zeros(2, 3), torch.zeros(2, 3)),
     r"block table \[3\] names a page outside the pool's pages 0..2"),
    (lambda k, v: padded_waste([]), "lengths must be a non-empty list of lengths >= 0"),
    (lambda k, v: padded_waste([3, -1]), "lengths must be a non-empty list of lengths >= 0"),
    (lambda k, v: paged_waste([3], 0), "page_size must be > 0, got 0"),
    (lambda k, v: paged_waste([-3], 4), "lengths must be a non-empty list of lengths >= 0"),
])
def test_bad_input_is_refused_with_what_is_wrong(call, match):
    pool_k, pool_v = torch.zeros(2, 3, 4, 3)  # 3 pages of 4 slots, d = 3
    with pytest.raises(ValueError, match=match):
        call(pool_k, pool_v)


def test_no_free_page_is_refused_and_changes_nothing():
    cache = {"kv": torch.zeros(1, 2, 2, 1), "refs": torch.zeros(1, dtype=torch.long), "tables": {}, "lengths": {}}
    append(cache, "A", torch.ones(2, 1))
    fork(cache, "A", "B")
    with pytest.raises(ValueError, match="no free page: all 1 are in use"):
        append(cache, "B", torch.ones(2, 1))  # B must copy the shared page, and none is free
    assert cache["tables"] == {"A": [0], "B": [0]} and cache["refs"].tolist() == [2] and cache["lengths"]["B"] == 1
    with pytest.raises(ValueError, match="no free page: all 1 are in use"):
        new_page(cache)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 3000), min_size=1, max_size=8), st.integers(1, 64))
def test_paging_wastes_under_a_page_per_sequence_and_never_more_than_padding_to_whole_pages(lengths, page_size):
    waste = paged_waste(lengths, page_size)
    assert 0 <= waste <= len(lengths) * (page_size - 1)
    assert (sum(lengths) + waste) % page_size == 0
    longest = math.ceil(max(lengths) / page_size) * page_size  # padding to the longest, in whole pages
    assert waste <= len(lengths) * longest - sum(lengths)
    assert padded_waste(lengths) == sum(max(lengths) - n for n in lengths)
