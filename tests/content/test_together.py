"""The together chapter's reference functions against PyTorch's own, for shapes the page does not show.

`attention` (snippets/together/attention.py) must equal F.scaled_dot_product_attention in its output
AND its gradients, for every mask kind the page names, fully masked rows included. `multihead`
(snippets/together/multihead.py) must equal nn.MultiheadAttention given the same weights.

Tolerances, per dtype: a float32 result differs from SDPA by a few ulp of the summed terms (the two
add in different orders), measured below 3e-6 for scores up to about 30; float64 agrees to rounding.
"""

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

attention = project.function("together/attention.py", "attention")
_multihead = project.Names("together/multihead.py")
multihead = project.function("together/multihead.py", "multihead")

SDPA = F.scaled_dot_product_attention
TOL = {torch.float32: {"rtol": 5e-5, "atol": 5e-5}, torch.float64: {"rtol": 1e-10, "atol": 1e-12}}
MASKS = ["none", "bool", "additive", "causal", "causal+padding"]


@st.composite
def problems(draw):
    """Random q, k, v with batch and (often) head axes, L_Q != L_K and d_k != d_v in general,
    one of the mask kinds, and the SDPA arguments that mean the same thing."""
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    heads = draw(st.sampled_from([(), (1,), (2,), (3,)]))  # () = no head axis
    B, L_Q, L_K = draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(st.integers(1, 7))
    d_k, d_v = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    spread = draw(st.floats(0.1, 5))

    def randn(*shape):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * spread).to(dtype)

    q, k, v = randn(B, *heads, L_Q, d_k), randn(B, *heads, L_K, d_k), randn(B, *heads, L_K, d_v)
    kind = draw(st.sampled_from(MASKS))
    # keep-masks in the layouts the pages use; some rows may end up with no key at all
    layout = draw(st.sampled_from(["full", "key_padding", "shared"]))
    shape = {"full": (B, *heads, L_Q, L_K), "key_padding": (B, *(1 for _ in heads), 1, L_K),
             "shared": (L_Q, L_K)}[layout]
    keep = torch.rand(shape, generator=g) < draw(st.floats(0.2, 1.0))
    tril = torch.ones(L_Q, L_K, dtype=torch.bool).tril()
    if kind == "none":
        ours, theirs = {}, {}
    elif kind == "bool":
        ours, theirs = {"mask": keep}, {"attn_mask": keep}
    elif kind == "additive":  # finite values plus some -inf
        additive = randn(*shape).masked_fill(~keep, float("-inf"))
        ours, theirs = {"mask": additive}, {"attn_mask": additive}
    elif kind == "causal":
        ours, theirs = {"causal": True}, {"is_causal": True}
    else:  # SDPA refuses attn_mask with is_causal=True: give it the two ANDed
        lengths = torch.randint(0, L_K + 1, (B,), generator=g)  # a length may be 0
        pad = (torch.arange(L_K) < lengths[:, None]).reshape(B, *(1 for _ in heads), 1, L_K)
        ours, theirs = {"mask": pad, "causal": True}, {"attn_mask": pad & tril}
    return q, k, v, ours, theirs


@settings(max_examples=30, deadline=None)
@given(problems())
def test_attention_equals_sdpa_in_output_and_gradients(problem):
    q, k, v, ours, theirs = problem
    mine = [t.clone().requires_grad_() for t in (q, k, v)]
    ref = [t.clone().requires_grad_() for t in (q, k, v)]
    out, weights = attention(*mine, **ours)
    expected = SDPA(*ref, **theirs)
    tol = TOL[q.dtype]
    torch.testing.assert_close(out, expected, **tol)
    assert out.dtype == weights.dtype == q.dtype
    assert out.shape == (*q.shape[:-1], v.shape[-1]) and weights.shape == (*q.shape[:-1], k.shape[-2])
    upstream = torch.randn(out.shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64).to(q.dtype)
    (out * upstream).sum().backward()
    (expected * upstream).sum().backward()
    for a, b in zip(mine, ref):
        assert not a.grad.isnan().any()
        torch.testing.assert_close(a.grad, b.grad, **tol)


