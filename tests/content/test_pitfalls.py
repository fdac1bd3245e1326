"""The pitfalls chapter's functions, on inputs the page does not show: each fix holds in general,
each pitfall is not an accident of the one example the page prints."""

import math
import re

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

naive_softmax = project.function("pitfalls/naive_softmax.py", "naive_softmax")
stable_softmax = project.function("pitfalls/naive_softmax.py", "stable_softmax")
attend_padded = project.function("padding/pooling.py", "attend")
attend_masked = project.function("padding/fixes.py", "attend")
nan_to_num = project.function("padding/fixes.py", "nan_to_num")
double_where = project.function("padding/fixes.py", "double_where")


def _grad_nans(L, d, seed, **how):
    """NaN counts in the grads of q, k, v when query row 0 sees no key, the loss leaving it out."""
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(L, d, generator=g).requires_grad_() for _ in range(3))
    keep = torch.rand(L, L, generator=g) < 0.7
    keep[0], keep[1:, 0] = False, True  # row 0: no key; every other row sees key 0
    out = attend_masked(q, k, v, keep, **how)
    out[1:].sum().backward()
    return out[0], [int(t.grad.isnan().sum()) for t in (q, k, v)]

seeds = st.integers(0, 2**16)
FLOATS = st.sampled_from([torch.float32, torch.float64])


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 5), n=st.integers(1, 8), seed=seeds, offset=st.floats(-1e4, 1e4), dtype=FLOATS)
def test_stable_softmax_is_torch_softmax_at_any_offset(rows, n, seed, offset, dtype):
    generator = torch.Generator().manual_seed(seed)
    z = (torch.randn(rows, n, generator=generator) * 5 + offset).to(dtype)
    torch.testing.assert_close(stable_softmax(z), torch.softmax(z, dim=-1))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 8), seed=seeds, dtype=st.sampled_from([torch.float16, torch.float32]))
def test_naive_softmax_overflows_where_the_fix_does_not(n, seed, dtype):
    # The largest score sits just above log(largest finite number): exp gives inf, inf / inf is NaN.
    generator = torch.Generator().manual_seed(seed)
    z = torch.randn(n, generator=generator)
    z = (z - z.max() + math.log(torch.finfo(dtype).max) + 1).to(dtype)
    assert naive_softmax(z).isnan().any()
    fixed = stable_softmax(z)
    assert fixed.isfinite().all()
    assert abs(fixed.float().sum().item() - 1) < 1e-2  # float16 rounds each of n entries


@settings(max_examples=30, deadline=None)
@given(lengths=st.lists(st.integers(1, 6), min_size=1, max_size=4), d=st.integers(1, 6), seed=seeds)
def test_key_padding_mask_makes_padding_invisible_to_real_tokens(lengths, d, seed):
    generator = torch.Generator().manual_seed(seed)
    lengths_t = torch.tensor(lengths)
    L = max(lengths)
    keep = torch.arange(L) < lengths_t[:, None]
    x = torch.randn(len(lengths), L, d, generator=generator)
    weights = torch.randn(3, d, d, generator=generator)
    out = attend_padded(x, keep, *weights)
    for b, n in enumerate(lengths):
        alone = attend_padded(x[b : b + 1, :n], keep[b : b + 1, :n], *weights)[0]
        torch.testing.assert_close(out[b, :n], alone, rtol=1e-4, atol=1e-5)
        masked_mean = (out[b] * keep[b, :, None]).sum(dim=0) / n  # the page's fix
        torch.testing.assert_close(masked_mean, alone.mean(dim=0), rtol=1e-4, atol=1e-5)
        # The pitfall: averaging the [PAD] rows in gives another vector. (When the real rows are all
        # alike, e.g. one real token or d = 1 with equal values, every row copies the same vector and
        # the means agree: hypothesis found lengths [1, 4, 2], d = 1.)
        if 2 <= n < L and alone.std(dim=0).max() > 1e-3:
            assert not torch.allclose(out[b].mean(dim=0), alone.mean(dim=0), rtol=1e-4, atol=1e-5)


