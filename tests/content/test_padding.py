"""The padding chapter's helpers, for batches the page does not show, against PyTorch's own APIs.

Every comparison runs in float64 so the three implementations (the chapter's additive -inf
reference, F.scaled_dot_product_attention, nn.MultiheadAttention) must agree to rounding: TOL.
"""

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

padding_mask = project.function("padding/mask.py", "padding_mask")
additive_mask = project.function("padding/reference.py", "additive_mask")
masked_attention = project.function("padding/reference.py", "masked_attention")

TOL = {"rtol": 1e-9, "atol": 1e-12}
SDPA = F.scaled_dot_product_attention
lengths_st = st.lists(st.integers(1, 7), min_size=1, max_size=5)  # every sentence has a token


# padding_mask -------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(lengths=st.lists(st.integers(0, 7), min_size=1, max_size=6), extra=st.integers(0, 3))
def test_padding_mask_keeps_a_prefix_of_each_length(lengths, extra):
    max_len = max(max(lengths), 1) + extra
    keep = padding_mask(lengths, max_len)
    assert keep.dtype == torch.bool and keep.shape == (len(lengths), max_len)
    assert keep.sum(dim=-1).tolist() == lengths
    assert torch.equal(keep, keep.cummin(dim=-1).values)  # True first, then only False
    for dtype in (torch.int32, torch.int64, torch.uint8):  # a tensor gives the same mask
        assert torch.equal(padding_mask(torch.tensor(lengths, dtype=dtype), max_len), keep)
    default = padding_mask(lengths)  # max_len defaults to the longest sentence
    assert torch.equal(default, keep[:, : default.shape[1]])


@pytest.mark.parametrize(
    ("lengths", "kwargs", "error", "match"),
    [
        ([2.0, 1.0], {}, TypeError, r"integers, got dtype torch\.float32"),
        (torch.tensor([2.5]), {}, TypeError, r"got dtype torch\.float32"),
        (torch.tensor([True, False]), {}, TypeError, r"got dtype torch\.bool"),
        ("23", {}, TypeError, r"tensor or list, got <class 'str'>"),
        (torch.tensor([[2, 3]]), {}, ValueError, r"1-D .* got torch\.Size\(\[1, 2\]\)"),
        ([[2, 3]], {}, ValueError, r"1-D .* got torch\.Size\(\[1, 2\]\)"),
        (torch.tensor(3), {}, ValueError, r"1-D"),
        ([], {}, ValueError, r"B >= 1"),
        ([2, -1, 3], {}, ValueError, r"lengths\[1\] = -1 is negative"),
        ([2, 7, 3], {"max_len": 5}, ValueError, r"lengths\[1\] = 7 > max_len = 5"),
        ([2], {"max_len": 0}, ValueError, r"max_len must be >= 1, got 0"),
        ([2], {"max_len": 2.0}, TypeError, r"max_len must be an int"),
        ([2], {"max_len": True}, TypeError, r"max_len must be an int"),
    ],
)
def test_padding_mask_rejects_bad_input(lengths, kwargs, error, match):
    with pytest.raises(error, match=match):
        padding_mask(lengths, **kwargs)


# the reference: additive -inf masks ---------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(lengths=lengths_st, d=st.integers(1, 8), seed=st.integers(0, 2**16), scale=st.floats(0.1, 30))
def test_masked_weights_are_exactly_zero_and_rows_sum_to_one(lengths, d, seed, scale):
    g = torch.Generator().manual_seed(seed)
    keep = padding_mask(lengths)[:, None, :]  # (B, 1, L_K)
    B, L = keep.shape[0], keep.shape[-1]
    q, k, v = (torch.randn(B, L, d, generator=g, dtype=torch.float64) * scale for _ in range(3))
    out, weights = masked_attention(q, k, v, keep)
    assert torch.equal(additive_mask(keep) == 0, keep)  # 0 where kept, -inf elsewhere
    assert torch.isneginf(additive_mask(keep)[~keep]).all()
    assert (weights.masked_select(~keep) == 0).all()  # exactly 0, not just small
    torch.testing.assert_close(weights.sum(dim=-1), torch.ones(B, L, dtype=torch.float64))
    assert out.shape == (B, L, d)


def test_additive_mask_wants_a_boolean_keep_mask():
    with pytest.raises(TypeError, match="invert"):  # a float mask is not a keep-mask
        additive_mask(torch.tensor([1.0, 0.0]))
    with pytest.raises(RuntimeError, match="boolean"):  # nor is 1/0 in an integer tensor
        additive_mask(torch.tensor([1, 0]))


# the same attention through PyTorch's APIs, each with the polarity it wants ------------------


def _heads(t, heads):
    """(B, L, E) -> (B, H, L, E // H)."""
    return t.unflatten(-1, (heads, -1)).transpose(1, 2)


