"""Properties of the softmax chapter's functions, for shapes, axes and dtypes the page does not show.

Tolerances: comparisons with ``torch.softmax`` use ``torch.testing.assert_close`` defaults for the
dtype (float32: rtol 1.3e-6, atol 1e-5; float64: rtol 1e-7, atol 1e-7). A row sum may differ from 1
by at most ``2 * n * eps`` of the dtype (n = length of the softmax axis).
"""

import math

import project
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.autograd.functional import jacobian

naive_softmax = project.function("softmax/stable.py", "naive_softmax")
stable_softmax = project.function("softmax/stable.py", "stable_softmax")
softmax_jacobian = project.function("softmax/jacobian.py", "softmax_jacobian")
overflow_ns = project.Names("softmax/overflow.py")

DTYPES = st.sampled_from([torch.float32, torch.float64])
SHAPES = st.lists(st.integers(1, 6), min_size=1, max_size=4)


@st.composite
def scores(draw, max_scale=1e4, dtypes=DTYPES):
    """A random tensor, a valid axis of it, and its dtype."""
    shape = draw(SHAPES)
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    dtype = draw(dtypes)
    scale = draw(st.floats(1e-3, max_scale))
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    return torch.randn(shape, generator=generator, dtype=dtype) * scale, dim


def _eps(z):
    return torch.finfo(z.dtype).eps


@settings(max_examples=30, deadline=None)
@given(scores())
def test_stable_equals_torch_softmax(case):
    z, dim = case
    torch.testing.assert_close(stable_softmax(z, dim=dim), torch.softmax(z, dim=dim))


@settings(max_examples=30, deadline=None)
@given(scores(), st.integers(0, 2**16))
def test_masked_entries_are_exactly_zero_and_match_torch(case, seed):
    z, dim = case
    generator = torch.Generator().manual_seed(seed)
    masked = torch.rand(z.shape, generator=generator) < 0.4
    masked.select(dim, 0).fill_(False)  # at least one visible entry per row
    z = z.masked_fill(masked, float("-inf"))
    p = stable_softmax(z, dim=dim)
    assert torch.all(p[masked] == 0)
    torch.testing.assert_close(p, torch.softmax(z, dim=dim))


@settings(max_examples=30, deadline=None)
@given(scores())
def test_rows_sum_to_one_and_outputs_lie_in_0_1(case):
    z, dim = case
    p = stable_softmax(z, dim=dim)
    n = z.shape[dim]
    assert (p.sum(dim=dim) - 1).abs().max() <= 2 * n * _eps(z)
    assert torch.all((p >= 0) & (p <= 1))


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=2.0))
def test_moderate_inputs_stay_strictly_inside_0_1(case):
    z, dim = case
    z = torch.cat([z, z.narrow(dim, 0, 1) + 1], dim=dim).clamp(-5, 5)  # >= 2 per row
    p = stable_softmax(z, dim=dim)
    assert torch.all((p > 0) & (p < 1))


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=10.0), st.floats(-50, 50))
def test_shift_invariance(case, c):
    z, dim = case
    atol = 1e-4 if z.dtype == torch.float32 else 1e-12  # z + c is rounded to the dtype
    torch.testing.assert_close(stable_softmax(z + c, dim=dim), stable_softmax(z, dim=dim),
                               atol=atol, rtol=0)


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=10.0))
def test_naive_equals_stable_where_naive_does_not_overflow(case):
    z, dim = case
    z = z.clamp(-30, 30)  # exp(30) and exp(-30) are finite and non-zero in float32
    torch.testing.assert_close(naive_softmax(z, dim=dim), stable_softmax(z, dim=dim))
    torch.testing.assert_close(overflow_ns["naive"](z.movedim(dim, -1)),
                               overflow_ns["max_subtracted"](z.movedim(dim, -1)))


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=10.0))
def test_naive_overflows_where_stable_does_not(case):
    z, dim = case
    # the largest score of every row now overflows exp
    z = z - z.amax(dim=dim, keepdim=True) + math.log(torch.finfo(z.dtype).max) + 1
    assert torch.isnan(naive_softmax(z, dim=dim)).any()
    p = stable_softmax(z, dim=dim)
    assert torch.isfinite(p).all()
    torch.testing.assert_close(p, torch.softmax(z, dim=dim))
    torch.testing.assert_close(overflow_ns["max_subtracted"](z.movedim(dim, -1)),
                               torch.softmax(z.movedim(dim, -1), dim=-1))


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=10.0), st.integers(0, 2**16))
def test_all_minus_inf_rows_give_zeros_and_finite_gradients(case, seed):
    z, dim = case
    generator = torch.Generator().manual_seed(seed)
    row_shape = list(z.shape)
    row_shape[dim] = 1
    dead = (torch.rand(row_shape, generator=generator) < 0.5).expand(z.shape)
    z = z.masked_fill(dead, float("-inf")).requires_grad_()
    p = stable_softmax(z, dim=dim)
    assert torch.all(p[dead] == 0)  # torch.softmax gives NaN here
    assert torch.isnan(torch.softmax(z.detach(), dim=dim)[dead]).all()
    torch.testing.assert_close(p[~dead], torch.softmax(z.detach(), dim=dim)[~dead])
    p.pow(2).sum().backward()
    assert torch.isfinite(z.grad).all() and torch.all(z.grad[dead] == 0)


