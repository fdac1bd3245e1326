"""The varlen chapter's functions, for numbers of sequences and lengths the page does not show.

`document_ids` and `document_mask` (snippets/varlen/mask.py), `varlen_causal_mask` (varlen/align.py),
`attend_each` (varlen/each.py) and `varlen_mask_mod` (varlen/flex.py) against references built another
way: torch's `causal_lower_right` materialised per sequence and placed with `block_diag`, and SDPA run on
each sequence alone. Jagged nested tensors through SDPA (no causal mask: the page shows `is_causal=True`
refused on CPU) against the same loop. Every function's bad input is refused with the message the page
quotes.

Tolerances: float64 throughout, so the packed and the per-sequence computations agree to 1e-12.
Eager flex_attention costs about 0.1-0.3 s a call on CPU, so its property evaluates the mask_mod on every
example and calls flex_attention on one in eight.
"""

import warnings

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.bias import causal_lower_right
from torch.nn.attention.flex_attention import create_block_mask, create_mask, flex_attention

check_cu = project.function("varlen/mask.py", "check_cu")
document_ids = project.function("varlen/mask.py", "document_ids")
document_mask = project.function("varlen/mask.py", "document_mask")
varlen_causal_mask = project.function("varlen/align.py", "varlen_causal_mask")
attend_each = project.function("varlen/each.py", "attend_each")
varlen_mask_mod = project.function("varlen/flex.py", "varlen_mask_mod")

MANY = settings(max_examples=200, deadline=None, derandomize=True)
TOL = {"rtol": 1e-12, "atol": 1e-12}


def offsets(lengths):
    return torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()])


@st.composite
def sequences(draw, max_n=6, max_len=7):
    """Per sequence, the number of queries and of keys: 1 <= queries <= keys."""
    n = draw(st.integers(1, max_n))
    keys = draw(st.lists(st.integers(1, max_len), min_size=n, max_size=n))
    queries = [draw(st.integers(1, k)) for k in keys]
    return queries, keys


def reference_mask(queries, keys):
    """Bottom-right causal per sequence: torch's CausalBias materialised, placed on the diagonal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # never L_Q > L_K here, but torch's check is broad
        blocks = [causal_lower_right(a, b)._materialize() for a, b in zip(queries, keys)]
    return torch.block_diag(*blocks)


def qkv(total_q, total_k, seed, heads=2, d=4):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(heads, n, d, generator=g, dtype=torch.float64) for n in (total_q, total_k, total_k))


def loop(q, k, v, queries, keys, **kwargs):
    """Each sequence alone through SDPA: written here with split, not with the snippets' offsets."""
    parts = zip(q.split(queries, -2), k.split(keys, -2), v.split(keys, -2))
    return torch.cat([F.scaled_dot_product_attention(a, b, c, **kwargs) for a, b, c in parts], dim=-2)


# properties ------------------------------------------------------------------------------------


@MANY
@given(sequences(), st.integers(0, 2**16))
def test_document_mask_through_sdpa_equals_each_sequence_alone(case, seed):
    _, lengths = case
    cu = offsets(lengths)
    keep = document_mask(cu)
    assert keep.dtype == torch.bool and torch.equal(keep, reference_mask(lengths, lengths))
    assert torch.equal(document_ids(cu), torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths)))
    assert torch.equal(document_mask(cu, causal=False),
                       torch.block_diag(*(torch.ones(n, n) for n in lengths)).bool())
    q, k, v = qkv(sum(lengths), sum(lengths), seed)
    packed = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    torch.testing.assert_close(packed, loop(q, k, v, lengths, lengths, is_causal=True), **TOL)
    torch.testing.assert_close(packed, attend_each(q, k, v, cu, cu), **TOL)


@MANY
@given(sequences(), st.integers(0, 2**16))
def test_varlen_causal_mask_through_sdpa_equals_each_sequence_alone(case, seed):
    queries, keys = case
    cu_q, cu_k = offsets(queries), offsets(keys)
    keep = varlen_causal_mask(cu_q, cu_k)
    assert torch.equal(keep, reference_mask(queries, keys))
    assert keep.any(-1).all(), "with queries <= keys every row sees at least one key"
    q, k, v = qkv(sum(queries), sum(keys), seed)
    alone = attend_each(q, k, v, cu_q, cu_k)
    torch.testing.assert_close(F.scaled_dot_product_attention(q, k, v, attn_mask=keep), alone, **TOL)
    parts = zip(q.split(queries, -2), k.split(keys, -2), v.split(keys, -2))  # tril, not torch's bias
    by_tril = torch.cat([F.scaled_dot_product_attention(a, b, c, attn_mask=torch.ones(
        a.shape[-2], b.shape[-2], dtype=torch.bool).tril(b.shape[-2] - a.shape[-2])) for a, b, c in parts], -2)
    torch.testing.assert_close(by_tril, alone, **TOL)


@MANY
@given(sequences())
def test_a_global_bottom_right_alignment_leaks_exactly_where_an_earlier_sequence_is_behind(case):
    # One offset for the whole row (the last sequence's) sees future keys in sequence i exactly when
    # i has more than one query and its own offset is smaller than the row's.
    queries, keys = case
    cu_q, cu_k = offsets(queries), offsets(keys)
    right = varlen_causal_mask(cu_q, cu_k)
    same = torch.block_diag(*(torch.ones(a, b) for a, b in zip(queries, keys))).bool()
    global_br = same & torch.ones_like(right).tril(int(cu_k[-1] - cu_q[-1]))
    assert not (right & ~global_br).any(), "the global alignment never hides a key the right one shows"
    own = (cu_k[1:] - cu_q[1:]).tolist()
    leaks = [i for i, (a, b) in enumerate(zip(queries, keys)) if a > 1 and own[i] < own[-1]]
    leaking_docs = sorted({int(d) for d in document_ids(cu_q)[(global_br & ~right).any(-1)]})
    assert leaking_docs == leaks