@settings(max_examples=30, deadline=None)
@given(L=st.integers(2, 6), d=st.integers(1, 6), seed=seeds, additive=st.booleans())
def test_double_where_keeps_nan_out_of_every_gradient(L, d, seed, additive):
    # docs/padding.md#handling: the rule that works however the mask was applied.
    row, nans = _grad_nans(L, d, seed, fill=float("-inf"), additive=additive, weigh=double_where)
    assert (row == 0).all() and nans == [0, 0, 0]


@settings(max_examples=30, deadline=None)
@given(L=st.integers(2, 6), d=st.integers(1, 6), seed=seeds)
def test_nan_to_num_cleans_the_output_but_not_q_and_k_grads_of_an_added_mask(L, d, seed):
    row, nans = _grad_nans(L, d, seed, fill=float("-inf"), additive=True, weigh=nan_to_num)
    assert (row == 0).all() and nans[0] == d and nans[1] == L * d
    _, nans = _grad_nans(L, d, seed, fill=float("-inf"), additive=False, weigh=nan_to_num)
    assert nans == [0, 0, 0]  # masked_fill cut the gradient at the hidden scores


@settings(max_examples=30, deadline=None)
@given(fill=st.floats(min_value=float(torch.finfo(torch.float32).min), max_value=-1.0), seed=seeds)
def test_a_finite_fill_that_replaces_the_scores_keeps_nan_out(fill, seed):
    _, nans = _grad_nans(4, 3, seed, fill=fill)
    assert nans == [0, 0, 0]


@pytest.mark.parametrize("additive", [False, True])
def test_minus_inf_fill_leaves_nan_in_the_gradient_of_v(additive):
    _, nans = _grad_nans(4, 3, 0, fill=float("-inf"), additive=additive)
    assert nans[2] > 0


def test_padded_attention_refuses_a_float_mask():
    # A 0/1 float mask cannot be inverted: the snippet never guesses which value means "keep".
    x, weights = torch.randn(1, 3, 2), torch.randn(3, 2, 2)
    with pytest.raises(TypeError, match="invert"):
        attend_padded(x, torch.tensor([[1.0, 1.0, 0.0]]), *weights)


def test_padded_attention_refuses_a_mask_of_another_length():
    x, weights = torch.randn(1, 3, 2), torch.randn(3, 2, 2)
    with pytest.raises(RuntimeError, match="must match"):
        attend_padded(x, torch.tensor([[True, True, True, False]]), *weights)


# pitfalls/forgot_scaling.py: attend ------------------------------------------------------------

attend_scaled = project.function("pitfalls/forgot_scaling.py", "attend")


@settings(max_examples=20, deadline=None)
@given(L=st.integers(1, 6), d=st.integers(1, 8), seed=seeds, divisor=st.floats(0.01, 100))
def test_forgot_scaling_attend_is_softmax_of_the_divided_scores(L, d, seed, divisor):
    g = torch.Generator().manual_seed(seed)
    q, k, v, grad = (torch.randn(L, d, generator=g, dtype=torch.float64) for _ in range(4))
    w, push = attend_scaled(q, k, v, grad, divisor)
    torch.testing.assert_close(w, torch.softmax(q @ k.T / divisor, dim=-1))
    assert push.shape == (L,) and bool((push >= 0).all()) and not q.requires_grad  # q itself untouched


@pytest.mark.parametrize(("divisor", "got"), [(0.0, "0.0"), (0, "0"), (-1.0, "-1.0"), (-(32**0.5), "-5.656854"),
                                             (float("nan"), "nan"), (float("inf"), "inf"), (torch.tensor(0.0), "0.0")])
def test_forgot_scaling_attend_refuses_a_divisor_that_is_not_positive_and_finite(divisor, got):
    # 0 gives inf / nan scores, a negative divisor turns the order of the keys upside down,
    # inf makes every weight equal.
    q = k = v = grad = torch.ones(2, 4)
    with pytest.raises(ValueError, match=rf"divisor must be a positive finite number, got {re.escape(got)}"):
        attend_scaled(q, k, v, grad, divisor)