@settings(max_examples=30, deadline=None)
@given(problems())
def test_weights_are_exact_zeros_and_rows_sum_to_one_or_zero(problem):
    q, k, v, ours, _ = problem
    out, weights = attention(q, k, v, **ours)
    torch.testing.assert_close(out, weights @ v, **TOL[q.dtype])  # the output is made of these weights
    hidden = torch.zeros(weights.shape, dtype=torch.bool)
    if ours.get("causal"):
        hidden |= torch.ones(weights.shape[-2:], dtype=torch.bool).triu(1)
    mask = ours.get("mask")
    if mask is not None:
        hidden |= ~mask if mask.dtype == torch.bool else torch.isneginf(mask)
    assert (weights[hidden] == 0).all()  # exactly 0, not merely small
    empty = hidden.all(dim=-1)  # rows that see no key: weights 0, output 0 (as SDPA)
    assert (weights[empty] == 0).all() and (out[empty] == 0).all()
    sums = weights.sum(dim=-1)[~empty].double()
    torch.testing.assert_close(sums, torch.ones_like(sums), rtol=0, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("kind", ["bool", "additive", "causal+left padding"])
def test_fully_masked_rows_give_zero_like_sdpa_in_this_torch(kind, dtype):
    # The page says: a row that sees no key gets weights 0 and output 0, because SDPA in the
    # measured torch does so. Upgrading torch fails this first; measure again, then edit the page.
    assert torch.__version__.startswith("2.13.")
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 4, 3, generator=g, dtype=dtype) for _ in range(3))
    keep = torch.ones(2, 4, 4, dtype=torch.bool)
    keep[0, 1] = False  # one row hidden entirely
    if kind == "bool":
        ours, theirs = {"mask": keep}, {"attn_mask": keep}
    elif kind == "additive":
        additive = torch.zeros(keep.shape, dtype=dtype).masked_fill(~keep, float("-inf"))
        ours, theirs = {"mask": additive}, {"attn_mask": additive}
    else:  # left padding: the first query rows of sentence 0 see only [PAD] keys
        left = (torch.arange(4) >= torch.tensor([[2], [0]]))[:, None, :]  # (B, 1, L_K)
        ours = {"mask": left, "causal": True}
        theirs = {"attn_mask": left & torch.ones(4, 4, dtype=torch.bool).tril()}
    out, weights = attention(q, k, v, **ours)
    expected = SDPA(q, k, v, **theirs)
    empty = (weights == 0).all(dim=-1)
    assert empty.any()
    assert (expected[empty] == 0).all() and (out[empty] == 0).all()
    torch.testing.assert_close(out, expected, **TOL[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_a_row_filled_with_finfo_min_is_uniform_not_empty_like_sdpa(dtype):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(4, 3, generator=g, dtype=dtype) for _ in range(3))
    additive = torch.zeros(4, 4, dtype=dtype)
    additive[1] = torch.finfo(dtype).min  # every key of row 1 "hidden" with a finite value
    out, weights = attention(q, k, v, additive)
    torch.testing.assert_close(weights[1], torch.full((4,), 0.25, dtype=dtype))
    torch.testing.assert_close(out, SDPA(q, k, v, attn_mask=additive), **TOL[dtype])


@settings(max_examples=30, deadline=None)
@given(problems(), st.floats(0.1, 4))
def test_scale_is_passed_on_like_sdpa(problem, scale):
    q, k, v, ours, theirs = problem
    torch.testing.assert_close(attention(q, k, v, **ours, scale=scale)[0], SDPA(q, k, v, **theirs, scale=scale), **TOL[q.dtype])


def test_dropout_is_off_unless_training():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 4, generator=g, dtype=torch.float64) for _ in range(3))
    plain, w = attention(q, k, v)
    for kwargs in ({"dropout_p": 0.5}, {"dropout_p": 0.5, "training": False}, {"training": True}):
        assert torch.equal(attention(q, k, v, **kwargs)[0], plain)
    torch.manual_seed(0)
    out, dropped = attention(q, k, v, dropout_p=0.5, training=True)
    kept = dropped != 0
    assert 0 < kept.sum() < kept.numel()
    torch.testing.assert_close(dropped[kept], 2 * w[kept])  # survivors scaled by 1 / (1 - p)
    torch.testing.assert_close(out, dropped @ v)  # the returned weights made the output


