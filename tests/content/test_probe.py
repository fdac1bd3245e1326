"""The probe chapter's functions: on a random one-layer attention under a causal mask first_leak
finds nothing; with the mask dropped, or with future keys unmasked, it returns exactly the first
(output, token) pair the mask lets see the future, and the dependency grid is the mask itself;
and bad input is refused by name.

The model makes every dependence the mask allows large and every other one exactly zero, for
every draw: tokens are distinct ids >= 2 (the probe puts id 0 in, which no token uses), values
are the tokens' one-hot vectors, and scores are bounded by 1 in absolute value, so a key the mask
keeps takes a weight >= exp(-2) / L, and replacing its token moves the output by at least that in
the column of id 0; a key the mask hides takes weight exactly 0, so its token cannot move the
output at all (float64)."""

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

first_leak = project.function("probe/probe.py", "first_leak")
dependence = project.function("probe/grid.py", "dependence")


def _attention(keep, heads, d, seed):
    """ids (1, L) -> outputs (1, L, heads * V): one attention layer under keep[i, j]
    (query i sees key j), values the one-hot tokens, scores in [-1, 1]."""
    length = keep.shape[0]
    vocab = length + 2
    g = torch.Generator().manual_seed(seed)
    w_q, w_k = (torch.rand(heads, vocab, d, generator=g, dtype=torch.float64) * 2 - 1 for _ in range(2))

    def model(ids):
        x = torch.nn.functional.one_hot(ids[0], vocab).double()  # (L, V)
        scores = torch.einsum("hld,hmd->hlm", x @ w_q, x @ w_k) / d  # |score| <= 1
        weights = scores.masked_fill(~keep, -torch.inf).softmax(-1)
        return (weights @ x).permute(1, 0, 2).reshape(1, length, heads * vocab)

    return model


@st.composite
def models(draw, extra):
    """(keep, ids, model): a causal mask with `extra` future keys unmasked ("all": every one)."""
    length, heads, d = draw(st.integers(2, 12)), draw(st.integers(1, 3)), draw(st.integers(1, 6))
    keep = torch.ones(length, length, dtype=torch.bool).tril()
    future = [(i, j) for i in range(length) for j in range(i + 1, length)]
    if extra == "all":
        keep[:] = True
    elif extra:
        for i, j in draw(st.lists(st.sampled_from(future), min_size=1, max_size=extra)):
            keep[i, j] = True
    ids = torch.tensor(draw(st.permutations(range(2, length + 2))))[None]  # distinct, never 0
    return keep, ids, _attention(keep, heads, d, draw(st.integers(0, 2**16)))


def _expected(keep, last_only=False):
    """The first (i, j), j > i, that the mask lets output i see: read off the mask."""
    length = keep.shape[0]
    pairs = [(i, j) for i in range(length) for j in range(i + 1, length) if keep[i, j]]
    return min((p for p in pairs if not last_only or p[1] == length - 1), default=None)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(models(extra=0))
def test_a_causal_model_has_no_leak(case):
    keep, ids, model = case
    assert first_leak(model, ids, tol=1e-12) is None
    assert first_leak(model, ids, tol=1e-12, last_only=True) is None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(models(extra="all"), models(extra=4)))
def test_the_first_leak_is_the_first_future_key_the_mask_keeps(case):
    keep, ids, model = case
    assert first_leak(model, ids, tol=1e-9) == _expected(keep)
    assert first_leak(model, ids, tol=1e-9, last_only=True) == _expected(keep, last_only=True)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(models(extra=0), models(extra=4)))
def test_the_dependency_grid_is_the_mask_transposed(case):
    keep, ids, model = case
    length = keep.shape[0]
    moved = dependence(model, ids, tol=1e-9)  # moved[j, i]: token j moved output i
    assert torch.equal(moved, keep.T | torch.eye(length, dtype=torch.bool))


def test_a_dropped_mask_leaks_at_the_first_pair():
    keep = torch.ones(5, 5, dtype=torch.bool)
    assert first_leak(_attention(keep, 2, 4, 0), torch.tensor([[2, 3, 4, 5, 6]])) == (0, 1)


def _shifted(ids):
    return torch.zeros(1, ids.shape[1] - 1, 3)


def _random(ids):
    return torch.rand(1, ids.shape[1], 3)


def _nan(ids):
    return torch.full((1, ids.shape[1], 3), float("nan"))


ONE = torch.tensor([[1, 2, 3, 4, 5]])
OUTPUTS = "need finite outputs (1, 5, ...), equal on a second call"


@pytest.mark.parametrize(("call", "match"), [
    (lambda: first_leak(_random, torch.tensor([1, 2, 3])), "need ids (1, L >= 2), tol > 0; got [3], 1e-06"),
    (lambda: first_leak(_random, torch.ones(2, 3, dtype=torch.long)), "need ids (1, L >= 2), tol > 0; got [2, 3], 1e-06"),
    (lambda: first_leak(_random, torch.tensor([[1]])), "need ids (1, L >= 2), tol > 0; got [1, 1], 1e-06"),
    (lambda: first_leak(_random, ONE, tol=0), "need ids (1, L >= 2), tol > 0; got [1, 5], 0"),
    (lambda: first_leak(_random, ONE, tol=-1e-3), "need ids (1, L >= 2), tol > 0; got [1, 5], -0.001"),
    (lambda: first_leak(_random, ONE, tol=float("nan")), "need ids (1, L >= 2), tol > 0; got [1, 5], nan"),
    (lambda: first_leak(_shifted, ONE), OUTPUTS),
    (lambda: first_leak(lambda ids: {"logits": _shifted(ids)}, ONE), OUTPUTS),
    (lambda: first_leak(_nan, ONE), OUTPUTS),
    (lambda: first_leak(_random, ONE), OUTPUTS),  # two calls differ: dropout left on, say
    (lambda: dependence(_random, torch.tensor([[1]])), "need ids (1, L >= 2), tol > 0; got [1, 1], 1e-06"),
    (lambda: dependence(_random, ONE, tol=0.0), "need ids (1, L >= 2), tol > 0; got [1, 5], 0.0"),
])
def test_probe_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace("]", r"\]").replace(".", r"\.")):
        call()


def _first_leak_source(name):
    text = (project.SNIPPETS / "probe" / name).read_text(encoding="utf-8")
    start = text.index("@torch.no_grad()\ndef first_leak(")
    return text[start:text.index("    return min(leaks, default=None)\n", start)]


@pytest.mark.parametrize("name", ["zoo.py", "custom.py", "inverted.py"])
def test_the_snippets_copy_first_leak_unchanged(name):
    # These carry their own copy, so that each runs alone: it must be probe.py's, word for word.
    assert _first_leak_source(name) == _first_leak_source("probe.py")
