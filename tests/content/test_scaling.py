"""Properties of the scaling chapter's helpers, for sizes and inputs the page does not show."""

import math

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

sharpness = project.Names("scaling/sharpness.py")
entropy = project.function("scaling/sharpness.py", "entropy")
jacobian = project.function("scaling/sharpness.py", "jacobian")
dot_products = project.function("scaling/variance.py", "dot_products")
make_dot_product_tensor = project.function("scaling/seed.py", "make_dot_product_tensor")
split_heads = project.function("scaling/dk.py", "split_heads")

sizes = st.integers(1, 12)
seeds = st.integers(0, 2**16)


def random_probs(rows, n, seed, spread, dtype=torch.float32):
    generator = torch.Generator().manual_seed(seed)
    logits = torch.randn(rows, n, generator=generator, dtype=dtype) * spread
    return torch.softmax(logits, dim=-1)


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 5), n=sizes, seed=seeds, spread=st.floats(0.01, 50))
def test_entropy_lies_between_zero_and_log_n(rows, n, seed, spread):
    h = entropy(random_probs(rows, n, seed, spread))
    assert h.shape == (rows,)
    assert (h >= -1e-6).all() and (h <= math.log(n) + 1e-5).all()


@settings(max_examples=20, deadline=None)
@given(n=sizes)
def test_entropy_is_log_n_for_uniform_and_zero_for_one_hot(n):
    assert entropy(torch.full((1, n), 1 / n)).item() == pytest.approx(math.log(n), abs=1e-5)
    assert torch.equal(entropy(torch.eye(n)), torch.zeros(n))  # 0 * log(0) counts as exactly 0


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 4), n=sizes, seed=seeds, spread=st.floats(0.01, 20))
def test_jacobian_is_symmetric_psd_with_zero_row_sums_and_matches_autograd(rows, n, seed, spread):
    p = random_probs(rows, n, seed, spread, torch.float64)
    j = jacobian(p)
    assert j.shape == (rows, n, n)
    torch.testing.assert_close(j, j.transpose(-2, -1))
    torch.testing.assert_close(j.sum(dim=-1), torch.zeros(rows, n, dtype=p.dtype))
    assert (torch.linalg.eigvalsh(j) >= -1e-12).all()  # diag(p) - p p^T is a covariance
    z = torch.log(p[0])  # softmax(log p) = p, so autograd's Jacobian at log p is J(p)
    expected = torch.autograd.functional.jacobian(lambda x: torch.softmax(x, dim=-1), z)
    torch.testing.assert_close(j[0], expected)


@settings(max_examples=20, deadline=None)
@given(n=sizes)
def test_jacobian_vanishes_at_one_hot(n):
    assert torch.equal(jacobian(torch.eye(n)), torch.zeros(n, n, n))


@pytest.mark.parametrize("fn", [entropy, jacobian], ids=["entropy", "jacobian"])
def test_bad_probabilities_are_refused(fn):
    with pytest.raises(TypeError, match="floating-point"):
        fn(torch.tensor([[0, 1]]))
    with pytest.raises(ValueError, match="probabilities"):
        fn(torch.tensor([[1.5, -0.5]]))  # sums to 1 but has a negative entry
    with pytest.raises(ValueError, match="probabilities"):
        fn(torch.tensor([[0.2, 0.2]]))  # raw scores, not softmax output


@settings(max_examples=10, deadline=None)
@given(c=st.floats(0.5, 4), seed=seeds)
def test_scaled_score_std_stays_near_sigma2_across_d(c, seed):
    # Entries ~ U(-c, c): sigma^2 = c^2 / 3, and std(q . k / sqrt(d)) = sigma^2 for every d.
    torch.manual_seed(seed)
    sigma2 = c**2 / 3
    for d in (2, 8, 32, 128, 512):
        scaled_std = (dot_products(4000, d, -c, c) / math.sqrt(d)).std().item()
        assert scaled_std == pytest.approx(sigma2, rel=0.08), d