@settings(max_examples=30, deadline=None)
@given(scores(max_scale=20.0), st.integers(0, 2**16))
def test_gradient_equals_torch_softmax_gradient(case, seed):
    z, dim = case
    g = torch.randn(z.shape, generator=torch.Generator().manual_seed(seed), dtype=z.dtype)
    ours, = torch.autograd.grad(stable_softmax(z.requires_grad_(), dim=dim), z, g)
    theirs, = torch.autograd.grad(torch.softmax(z, dim=dim), z, g)
    torch.testing.assert_close(ours, theirs)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(1, 8), st.floats(1e-2, 50), st.integers(0, 2**16))
def test_jacobian_formula_equals_autograd(batch, n, scale, seed):
    generator = torch.Generator().manual_seed(seed)
    z = torch.randn(batch, n, generator=generator, dtype=torch.float64) * scale
    p = torch.softmax(z, dim=-1)
    J = softmax_jacobian(p)
    assert J.shape == (batch, n, n)
    for b in range(batch):
        auto = jacobian(lambda x: torch.softmax(x, dim=-1), z[b])
        torch.testing.assert_close(J[b], auto)
    torch.testing.assert_close(J, J.transpose(-1, -2))
    torch.testing.assert_close(J.sum(dim=-1), torch.zeros_like(p))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 8), st.integers(0, 2**16))
def test_attention_with_stable_softmax_matches_sdpa_even_for_fully_masked_rows(L_q, L_k, d, seed):
    # The page says F.scaled_dot_product_attention also gives a zero vector for a fully masked row.
    generator = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(n, d, generator=generator) for n in (L_q, L_k, L_k))
    keep = torch.rand(L_q, L_k, generator=generator) < 0.6
    keep[0] = False  # the first query sees nothing
    scores = (q @ k.T / d**0.5).masked_fill(~keep, float("-inf"))
    ours = stable_softmax(scores) @ v
    torch.testing.assert_close(ours, F.scaled_dot_product_attention(q, k, v, attn_mask=keep))
    assert torch.all(ours[0] == 0)


@pytest.mark.parametrize("bad", [float("inf"), float("nan")])
def test_rows_with_plus_inf_or_nan_are_nan_like_torch(bad):
    z = torch.tensor([[bad, 0.0, -1.0], [1.0, 0.0, -1.0]])
    p = stable_softmax(z)
    assert torch.isnan(p[0]).all() and torch.isfinite(p[1]).all()
    torch.testing.assert_close(p, torch.softmax(z, dim=-1), equal_nan=True)


def test_float16_keeps_its_dtype_and_is_close_to_torch():
    z = torch.randn(64, 16, generator=torch.Generator().manual_seed(0)).half() * 8
    p = stable_softmax(z)
    assert p.dtype == torch.float16
    torch.testing.assert_close(p, torch.softmax(z, dim=-1), atol=2e-3, rtol=1e-2)


BAD = [
    (torch.tensor([1, 2, 3]), "torch.int64"),
    (torch.tensor([1, 2, 3], dtype=torch.int32), "torch.int32"),
    (torch.tensor([0, 255], dtype=torch.uint8), "torch.uint8"),
    (torch.tensor([True, False]), "torch.bool"),
    (torch.tensor([1 + 1j, 2j]), "torch.complex64"),
    ([1.0, 2.0], "got list"),
    (np.array([1.0, 2.0]), "got ndarray"),
    (3.0, "got float"),
]


@pytest.mark.parametrize("fn", [naive_softmax, stable_softmax], ids=["naive", "stable"])
@pytest.mark.parametrize(("bad", "named"), BAD, ids=[n for _, n in BAD])
def test_non_floating_point_input_is_rejected_naming_its_type(fn, bad, named):
    with pytest.raises(TypeError, match=named):
        fn(bad)
