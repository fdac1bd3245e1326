"""Properties of the adding chapter's mask helpers, for shapes and dtypes the page does not show."""

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

helpers = project.Names("adding/additive.py")
additive_mask = project.function("adding/additive.py", "additive_mask")
apply_mask = project.function("adding/additive.py", "apply_mask")
normalize = project.function("adding/identity.py", "normalize")

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
# Rows sum to 1 within these tolerances. "float32" means softmax computed in float32 after the
# mask was applied in the dtype; "native" means softmax in the dtype itself (16-bit weights
# carry about 3 and 2 significant digits, so a row of up to 8 of them drifts by that much).
SUM_TOL = {"float32": 1e-5, torch.float64: 1e-12, torch.float32: 1e-5, torch.float16: 5e-3, torch.bfloat16: 3e-2}


def _keep_shape(kind, B, H, L_Q, L_K):
    """The common mask layouts, all broadcasting to the scores (B, H, L_Q, L_K)."""
    return {"full": (B, H, L_Q, L_K), "key_padding": (B, 1, 1, L_K), "shared": (L_Q, L_K), "keys": (L_K,)}[kind]


@st.composite
def masked_scores(draw):
    B, H = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    L_Q, L_K = draw(st.integers(1, 6)), draw(st.integers(1, 8))  # drawn apart: usually L_Q != L_K
    kind = draw(st.sampled_from(["full", "key_padding", "shared", "keys"]))
    dtype = draw(st.sampled_from(DTYPES))
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    scale = draw(st.floats(0.1, 30))
    scores = (torch.randn(B, H, L_Q, L_K, generator=generator) * scale).to(dtype)
    keep = torch.rand(_keep_shape(kind, B, H, L_Q, L_K), generator=generator) < draw(st.floats(0.2, 1))
    keep[..., 0] = True  # every row keeps at least one key (fully masked rows are tested below)
    return scores, keep


def _check_weights(weights, scores, keep, tol):
    keep = keep.expand(scores.shape)
    assert torch.all(weights[~keep] == 0)  # masked weights exactly 0, not merely small
    sums = weights.double().sum(dim=-1)
    assert torch.allclose(sums, torch.ones_like(sums), rtol=0, atol=tol)
    # equal to a softmax over only the kept keys, row by row
    for w, s, k in zip(weights.reshape(-1, scores.shape[-1]), scores.reshape(-1, scores.shape[-1]), keep.reshape(-1, keep.shape[-1])):
        expected = torch.softmax(s[k].to(w.dtype), dim=-1)
        torch.testing.assert_close(w[k].double(), expected.double(), rtol=0, atol=tol)


@settings(max_examples=30, deadline=None)
@given(masked_scores())
def test_masked_weights_are_zero_and_rows_sum_to_one_softmax_in_float32(case):
    scores, keep = case
    weights = torch.softmax(apply_mask(scores, keep).float(), dim=-1)
    _check_weights(weights, scores.float(), keep, SUM_TOL["float32"])


@settings(max_examples=30, deadline=None)
@given(masked_scores())
def test_masked_weights_are_zero_and_rows_sum_to_one_softmax_in_the_dtype(case):
    scores, keep = case
    weights = torch.softmax(apply_mask(scores, keep), dim=-1)
    assert weights.dtype == scores.dtype
    _check_weights(weights, scores, keep, SUM_TOL[scores.dtype])


@settings(max_examples=30, deadline=None)
@given(masked_scores())
def test_finite_fill_finfo_min_gives_the_same_weights(case):
    scores, keep = case
    fill = torch.finfo(scores.dtype).min
    weights = torch.softmax(apply_mask(scores, keep, fill=fill).float(), dim=-1)
    _check_weights(weights, scores.float(), keep, SUM_TOL["float32"])


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=4), dtype=st.sampled_from(DTYPES),
       seed=st.integers(0, 2**16), finite=st.booleans())
def test_additive_mask_is_zero_where_kept_and_fill_elsewhere(shape, dtype, seed, finite):
    keep = torch.rand(shape, generator=torch.Generator().manual_seed(seed)) < 0.5
    fill = torch.finfo(dtype).min if finite else None
    mask = additive_mask(keep, dtype, fill=fill)
    assert mask.dtype == dtype and mask.shape == keep.shape
    assert torch.all(mask[keep] == 0)
    assert torch.all(mask[~keep] == (fill if finite else float("-inf")))