def test_scaled_score_std_for_the_seed_range_is_three():
    torch.manual_seed(0)
    for d in (1, 10, 100, 1000):
        assert (dot_products(4000, d) / math.sqrt(d)).std().item() == pytest.approx(3, rel=0.08)


@pytest.mark.parametrize(("n", "d", "low", "high"), [(0, 4, -3, 3), (10, 0, -3, 3), (10, 4, 3, -3)])
def test_dot_products_refuses_bad_sizes_and_ranges(n, d, low, high):
    with pytest.raises(ValueError, match="low < high"):
        dot_products(n, d, low, high)


@settings(max_examples=20, deadline=None)
@given(length=sizes, dim=st.integers(1, 64))
def test_dot_product_tensor_shape_and_bound(length, dim):
    s = make_dot_product_tensor(length, dim)
    assert s.shape == (length, length)
    assert (s.abs() <= 9 * dim + 1e-3).all()  # each of the dim products is at most 3 * 3


def test_split_heads_is_a_lossless_reshape():
    dk = project.run("scaling/dk.py").namespace
    x = torch.randn(dk["batch"], dk["length"], dk["d_model"])
    heads = split_heads(x, dk["heads"])
    assert heads.shape == (dk["batch"], dk["heads"], dk["length"], dk["d_k"])
    assert torch.equal(heads.transpose(1, 2).reshape(x.shape), x)
    assert torch.equal(heads[:, 1], x[..., dk["d_k"] : 2 * dk["d_k"]])  # head 1 = 2nd slice of 64


# scaling/correlated.py: typical_score ----------------------------------------------------------

typical_score = project.function("scaling/correlated.py", "typical_score")


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 50), d=st.integers(1, 64), seed=seeds, divisor=st.floats(0.1, 100))
def test_typical_score_is_the_mean_and_std_of_the_row_dot_products(n, d, seed, divisor):
    g = torch.Generator().manual_seed(seed)
    q, k = (torch.randn(n, d, generator=g, dtype=torch.float64) for _ in range(2))
    s = torch.einsum("nd,nd->n", q, k) / divisor
    mean, std = typical_score(q, k, divisor)
    assert math.isclose(mean, s.mean().item(), rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(std, s.std().item(), rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize(
    ("q", "k", "divisor", "error", "match"),
    [
        (torch.ones(4, 3, dtype=torch.int8), torch.ones(4, 3, dtype=torch.int8), 1.0, TypeError,
         r"q and k must be float tensors, got torch\.int8 and torch\.int8"),  # 100 * 100 wraps in int8
        (torch.ones(4, 3), torch.ones(4, 3, dtype=torch.bool), 1.0, TypeError, r"got torch\.float32 and torch\.bool"),
        (torch.ones(4, 3), torch.ones(4, 3), 0.0, ValueError, r"divisor must be a positive finite number, got 0\.0"),
        (torch.ones(4, 3), torch.ones(4, 3), -8.0, ValueError, r"positive finite number, got -8\.0"),
        (torch.ones(4, 3), torch.ones(4, 3), float("nan"), ValueError, r"positive finite number, got nan"),
        (torch.ones(4, 3), torch.ones(4, 3), float("inf"), ValueError, r"positive finite number, got inf"),
        (torch.ones(1, 3), torch.ones(1, 3), 1.0, ValueError, r"want two or more rows \(q_i, k_i\) for a std, got 1"),
        (torch.ones(3), torch.ones(3), 1.0, ValueError, r"two or more rows .* got 1"),  # one pair, not rows
        (torch.full((4, 4096), 20.0, dtype=torch.float16), torch.full((4, 4096), 20.0, dtype=torch.float16), 64.0,
         ValueError, r"not finite in torch\.float16: nan in q or k, or a dtype too narrow"),  # the sum overflows
        (torch.tensor([[1.0, float("nan")], [1.0, 2.0]]), torch.ones(2, 2), 1.0, ValueError, r"not finite in torch\.float32"),
    ],
)
def test_typical_score_refuses_what_gives_nan_or_meaningless_numbers(q, k, divisor, error, match):
    with pytest.raises(error, match=match):
        typical_score(q, k, divisor)