@settings(max_examples=30, deadline=None)
@given(
    lengths=lengths_st,
    heads=st.integers(1, 3),
    d_head=st.integers(1, 6),
    causal=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_reference_equals_sdpa_and_multihead_attention(lengths, heads, d_head, causal, seed):
    torch.manual_seed(seed)
    B, L, E = len(lengths), max(lengths), heads * d_head
    keep = padding_mask(lengths)  # (B, L): True = real token
    x = torch.randn(B, L, E, dtype=torch.float64)
    mha = torch.nn.MultiheadAttention(E, heads, dropout=0.0, batch_first=True, dtype=torch.float64)
    q, k, v = (_heads(t, heads) for t in F.linear(x, mha.in_proj_weight, mha.in_proj_bias).chunk(3, -1))
    tril = torch.tril(torch.ones(L, L, dtype=torch.bool))
    keep4 = keep[:, None, None, :] & (tril if causal else True)  # (B, 1, L_Q, L_K), True = take part

    ours, w_ours = masked_attention(q, k, v, keep4)

    # SDPA: a boolean attn_mask says True = take part, the same polarity as keep4
    torch.testing.assert_close(SDPA(q, k, v, attn_mask=keep4), ours, **TOL)
    torch.testing.assert_close(SDPA(q, k, v, attn_mask=additive_mask(keep4, torch.float64)), ours, **TOL)
    if causal:
        keep_pad = keep[:, None, None, :]
        torch.testing.assert_close(SDPA(q, k, v, attn_mask=keep_pad & tril), ours, **TOL)
    # the wrong polarity is not a small error
    assert not torch.allclose(SDPA(q, k, v, attn_mask=~keep4), ours)

    # MHA: key_padding_mask and a boolean attn_mask both say True = ignore, the inverse
    out_mha, w_mha = mha(
        x, x, x,
        key_padding_mask=~keep,
        attn_mask=~tril if causal else None,
        need_weights=True,
        average_attn_weights=False,
    )
    torch.testing.assert_close(w_mha, w_ours, **TOL)  # (B, H, L_Q, L_K)
    torch.testing.assert_close(out_mha, mha.out_proj(ours.transpose(1, 2).flatten(-2)), **TOL)


# the fully masked row: what the pinned torch does ---------------------------------------------


@settings(max_examples=30, deadline=None)
@given(L=st.integers(2, 6), d=st.integers(1, 6), row=st.integers(0, 5), seed=st.integers(0, 2**16))
def test_sdpa_fully_masked_row_in_the_pinned_torch(L, d, row, seed):
    # docs/padding.md#fully-masked states what torch 2.13 does with a row that sees no key.
    # A torch upgrade fails here first: re-measure, then update the page and this version.
    assert torch.__version__.startswith("2.13."), torch.__version__
    row %= L
    torch.manual_seed(seed)
    q, k, v = (torch.randn(1, 1, L, d) for _ in range(3))
    keep = torch.ones(L, L, dtype=torch.bool)
    keep[row] = False
    others = torch.arange(L) != row

    by_hand = torch.softmax(q @ k.transpose(-2, -1) / d**0.5 + additive_mask(keep), dim=-1) @ v
    assert by_hand[0, 0, row].isnan().all()  # a plain softmax: 0 / 0
    for mask in (keep, additive_mask(keep)):  # boolean all-False row, float all -inf row
        out = SDPA(q, k, v, attn_mask=mask)
        assert torch.equal(out[0, 0, row], torch.zeros(d))  # exactly 0, not NaN
        torch.testing.assert_close(out[0, 0, others], by_hand[0, 0, others])

    mha = torch.nn.MultiheadAttention(d, 1, batch_first=True)
    x = torch.randn(1, L, d)
    with torch.no_grad():
        out_w, weights = mha(x, x, x, attn_mask=~keep, need_weights=True)
        out_fast, _ = mha(x, x, x, attn_mask=~keep, need_weights=False)
    assert out_w[0, row].isnan().all() and weights[0, row].isnan().all()
    assert torch.equal(out_fast[0, row], torch.zeros(d))


# the conventions table: the M column shows the very line that ran ------------------------------


def test_conventions_table_shows_the_line_that_ran():
    # padding/conventions.py keeps each additive form twice, as text for the table and as code
    # that runs; the page says the line ran as shown. Here the text runs too, on the same mask.
    ns = project.run("padding/conventions.py").namespace
    for name, mask, _, shown, to_additive in ns["rows"]:
        scope = {"torch": torch, "m": mask, "L": ns["L"], "inf": ns["inf"]}
        assert torch.equal(eval(shown, scope), to_additive(mask)), name  # noqa: S307
    # the cells each API set to 0 are shown as code too: that code builds the very cells compared
    scope = {"torch": torch, "m": ns["m"], "L": ns["L"]}
    for shown, zero in ns["zero_if"].items():
        assert torch.equal(eval(shown, scope), zero), shown  # noqa: S307
    assert set(ns["zeroed"]) == set(ns["zero_if"])


# padding/fixes.py: attend ---------------------------------------------------------------------

attend_fixes = project.function("padding/fixes.py", "attend")


@pytest.mark.parametrize("additive", [False, True])
@pytest.mark.parametrize("fill", [float("nan"), float("inf"), 0.0, 1e9, torch.tensor(float("nan"))])
def test_fixes_attend_refuses_a_fill_that_does_not_hide(fill, additive):
    # nan gives nan weights; 0 or more lets the hidden keys take part (or take all the weight).
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(3, 4, generator=g) for _ in range(3))
    keep = torch.tensor([[True, True, False], [True, False, False], [True, True, True]])
    with pytest.raises(ValueError, match=rf"fill must be -inf or a negative number, got {float(fill)}"):
        attend_fixes(q, k, v, keep, fill, additive)
    for good in (float("-inf"), torch.finfo(torch.float32).min, -1e4):  # the hidden keys get weight 0
        weights = attend_fixes(q, k, torch.eye(3), keep, good, additive)
        assert torch.equal(weights[~keep], torch.zeros(int((~keep).sum())))
