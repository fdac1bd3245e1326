"""The decoding chapter's functions, for sizes the page does not show.

`causal_mask` (snippets/decoding/align.py) must equal torch's own causal biases materialised;
`new_cache`, `append` and `decode_step` (snippets/decoding/kv_cache.py), fed a sequence in chunks of any
sizes, must give what one causal pass over the whole sequence gives; `left_pad` and `position_ids`
(snippets/decoding/left_pad.py) must make a left-padded batch give each prompt's own outputs.
Each function's bad inputs are refused with the error the page describes.

Tolerances: float64 throughout the comparisons (the chunked and the full pass add the same terms in
another order, so they agree to rounding, well within 1e-12); float32 within 1e-5.
"""

import warnings

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.bias import causal_lower_right, causal_upper_left

causal_mask = project.function("decoding/align.py", "causal_mask")
new_cache = project.function("decoding/kv_cache.py", "new_cache")
append = project.function("decoding/kv_cache.py", "append")
decode_step = project.function("decoding/kv_cache.py", "decode_step")
left_pad = project.function("decoding/left_pad.py", "left_pad")
position_ids = project.function("decoding/left_pad.py", "position_ids")
forward = project.function("decoding/left_pad.py", "forward")

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True)
TOL = {torch.float32: {"rtol": 1e-5, "atol": 1e-5}, torch.float64: {"rtol": 1e-12, "atol": 1e-12}}


def _torch_mask(l_q, l_k, align):
    bias = {"top_left": causal_upper_left, "bottom_right": causal_lower_right}[align]
    with warnings.catch_warnings():  # torch warns of NaN for bottom-right with l_q > l_k
        warnings.simplefilter("ignore", UserWarning)
        return bias(l_q, l_k)._materialize()


@SETTINGS
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(["top_left", "bottom_right"]))
def test_causal_mask_equals_torchs_causal_bias(l_q, l_k, align):
    mask = causal_mask(l_q, l_k, align)
    assert mask.dtype == torch.bool and mask.shape == (l_q, l_k)
    assert torch.equal(mask, _torch_mask(l_q, l_k, align))
    # the last query sees every key under bottom-right; rows with no key number max(0, l_q - l_k)
    if align == "bottom_right":
        assert mask[-1].all()
        assert int((~mask.any(dim=-1)).sum()) == max(0, l_q - l_k)
    else:
        assert mask[:, 0].all() and mask.sum(dim=-1).tolist() == [min(i + 1, l_k) for i in range(l_q)]


@SETTINGS
@given(st.integers(1, 7), st.integers(1, 7))
def test_is_causal_is_top_left_in_sdpa(l_q, l_k):
    g = torch.Generator().manual_seed(l_q * 10 + l_k)
    q, k, v = (torch.randn(1, n, 4, generator=g, dtype=torch.float64) for n in (l_q, l_k, l_k))
    torch.testing.assert_close(F.scaled_dot_product_attention(q, k, v, is_causal=True),
                               F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(l_q, l_k)),
                               **TOL[torch.float64])


def test_sdpa_returns_zero_where_bottom_right_leaves_no_key():
    # docs/decoding.md#sdpa states what torch 2.13 on CPU returns for these rows.
    assert torch.__version__.startswith("2.13."), torch.__version__
    q, k, v = torch.randn(1, 6, 4), torch.randn(1, 2, 4), torch.randn(1, 2, 4)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(6, 2, "bottom_right"))
    assert torch.equal(out[:, :4], torch.zeros(1, 4, 4)) and not out.isnan().any()


@pytest.mark.parametrize("args, error, match", [
    ((0, 5), ValueError, "l_q must be at least 1, got 0"),
    ((3, -1), ValueError, "l_k must be at least 1, got -1"),
    ((2.0, 5), TypeError, "l_q must be an int, got float"),
    ((True, 5), TypeError, "l_q must be an int, got bool"),
    ((3, "5"), TypeError, "l_k must be an int, got str"),
    ((3, 5, "left"), ValueError, "align must be 'top_left' or 'bottom_right', got 'left'"),
])
def test_causal_mask_refuses_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        causal_mask(*args)


@st.composite
def sequences(draw):
    """A sequence of tokens and weights, and a split into a prefill and chunks of any sizes."""
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    total, d = draw(st.integers(1, 10)), draw(st.integers(1, 6))
    cuts = sorted(draw(st.sets(st.integers(1, total - 1), max_size=total - 1))) if total > 1 else []
    bounds = [0, *cuts, total]
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    x, *w = (torch.randn(n, d, generator=g, dtype=dtype) for n in (total, d, d, d))
    capacity = total + draw(st.integers(0, 3))
    return x, w, list(zip(bounds, bounds[1:])), capacity


@SETTINGS
@given(sequences())
def test_cached_decoding_equals_one_full_pass(problem):
    x, w, chunks, capacity = problem
    full = F.scaled_dot_product_attention(*(x @ m for m in w), is_causal=True)
    cache = new_cache(capacity, x.shape[1], x.dtype)
    out = torch.cat([decode_step(x[a:b], cache, *w) for a, b in chunks])
    torch.testing.assert_close(out, full, **TOL[x.dtype])
    assert cache["length"] == len(x)
    assert torch.equal(cache["k"][len(x):], torch.zeros(capacity - len(x), x.shape[1], dtype=x.dtype))


