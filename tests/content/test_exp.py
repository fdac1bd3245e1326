"""Properties of the exp chapter's edge finder, and of torch.exp as the chapter relies on it."""

import math
import threading

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

edges = project.Names("exp/edges.py")
last_true = project.function("exp/edges.py", "last_true")
exp_edges = project.function("exp/edges.py", "exp_edges")

SHOWN = [torch.float32, torch.float16, torch.bfloat16]  # the dtypes the chapter's tables show
ALL = [torch.float64, *SHOWN]


def every_value(dtype):
    """Every finite number of a 16-bit dtype, sorted."""
    z = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16).view(dtype)
    return z[z.isfinite()].sort().values


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_edges_agree_with_every_value_of_a_16_bit_dtype(dtype):
    # Exhaustive, and through the vectorised kernel the tables use rather than 0-d tensors.
    under, over = exp_edges(dtype)
    z = every_value(dtype)
    e = torch.exp(z)
    assert torch.equal(e == 0, z <= under)
    assert torch.equal(e.isfinite(), z <= over)
    assert bool((e[1:] >= e[:-1]).all())  # exp never decreases, even after rounding


@settings(max_examples=30, deadline=None)
@given(dtype=st.sampled_from(ALL), x=st.floats(-800, 800))
def test_exp_is_zero_exactly_below_the_edge_and_finite_below_the_other(dtype, x):
    under, over = exp_edges(dtype)
    z = torch.tensor(x, dtype=dtype)
    e = torch.exp(z)
    assert bool(e == 0) == bool(z <= under)
    assert bool(e.isfinite()) == bool(z <= over)
    if under < z <= over:
        assert e > 0  # between the edges exp is a positive finite number


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_edges_are_neighbours_of_where_exp_changes(dtype):
    under, over = exp_edges(dtype)
    up = lambda z: torch.nextafter(torch.tensor(z, dtype=dtype), torch.tensor(math.inf, dtype=dtype))
    assert torch.exp(torch.tensor(under, dtype=dtype)) == 0 < torch.exp(up(under))
    assert torch.exp(torch.tensor(over, dtype=dtype)).isfinite() and torch.exp(up(over)).isinf()
    info = torch.finfo(dtype)
    assert under < math.log(info.smallest_normal) < 0 < over <= math.log(info.max)


@settings(max_examples=30, deadline=None)
@given(dtype=st.sampled_from(ALL), threshold=st.floats(-1e4, 1e4), steps=st.integers(-40, 40))
def test_last_true_finds_the_largest_number_at_or_below_a_threshold(dtype, threshold, steps):
    # Start a few numbers of the dtype above or below the threshold: it walks one at a time.
    start = torch.tensor(threshold, dtype=dtype)
    for _ in range(abs(steps)):
        start = torch.nextafter(start, torch.tensor(math.copysign(math.inf, steps), dtype=dtype))
    t = torch.tensor(threshold, dtype=torch.float64)
    z = last_true(lambda z: z.double() <= t, start)
    assert z.dtype == dtype and z.double() <= t
    assert torch.nextafter(z, torch.tensor(math.inf, dtype=dtype)).double() > t


def _within(seconds, call):
    """What call() raised, or pytest.fail if it is still running after seconds (it would hang)."""
    outcome = []

    def target():
        try:
            outcome.append(call())
        except Exception as error:  # noqa: BLE001 - handed to the test
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still running after {seconds} s: the walk does not stop")
    return outcome[0]


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_last_true_refuses_a_nan_start_rather_than_walking_forever(dtype):
    nan = torch.tensor(math.nan, dtype=dtype)
    error = _within(60, lambda: last_true(lambda z: torch.exp(z).isfinite(), nan))
    assert isinstance(error, ValueError) and "z must be a number to walk from, got nan" in str(error)


@pytest.mark.parametrize("pred", ["exp finite", "always", "never"])
def test_last_true_stops_with_an_error_far_from_the_edge(pred):
    # From float64 0.0 the overflow edge lies about 4.6e18 numbers up; a pred that never changes
    # has no edge at all (it would walk to +-inf and stay there). Each stops after `steps`.
    pred = {"exp finite": lambda z: torch.exp(z).isfinite(), "always": lambda z: torch.tensor(True),
            "never": lambda z: torch.tensor(False)}[pred]
    start = torch.tensor(0.0, dtype=torch.float64)
    error = _within(60, lambda: last_true(pred, start))
    assert isinstance(error, ValueError), error
    assert "pred did not change within 10000 numbers of the start z" in str(error)
    error = _within(60, lambda: last_true(pred, start, steps=5))
    assert "within 5 numbers" in str(error)


@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8, torch.bool], ids=str)
def test_exp_edges_rejects_an_integer_dtype(dtype):
    with pytest.raises(TypeError, match="requires a floating point input type"):
        exp_edges(dtype)


def test_exp_edges_rejects_a_complex_dtype():
    # Complex numbers have no "next number": torch says so rather than returning nonsense.
    with pytest.raises(NotImplementedError, match="not implemented for 'ComplexFloat'"):
        exp_edges(torch.complex64)


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_exp_of_minus_infinity_is_exactly_positive_zero(dtype):
    e = torch.exp(torch.full((3,), -math.inf, dtype=dtype))
    assert torch.equal(e, torch.zeros(3, dtype=dtype)) and not e.signbit().any()


@settings(max_examples=30, deadline=None)
@given(a=st.floats(-300, 300), b=st.floats(-300, 300))
def test_exp_turns_sums_into_products_in_float64(a, b):
    a, b = torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64)
    # The only rounding that matters is that of a + b: half an ulp of |a + b| at most, relatively.
    tolerance = 4 * torch.finfo(torch.float64).eps * (1 + abs(a + b).item())
    assert math.isclose(torch.exp(a + b), torch.exp(a) * torch.exp(b), rel_tol=tolerance)


@settings(max_examples=30, deadline=None)
@given(dtype=st.sampled_from(ALL), s=st.floats(-30, 10))
def test_adding_a_mask_keeps_or_removes_the_unnormalised_weight(dtype, s):
    # M = 0 multiplies exp(s) by exactly 1, M = -inf by exactly 0, in every dtype.
    score = torch.tensor(s, dtype=dtype)
    assert torch.equal(torch.exp(score + 0), torch.exp(score))
    assert torch.exp(score + torch.tensor(-math.inf, dtype=dtype)) == 0