@MANY
@given(sequences(max_n=4, max_len=6), st.integers(0, 2**16))
def test_varlen_mask_mod_through_flex_attention_equals_each_sequence_alone(case, seed):
    # Every example evaluates the mask_mod on every cell (broadcast indices); one in eight also goes
    # through create_mask and eager flex_attention (0.1-0.3 s a call), about 25 of the 200.
    queries, keys = case
    cu_q, cu_k = offsets(queries), offsets(keys)
    mod = varlen_mask_mod(cu_q, cu_k)
    L_Q, L_K = sum(queries), sum(keys)
    zero = torch.tensor(0)
    dense = mod(zero, zero, torch.arange(L_Q)[:, None], torch.arange(L_K)).expand(L_Q, L_K)
    assert torch.equal(dense, reference_mask(queries, keys))
    if seed % 8:
        return
    assert torch.equal(create_mask(mod, 1, 1, L_Q, L_K, device="cpu")[0, 0], dense)
    q, k, v = (x[None] for x in qkv(L_Q, L_K, seed))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
        out = flex_attention(q, k, v, block_mask=create_block_mask(mod, 1, 1, L_Q, L_K, device="cpu"))
    torch.testing.assert_close(out[0], attend_each(q[0], k[0], v[0], cu_q, cu_k), **TOL)


@MANY
@given(sequences(max_n=5), st.integers(0, 2**16))
def test_jagged_nested_sdpa_without_a_causal_mask_equals_each_sequence_alone(case, seed):
    _, lengths = case
    g = torch.Generator().manual_seed(seed)
    seqs = [[torch.randn(n, 2, 8, generator=g, dtype=torch.float64) for n in lengths] for _ in range(3)]
    nested = [torch.nested.nested_tensor(s, layout=torch.jagged).transpose(1, 2) for s in seqs]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")
        out = F.scaled_dot_product_attention(*nested)
    for i, o in enumerate(out.unbind()):
        alone = F.scaled_dot_product_attention(*(s[i].transpose(0, 1) for s in seqs))
        torch.testing.assert_close(o, alone, **TOL)


def test_jagged_nested_sdpa_refuses_is_causal_on_cpu():
    # docs/varlen.md#jagged states this for torch 2.13 on CPU.
    assert torch.__version__.startswith("2.13."), torch.__version__
    nested = torch.nested.nested_tensor([torch.randn(n, 2, 8) for n in (3, 5)], layout=torch.jagged).transpose(1, 2)
    import logging
    log = logging.getLogger("torch.nested._internal.sdpa")
    log.disabled = True  # its reasons are the snippet's to show
    try:
        with pytest.raises(RuntimeError, match="No viable backend for scaled_dot_product_attention was found"):
            F.scaled_dot_product_attention(nested, nested, nested, is_causal=True)
    finally:
        log.disabled = False


# bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "match"), [
    (lambda: check_cu([1, 3, 8]), r"cu_seqlens must start at 0, got \[1, 3, 8\]"),
    (lambda: check_cu([0, 3, 3, 8]), r"cu_seqlens must increase \(each sequence >= 1 token\), got \[0, 3, 3, 8\]"),
    (lambda: check_cu([0, 5, 3]), r"must increase"),
    (lambda: check_cu([0, 3, 8], total=10), r"cu_seqlens must end at 10 tokens, got \[0, 3, 8\]"),
    (lambda: check_cu([0.0, 3.0]), r"cu_seqlens must be 1-D ints like \[0, n, \.\.\.\], got \[0\.0, 3\.0\]"),
    (lambda: check_cu([[0, 3]]), r"must be 1-D ints"),
    (lambda: check_cu([0]), r"must be 1-D ints"),
    (lambda: document_mask([0, 3, 2]), r"cu_seqlens must increase"),
    (lambda: document_ids(torch.tensor([2, 5])), r"cu_seqlens must start at 0"),
    (lambda: varlen_causal_mask([0, 3, 5], [0, 2, 6]),
     r"cu_q, cu_k need as many sequences, each with queries <= keys: got \[3, 2\] queries, \[2, 4\] keys"),
    (lambda: varlen_causal_mask([0, 2, 4], [0, 3]), r"need as many sequences"),
    (lambda: varlen_causal_mask([1, 2], [0, 3]), r"cu_q must start at 0"),
    (lambda: varlen_causal_mask([0, 2], [0, 3, 3]), r"cu_k must increase"),
    (lambda: attend_each(torch.randn(4, 2), torch.randn(5, 2), torch.randn(5, 2), [0, 3], [0, 5]),
     r"cu_q must end at 4 tokens, got \[0, 3\]"),
    (lambda: attend_each(torch.randn(3, 2), torch.randn(5, 2), torch.randn(5, 2), [0, 3], [0, 2, 5]),
     r"need as many sequences"),
    (lambda: attend_each(torch.randn(3, 2), torch.randn(2, 2), torch.randn(2, 2), [0, 3], [0, 2]),
     r"each with queries <= keys: got \[3\] queries, \[2\] keys"),
    (lambda: varlen_mask_mod([0, 3], [0, 2]), r"must start at 0, hold as many sequences, and 1 <= queries <= keys"),
    (lambda: varlen_mask_mod([0, 2, 2], [0, 3, 4]), r"1 <= queries <= keys"),
    (lambda: varlen_mask_mod([1, 2], [0, 3]), r"must start at 0"),
])
def test_varlen_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