def test_kv_cache_refuses_bad_input():
    for capacity in (0, -3, 2.0, True, None):
        with pytest.raises(ValueError, match="capacity must be a positive int"):
            new_cache(capacity, 4)
    cache = new_cache(3, 4)
    with pytest.raises(TypeError, match="k is torch.float64, v is torch.float32: the cache holds torch.float32"):
        append(cache, torch.zeros(1, 4, dtype=torch.float64), torch.zeros(1, 4))
    with pytest.raises(ValueError, match=r"k \(1, 5\), v \(1, 5\): want \(n, 4\)"):
        append(cache, torch.zeros(1, 5), torch.zeros(1, 5))
    with pytest.raises(ValueError, match=r"k \(4,\), v \(4,\): want \(n, 4\)"):
        append(cache, torch.zeros(4), torch.zeros(4))
    with pytest.raises(ValueError, match=r"k \(2, 4\), v \(1, 4\)"):
        append(cache, torch.zeros(2, 4), torch.zeros(1, 4))
    append(cache, torch.ones(2, 4), torch.ones(2, 4))
    with pytest.raises(ValueError, match=r"cache overflow: 2 \+ 2 > 3 rows"):
        append(cache, torch.zeros(2, 4), torch.zeros(2, 4))
    assert cache["length"] == 2  # a refused append writes nothing


prompt_lists = st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=6), min_size=1, max_size=4)


@SETTINGS
@given(prompt_lists)
def test_left_pad_and_position_ids(prompts):
    ids, keep = left_pad(prompts, pad_id=-1)
    L = max(len(p) for p in prompts)
    assert ids.shape == keep.shape == (len(prompts), L) and keep.dtype == torch.bool
    pos = position_ids(keep)
    for b, p in enumerate(prompts):
        assert keep[b].tolist() == [False] * (L - len(p)) + [True] * len(p)
        assert ids[b].tolist() == [-1] * (L - len(p)) + p
        assert pos[b, keep[b]].tolist() == list(range(len(p)))
        assert (pos[b, ~keep[b]] == 0).all()


@SETTINGS
@given(prompt_lists, st.integers(0, 2**16))
def test_left_padded_batch_equals_each_prompt_alone(prompts, seed):
    g = torch.Generator().manual_seed(seed)
    params = [torch.randn(n, 5, generator=g, dtype=torch.float64) for n in (10, 6, 5, 5, 5)]
    ids, keep = left_pad(prompts)
    out = forward(ids, keep, position_ids(keep), *params)
    for b, p in enumerate(prompts):
        alone = forward(torch.tensor([p]), torch.ones(1, len(p), dtype=torch.bool), torch.arange(len(p))[None], *params)
        torch.testing.assert_close(out[b, keep[b]], alone[0], **TOL[torch.float64])
    assert torch.equal(out[~keep], torch.zeros_like(out[~keep]))  # [PAD] query rows: no key, 0 from SDPA


def test_left_pad_and_position_ids_refuse_bad_input():
    for bad in ([], [[1, 2], []]):
        with pytest.raises(ValueError, match="want prompts of one or more tokens each"):
            left_pad(bad)
    with pytest.raises(TypeError, match="token ids must be ints, got torch.float32"):
        left_pad([[1.5, 2.0]])
    with pytest.raises(TypeError, match="keep must be 2-D bool, got 2-D torch.int64"):
        position_ids(torch.ones(2, 3, dtype=torch.long))
    with pytest.raises(TypeError, match="keep must be 2-D bool, got 1-D torch.bool"):
        position_ids(torch.ones(3, dtype=torch.bool))
    with pytest.raises(TypeError, match="keep must be 2-D bool, got 3-D torch.bool"):
        position_ids(torch.ones(1, 2, 3, dtype=torch.bool))


def test_forward_refuses_negative_ids_and_positions():
    # tok[-1] is tok's last row, not an error: a negative id or place would quietly embed that row.
    params = [torch.randn(n, 6, generator=torch.Generator().manual_seed(0)) for n in (10, 8, 6, 6, 6)]
    ids, keep = left_pad([[3, 1], [4, 1, 5]])
    pos = position_ids(keep)
    forward(ids, keep, pos, *params)  # the good call runs
    with pytest.raises(ValueError, match=r"ids must be >= 0, got \[\[0, 3, -1\], \[4, 1, 5\]\]"):
        forward(torch.tensor([[0, 3, -1], [4, 1, 5]]), keep, pos, *params)
    with pytest.raises(ValueError, match=r"ids must be >= 0, got \[\[-1, 3, 1\]"):
        forward(*left_pad([[3, 1], [4, 1, 5]], pad_id=-1), pos, *params)  # a pad id of -1
    with pytest.raises(ValueError, match=r"pos must be >= 0, got \[\[-1, 0, 1\], \[0, 1, 2\]\]"):
        forward(ids, keep, (keep.long().cumsum(-1) - 1), *params)  # positions not clamped at 0


@SETTINGS
@given(st.integers(2, 9), st.data())
def test_garbage_in_masked_cache_slots_poisons_sdpa(capacity, data):
    n = data.draw(st.integers(1, capacity - 1))
    g = torch.Generator().manual_seed(capacity * 10 + n)
    q = torch.randn(1, 1, 4, generator=g)
    k, v = torch.full((2, 1, capacity, 4), float("nan"))
    k[:, :n], v[:, :n] = torch.randn(2, n, 4, generator=g)
    keep = (torch.arange(capacity) < n)[None]
    additive = torch.zeros(1, capacity).masked_fill(~keep, float("-inf"))
    for mask in (keep, additive):
        assert F.scaled_dot_product_attention(q, k, v, attn_mask=mask).isnan().all()
    sliced = F.scaled_dot_product_attention(q, k[:, :n], v[:, :n])
    zeroed = F.scaled_dot_product_attention(q, k.nan_to_num(0.0), v.nan_to_num(0.0), attn_mask=keep)
    torch.testing.assert_close(zeroed, sliced, **TOL[torch.float32])