@settings(max_examples=30, deadline=None)
@given(L_Q=st.integers(1, 6), L_K=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_identity_softmax_of_sum_is_normalized_product(L_Q, L_K, seed):
    generator = torch.Generator().manual_seed(seed)
    S = torch.randn(L_Q, L_K, generator=generator, dtype=torch.float64) * 5
    keep = torch.rand(L_Q, L_K, generator=generator) < 0.6
    keep[:, 0] = True
    bias = -torch.rand(L_Q, L_K, generator=generator, dtype=torch.float64) * 3  # a finite M
    for M in (additive_mask(keep, torch.float64), bias):
        lhs = torch.softmax(S + M, dim=-1)
        rhs = normalize(torch.softmax(S, dim=-1) * torch.exp(M))
        torch.testing.assert_close(lhs, rhs)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_fully_masked_rows(dtype):
    scores = torch.randn(2, 3, 4, 5, generator=torch.Generator().manual_seed(0)).to(dtype)
    keep = torch.zeros(5, dtype=torch.bool)
    assert torch.softmax(apply_mask(scores, keep), dim=-1).isnan().all()  # -inf: 0 / 0
    uniform = torch.softmax(apply_mask(scores, keep, fill=torch.finfo(dtype).min), dim=-1)
    assert torch.equal(uniform, torch.full_like(uniform, 1 / 5))  # finite fill: every key alike


# Bad input is refused early, with a message that says what is wrong ---------------------------

KEEP = torch.tensor([True, True, True, False, False])


@pytest.mark.parametrize(
    ("keep", "got"),
    [(KEEP.float(), r"torch\.float32"), (KEEP.long(), r"torch\.int64"), ([True, False], "list")],
)
def test_non_bool_mask_is_a_type_error_naming_the_dtype(keep, got):
    with pytest.raises(TypeError, match=rf"torch\.bool tensor \(True = keep\), got {got}"):
        additive_mask(keep)
    with pytest.raises(TypeError, match=r"True = keep"):
        apply_mask(torch.zeros(3, 5), keep)


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, "float32"])
def test_non_floating_dtype_is_a_type_error(dtype):
    with pytest.raises(TypeError, match=rf"must be a floating dtype, got {dtype}"):
        additive_mask(KEEP, dtype)


def test_integer_scores_are_refused():
    with pytest.raises(TypeError, match=r"must be a floating dtype, got torch\.int64"):
        apply_mask(torch.zeros(3, 5, dtype=torch.int64), KEEP)


@pytest.mark.parametrize(("dtype", "fill"), [(torch.float16, -1e9), (torch.float16, -1e5), (torch.float32, 0.0),
                                             (torch.float32, 1.0), (torch.float32, float("nan"))])
def test_fill_that_is_not_negative_or_does_not_fit_is_a_value_error(dtype, fill):
    with pytest.raises(ValueError, match=r"fill must be -inf or a negative number .*finfo"):
        additive_mask(KEEP, dtype, fill=fill)


@pytest.mark.parametrize(
    ("scores_shape", "keep_shape"),
    [((3, 4), (5,)), ((2, 3, 5), (4,)), ((3, 5), (2, 3, 5)), ((2, 1, 3, 5), (2, 4, 3, 5))],
)
def test_mask_that_does_not_broadcast_is_a_value_error_naming_both_shapes(scores_shape, keep_shape):
    keep = torch.ones(keep_shape, dtype=torch.bool)
    expected = rf"keep-mask shape {tuple(keep_shape)} does not broadcast to scores shape {tuple(scores_shape)}"
    with pytest.raises(ValueError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        apply_mask(torch.zeros(scores_shape), keep)


# adding/fused.py: sdpa_with -------------------------------------------------------------------

sdpa_with = project.function("adding/fused.py", "sdpa_with")


def _qkv():
    g = torch.Generator().manual_seed(0)
    return [torch.randn(1, 2, 5, 4, generator=g) for _ in range(3)]


@pytest.mark.parametrize("ones", [KEEP.float(), KEEP.double(), torch.ones(5), torch.tensor([1.0, -0.0, 1, 0, 1])])
def test_sdpa_with_refuses_a_keep_mask_cast_to_float(ones):
    # SDPA adds a float mask to the scores: keep.float() would add 1 to the kept keys, hide nothing.
    from torch.nn.attention import SDPBackend

    q, k, v = (t.to(ones.dtype) for t in _qkv())
    with pytest.raises(TypeError, match=rf"mask of only 0s and 1s \({ones.dtype}\) .* not keep\.float\(\)"):
        sdpa_with(SDPBackend.MATH, q, k, v, ones)


@pytest.mark.parametrize("kind", ["bool", "0 and -inf", "zeros", "bias", "none"])
def test_sdpa_with_runs_bool_additive_and_no_masks(kind):
    from torch.nn.attention import SDPBackend

    q, k, v = _qkv()
    keep = KEEP.expand(5, 5)
    mask = {"bool": keep, "0 and -inf": torch.zeros(5, 5).masked_fill(~keep, -torch.inf), "zeros": torch.zeros(5, 5),
            "bias": torch.tensor([1.0, 0.5, 0, 1, 0]).expand(5, 5), "none": None}[kind]
    added = {"bool": torch.zeros(5, 5).masked_fill(~keep, -torch.inf), "none": 0}.get(kind, mask)
    expected = torch.softmax(q @ k.transpose(-2, -1) / 2 + added, dim=-1) @ v  # d_k = 4
    torch.testing.assert_close(sdpa_with(SDPBackend.MATH, q, k, v, mask), expected)
