"""The beyond chapter's functions: causal linear attention as a masked L x L matrix and as running sums of
outer products agree with each other and with a slow loop; a padded key is a zero feature vector, so padding is
the same as cutting the keys off, and a row with no key is 0/0 unless eps > 0; differential attention's weights
are two softmax maps under one mask, subtracted, with rows summing to 1 - lambda and masked keys exactly 0; and
bad input is refused by name."""

import math

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

linear_dense = project.function("beyond/linear.py", "linear_dense")
linear_scan = project.function("beyond/linear.py", "linear_scan")
diff_weights = project.function("beyond/diff.py", "diff_weights")


def _phi(x):  # elu(x) + 1, one number at a time
    return x + 1 if x > 0 else math.exp(x)


@st.composite
def linear_cases(draw):
    """(q, k, v, keep, eps): float64 heads and tokens, a random key mask, eps 0 only where every row sees a key."""
    heads, n, d, dv = draw(st.integers(1, 2)), draw(st.integers(1, 6)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    q, k = (torch.rand(heads, n, d, generator=g, dtype=torch.float64) * 6 - 3 for _ in range(2))
    v = torch.rand(heads, n, dv, generator=g, dtype=torch.float64) * 6 - 3
    keep = torch.rand(n, generator=g) < draw(st.sampled_from([0.3, 0.7, 1.0]))
    eps = draw(st.sampled_from([1e-6, 0.5])) if not keep[0] else draw(st.sampled_from([0.0, 1e-6, 0.5]))
    return q, k, v, keep, eps


@settings(max_examples=200, deadline=None, derandomize=True)
@given(linear_cases())
def test_the_running_sum_and_the_masked_matrix_equal_a_slow_loop(case):
    q, k, v, keep, eps = case
    expected = torch.zeros(v.shape[0], q.shape[1], v.shape[2], dtype=torch.float64)
    for h in range(q.shape[0]):
        for i in range(q.shape[1]):  # sum over the past keys j <= i that are not padding
            a = [sum(_phi(x) * _phi(y) for x, y in zip(q[h, i].tolist(), k[h, j].tolist())) if keep[j] else 0.0
                 for j in range(i + 1)]
            expected[h, i] = sum(aj * v[h, j] for j, aj in enumerate(a)) / (sum(a) + eps)
    torch.testing.assert_close(linear_dense(q, k, v, keep, eps), expected, rtol=1e-10, atol=1e-10)
    torch.testing.assert_close(linear_scan(q, k, v, keep, eps), expected, rtol=1e-10, atol=1e-10)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(linear_cases(), st.integers(0, 6))
def test_left_padding_is_cutting_the_keys_off_and_its_rows_are_zero_or_nan(case, pad):
    q, k, v, _, eps = case
    n = q.shape[1]
    pad = min(pad, n - 1)
    keep = torch.arange(n) >= pad
    out = linear_scan(q, k, v, keep, eps=1e-6)
    torch.testing.assert_close(out[:, pad:], linear_scan(q[:, pad:], k[:, pad:], v[:, pad:], eps=1e-6),
                               rtol=1e-10, atol=1e-12)
    assert (out[:, :pad] == 0).all()  # 0 / (0 + eps): exactly 0
    assert linear_scan(q, k, v, keep)[:, :pad].isnan().all()  # 0 / 0
    assert not linear_scan(q, k, v, keep)[:, pad:].isnan().any()  # phi > 0: a row with a key is never 0/0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(linear_cases())
def test_the_normalised_rows_are_weights(case):
    q, k, _, _, _ = case
    eye = torch.eye(q.shape[1], dtype=torch.float64).expand(q.shape[0], -1, -1)
    w = linear_dense(q, k, eye)  # one-hot values: the output is the weights
    assert (w >= 0).all() and (w.triu(1) == 0).all()  # no weight on a future key
    torch.testing.assert_close(w.sum(-1), torch.ones(w.shape[:-1], dtype=torch.float64), rtol=0, atol=1e-12)


@st.composite
def diff_cases(draw):
    """(q1, k1, q2, k2, lam, keep): float64, a random mask with a key in every row, lam in [0, 1]."""
    heads, n_q, n_k, d = draw(st.integers(1, 2)), draw(st.integers(1, 5)), draw(st.integers(1, 6)), draw(st.integers(1, 4))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    qs = [torch.rand(heads, n, d, generator=g, dtype=torch.float64) * 6 - 3 for n in (n_q, n_k, n_q, n_k)]
    keep = torch.rand(n_q, n_k, generator=g) < draw(st.sampled_from([0.3, 0.7, 1.0]))
    keep[torch.arange(n_q), torch.randint(0, n_k, (n_q,), generator=g)] = True  # a key in every row
    return (*qs, draw(st.floats(0, 1)), keep)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(diff_cases())
def test_differential_weights_are_two_masked_softmaxes_subtracted(case):
    q1, k1, q2, k2, lam, keep = case
    expected = torch.zeros(q1.shape[0], q1.shape[1], k1.shape[1], dtype=torch.float64)
    for h in range(q1.shape[0]):
        for i in range(q1.shape[1]):
            maps = []
            for q, k in ((q1, k1), (q2, k2)):  # a softmax over the kept keys only, slowly
                e = [math.exp(float(q[h, i] @ k[h, j]) / math.sqrt(q.shape[-1])) if keep[i, j] else 0.0
                     for j in range(k.shape[1])]
                maps.append(torch.tensor(e, dtype=torch.float64) / sum(e))
            expected[h, i] = maps[0] - lam * maps[1]
    w = diff_weights(q1, k1, q2, k2, lam, keep)
    torch.testing.assert_close(w, expected, rtol=0, atol=1e-12)
    torch.testing.assert_close(w.sum(-1), torch.full(w.shape[:-1], 1 - lam, dtype=torch.float64), rtol=0, atol=1e-12)
    assert (w[..., ~keep] == 0).all()  # 0 - lam * 0
    assert (w >= -lam).all() and (w <= 1).all()  # each map's weights are in [0, 1]


def _call(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


_x = torch.zeros(2, 3, 4)


@pytest.mark.parametrize(("call", "match"), [
    (_call(linear_scan, _x, torch.zeros(2, 4, 4), _x), "want q, k (..., L, d) and v (..., L, d_v)"),
    (_call(linear_dense, _x, _x, torch.zeros(2, 4, 4)), "want q, k (..., L, d) and v (..., L, d_v)"),
    (_call(linear_dense, torch.zeros(3), torch.zeros(3), torch.zeros(3)), "want q, k (..., L, d) and v (..., L, d_v)"),
    (_call(linear_scan, _x, _x, _x, torch.ones(3)), "keep must be bool (..., L) with L = 3"),
    (_call(linear_dense, _x, _x, _x, torch.ones(4, dtype=torch.bool)), "keep must be bool (..., L) with L = 3"),
    (_call(diff_weights, _x, _x, _x, torch.zeros(2, 3, 5), 0.5), "want q1, q2 (..., L_Q, d) and k1, k2 (..., L_K, d)"),
    (_call(diff_weights, _x, torch.zeros(2, 3, 5), _x, torch.zeros(2, 3, 5), 0.5),
     "want q1, q2 (..., L_Q, d) and k1, k2 (..., L_K, d)"),
    (_call(diff_weights, _x, _x, _x, _x, 0.5, torch.ones(3, 3)), "keep must be bool with a key in every row"),
    (_call(diff_weights, _x, _x, _x, _x, 0.5, torch.eye(3, dtype=torch.bool).tril(-1)),
     "keep must be bool with a key in every row"),
])
def test_beyond_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        call()