HALF_TOL = {torch.float16: {"rtol": 5e-3, "atol": 5e-3}, torch.bfloat16: {"rtol": 3e-2, "atol": 3e-2}}


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_16_bit_inputs_work_and_stay_within_their_precision_of_sdpa(dtype, seed):
    # The contract accepts 16-bit floats too: scores and weights are then stored in that dtype
    # (torch.softmax computes in float32 inside but rounds its result), so the two implementations
    # agree only to about its precision (eps: 1e-3 for float16, 8e-3 for bfloat16).
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(2, 3, 5, 4, generator=g).to(dtype) for _ in range(3))
    keep = torch.rand(2, 1, 1, 5, generator=g) < 0.6
    out, weights = attention(q, k, v, keep, causal=True)
    expected = SDPA(q, k, v, attn_mask=keep & torch.ones(5, 5, dtype=torch.bool).tril())
    assert out.dtype == weights.dtype == dtype
    torch.testing.assert_close(out.float(), expected.float(), **HALF_TOL[dtype])


@pytest.mark.parametrize("entry", [40.0, -40.0, 100.0])
def test_scores_that_overflow_float16_before_scaling_stay_finite_like_sdpa(entry):
    # docs/together.md#half: with every entry 40 and d_k = 64, q @ k^T is 102400, beyond float16's
    # 65504. attention() scales q before the product, as SDPA's math kernel scales q and k, so the
    # scores stay finite; multiplying first and scaling after gives inf, then NaN weights.
    g = torch.Generator().manual_seed(0)
    q = torch.full((2, 3, 64), entry, dtype=torch.float16)
    k = torch.full((2, 5, 64), 40.0, dtype=torch.float16)
    v = torch.randn(2, 5, 8, generator=g).half()
    assert torch.isinf(q @ k.transpose(-2, -1)).all()  # the trap the function avoids
    out, weights = attention(q, k, v)
    expected = SDPA(q, k, v)
    assert out.isfinite().all() and weights.isfinite().all() and expected.isfinite().all()
    torch.testing.assert_close(out.float(), expected.float(), **HALF_TOL[torch.float16])
    torch.testing.assert_close(out.float(), v.float().mean(-2, keepdim=True).expand_as(out),
                               **HALF_TOL[torch.float16])  # equal scores: uniform weights


# bad input ------------------------------------------------------------------------------------

_q, _k, _v = torch.ones(2, 3, 4), torch.ones(2, 5, 4), torch.ones(2, 5, 6)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((_q, _k[..., :3], _v), {}, ValueError, r"q \(2, 3, 4\), k \(2, 5, 3\), v \(2, 5, 6\): want \(\.\.\., L_Q, d_k\)"),
        ((_q, _k, _v[:, :4]), {}, ValueError, r"k \(2, 5, 4\), v \(2, 4, 6\): want .*\(\.\.\., L_K, d_v\)"),
        ((_q, _k, _v[0, 0]), {}, ValueError, r"v \(6,\)"),  # v without its L_K axis
        ((_q.long(), _k.long(), _v.long()), {}, TypeError, r"float tensors .* got \[torch\.int64, torch\.int64, torch\.int64\]"),
        ((_q, _k.double(), _v), {}, TypeError, r"one dtype, got \[torch\.float32, torch\.float64, torch\.float32\]"),
        ((_q.half(), _k, _v), {}, TypeError, r"one dtype, got \[torch\.float16, torch\.float32"),
        ((_q.tolist(), _k, _v), {}, TypeError, r"got \['list', torch\.float32"),
        ((_q, _k, _v, torch.ones(5, dtype=torch.long)), {}, TypeError, r"mask must be bool \(True = take part\) or torch\.float32 .* got torch\.int64"),
        ((_q, _k, _v, torch.zeros(5, dtype=torch.float64)), {}, TypeError, r"or torch\.float32 \(added to the scores\), got torch\.float64"),
        ((_q, _k, _v, torch.ones(4, dtype=torch.bool)), {}, ValueError, r"mask \(4,\) does not broadcast to the scores \(\.\.\., L_Q, L_K\) = \(2, 3, 5\)"),
        ((_q, _k, _v, torch.ones(3, 3, 5, dtype=torch.bool)), {}, ValueError, r"mask \(3, 3, 5\) does not broadcast"),
        # (B, 1, 1, L_K) against scores with no head axis would broadcast to (B, B, L_Q, L_K)
        ((_q, _k, _v, torch.ones(2, 1, 1, 5, dtype=torch.bool)), {}, ValueError, r"mask \(2, 1, 1, 5\) does not broadcast .* \(2, 3, 5\)"),
        ((_q, _k, _v), {"dropout_p": 1.5, "training": True}, ValueError, r"dropout probability has to be between 0 and 1"),
        # keep.float(): 1 = take part, 0 = hidden, but a float mask is added to the scores (issue 35)
        ((_q, _k, _v, torch.tensor([1.0, 1, 0, 1, 0])), {}, TypeError, r"got torch\.float32 of only 0s and 1s: pass keep, not keep\.float\(\)"),
        ((_q, _k, _v, torch.ones(2, 3, 5)), {}, TypeError, r"of only 0s and 1s"),
        ((_q, _k, _v, torch.tensor([1.0, -0.0, 0, 1, 0])), {}, TypeError, r"of only 0s and 1s"),
    ],
)
def test_attention_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        attention(*args, **kwargs)


