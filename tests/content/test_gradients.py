"""`masked_softmax` (snippets/gradients/masked_softmax.py) for shapes, axes and masks the page does
not show: rows with a visible key equal torch.softmax, rows with none are exact zeros with zero
gradient, no gradient holds NaN, float64 passes gradcheck, and bad inputs raise named errors.
An attention built on it matches SDPA, gradients included, on this torch's CPU kernels."""

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

masked_softmax = project.function("gradients/masked_softmax.py", "masked_softmax")


@st.composite
def problems(draw):
    """Scores of 1 to 4 axes, a random axis, a keep-mask of a broadcastable shape (often with rows
    that see nothing), float32 or float64, and a random upstream gradient."""
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    scores = (torch.randn(shape, generator=g, dtype=torch.float64) * draw(st.floats(0.1, 20))).to(dtype)
    ones = draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)))
    keep_shape = tuple(1 if one else n for one, n in zip(ones, shape))[draw(st.integers(0, len(shape) - 1)):]
    keep = torch.rand(keep_shape, generator=g) < draw(st.floats(0.0, 1.0))
    upstream = torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)
    return scores, keep, dim, upstream


@settings(max_examples=40, deadline=None, derandomize=True)
@given(problems())
def test_rows_with_a_key_are_softmax_rows_without_are_zero_and_no_gradient_is_nan(problem):
    scores, keep, dim, upstream = problem
    s = scores.clone().requires_grad_()
    w = masked_softmax(s, keep, dim)
    assert w.shape == scores.shape and w.dtype == scores.dtype
    full = keep.expand(scores.shape)
    seen = full.any(dim=dim, keepdim=True).expand(scores.shape)
    reference = torch.softmax(scores.masked_fill(~full, -torch.inf), dim=dim)
    torch.testing.assert_close(w[seen], reference[seen], rtol=0, atol=0)
    assert (w[~seen] == 0).all() and (w[~full] == 0).all()  # exact zeros, not small numbers
    (w * upstream).sum().backward()
    assert not s.grad.isnan().any() and s.grad.isfinite().all()
    assert (s.grad[~full] == 0).all()  # hidden cells and rows with no key learn nothing
    r = scores.clone().requires_grad_()
    (torch.softmax(r.masked_fill(~full, -torch.inf), dim=dim) * upstream.masked_fill(~seen, 0)).sum().backward()
    torch.testing.assert_close(s.grad[seen], r.grad[seen])  # where a row sees a key: softmax's gradient


@settings(max_examples=10, deadline=None, derandomize=True)
@given(problems())
def test_gradcheck_in_float64(problem):
    scores, keep, dim, _ = problem
    s = scores.double().clamp(-5, 5).requires_grad_()  # finite differences want moderate scores
    assert torch.autograd.gradcheck(lambda x: masked_softmax(x, keep, dim), (s,))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(1, 3), st.integers(1, 5), st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**16))
def test_attention_built_on_it_matches_sdpa_with_gradients(B, L_Q, L_K, d, seed):
    # This torch's CPU SDPA gives rows with no key output 0 and finite gradients (the page measures
    # it); upgrading torch fails the version check first.
    assert torch.__version__.startswith("2.13.")
    g = torch.Generator().manual_seed(seed)
    q0, k0, v0 = (torch.randn(B, 1, n, d, generator=g, dtype=torch.float64) for n in (L_Q, L_K, L_K))
    keep = torch.rand(B, 1, L_Q, L_K, generator=g) < 0.5
    ours, theirs = [[t.clone().requires_grad_() for t in (q0, k0, v0)] for _ in range(2)]
    out = masked_softmax(ours[0] @ ours[1].mT / d**0.5, keep) @ ours[2]
    expected = F.scaled_dot_product_attention(*theirs, attn_mask=keep)
    torch.testing.assert_close(out, expected)
    out.sum().backward()
    expected.sum().backward()
    for a, b in zip(ours, theirs):
        assert not a.grad.isnan().any()
        torch.testing.assert_close(a.grad, b.grad)


def test_a_nan_in_a_hidden_cell_reaches_neither_the_weights_nor_the_gradient():
    scores = torch.tensor([[0.5, float("nan"), 1.0], [float("nan")] * 3]).requires_grad_()
    keep = torch.tensor([[True, False, True], [False, False, False]])
    w = masked_softmax(scores, keep)
    w.sum().backward()
    assert w.isfinite().all() and (w[1] == 0).all() and w[0, 1] == 0
    assert not scores.grad.isnan().any()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_keeps_its_dtype_and_zero_rows(dtype):
    scores = torch.randn(3, 4).to(dtype)
    keep = torch.tensor([[True] * 4, [False] * 4, [True, True, False, False]])
    w = masked_softmax(scores, keep)
    assert w.dtype == dtype and (w[1] == 0).all() and (w[2, 2:] == 0).all()


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((torch.ones(2, 3).long(), torch.ones(2, 3) > 0), TypeError, "scores must be a floating-point tensor, got torch.int64"),
        (([0.5, 1.5], torch.ones(2) > 0), TypeError, "scores must be a floating-point tensor, got list"),
        ((torch.ones(2, 3), torch.ones(2, 3).int()), TypeError, r"keep must be a bool tensor \(True = take part\), got torch.int32"),
        ((torch.ones(2, 3), [True, False, True]), TypeError, "keep must be a bool tensor .* got list"),
        ((torch.ones(2, 3), torch.ones(2, 2) > 0), ValueError, r"keep \(2, 2\) does not broadcast to the scores \(2, 3\)"),
        ((torch.ones(3), torch.ones(2, 3) > 0), ValueError, r"keep \(2, 3\) does not broadcast to the scores \(3,\)"),
        ((torch.ones(2, 3), torch.ones(2, 3) > 0, 2), IndexError, "Dimension out of range"),
    ],
)
def test_bad_inputs_are_refused_with_a_message_that_names_the_problem(args, error, message):
    with pytest.raises(error, match=message):
        masked_softmax(*args)


def test_inf_or_nan_in_a_cell_that_takes_part_gives_a_nan_row_as_torch_softmax():
    # the page says: such a row is a bug upstream, so it is not hidden
    scores = torch.tensor([[0.5, float("inf"), 1.0], [float("nan"), 0.0, 1.0], [0.0, 1.0, 2.0]])
    keep = torch.ones(3, 3, dtype=torch.bool)
    w = masked_softmax(scores, keep)
    assert w[:2].isnan().all() and w[2].isfinite().all()
    torch.testing.assert_close(w, torch.softmax(scores, dim=-1), equal_nan=True)


def test_no_step_of_the_backward_makes_a_nan_so_detect_anomaly_stays_quiet():
    # the page's reason for the `where` before the softmax: without it the scores' gradient is
    # still clean, but SoftmaxBackward0 makes NaN on the way and detect_anomaly stops there
    scores = torch.randn(3, 4, generator=torch.Generator().manual_seed(0)).requires_grad_()
    keep = torch.tensor([[True] * 4, [False] * 4, [True, True, False, False]])
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with torch.autograd.detect_anomaly():
            (masked_softmax(scores, keep) * torch.arange(12.0).view(3, 4)).sum().backward()
    assert not scores.grad.isnan().any()