@pytest.mark.parametrize("values", [[0.0] * 5, [0, 0, float("-inf"), 0, float("-inf")], [1.0, 0, 0.5, 1, 0], [2.0, 1, 0, 1, 0]])
def test_attention_adds_float_masks_that_are_not_a_keep_mask(values):
    # All zeros adds nothing; 0 and -inf is the additive form; other values are a bias, added.
    mask = torch.tensor(values)
    g = torch.Generator().manual_seed(0)
    q, k, v = torch.randn(2, 3, 4, generator=g), torch.randn(2, 5, 4, generator=g), torch.randn(2, 5, 6, generator=g)
    torch.testing.assert_close(attention(q, k, v, mask)[0], SDPA(q, k, v, attn_mask=mask), **TOL[torch.float32])


# multi-head ------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    B=st.integers(1, 3), L_Q=st.integers(1, 6), L_K=st.integers(1, 7), h=st.integers(1, 4),
    d_head=st.integers(1, 5), seed=st.integers(0, 2**16), self_attention=st.booleans(),
)
def test_multihead_equals_nn_multiheadattention_and_sdpa(B, L_Q, L_K, h, d_head, seed, self_attention):
    g = torch.Generator().manual_seed(seed)
    d_model = h * d_head
    x_q = torch.randn(B, L_Q, d_model, generator=g, dtype=torch.float64)
    x_kv = x_q if self_attention else torch.randn(B, L_K, d_model, generator=g, dtype=torch.float64)
    L_K = x_kv.shape[1]
    lengths = torch.randint(1, L_K + 1, (B,), generator=g)  # every sentence keeps a key
    keep = torch.arange(L_K) < lengths[:, None]
    params = [torch.randn(3 * d_model, d_model, generator=g, dtype=torch.float64), torch.randn(3 * d_model, generator=g, dtype=torch.float64),
              torch.randn(d_model, d_model, generator=g, dtype=torch.float64), torch.randn(d_model, generator=g, dtype=torch.float64)]
    ours = multihead(x_q, x_kv, h, *params, keep[:, None, None, :])
    mha = torch.nn.MultiheadAttention(d_model, h, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        for param, value in zip(mha.parameters(), params):
            param.copy_(value)
        for need_weights in (True, False):  # the Python path and the SDPA path inside MHA
            expected, _ = mha(x_q, x_kv, x_kv, key_padding_mask=~keep, need_weights=need_weights)
            torch.testing.assert_close(ours, expected, **TOL[torch.float64])
    with_sdpa = multihead(x_q, x_kv, h, *params, keep[:, None, None, :], attend=SDPA)
    torch.testing.assert_close(ours, with_sdpa, **TOL[torch.float64])


def test_split_is_undone_by_merging():
    x = torch.arange(2 * 3 * 8.0).reshape(2, 3, 8)
    heads = _multihead["split"](x, 4)
    assert heads.shape == (2, 4, 3, 2)
    assert torch.equal(heads[:, 1], x[..., 2:4])  # head 1 holds features 2..3 of every token
    assert torch.equal(heads.transpose(1, 2).flatten(-2), x)  # the merge in multihead()
