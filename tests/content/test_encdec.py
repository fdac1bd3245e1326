"""The encdec chapter's functions: encdec_masks builds, for every batch of lengths, the three keep
masks the slow obvious loop builds; a dense cross-attention under its cross mask does not depend on
what the padded source positions hold; and bad input is refused by name."""

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

encdec_masks = project.function("encdec/masks.py", "encdec_masks")

lengths = st.integers(1, 6).flatmap(
    lambda b: st.tuples(st.lists(st.integers(1, 7), min_size=b, max_size=b),
                        st.lists(st.integers(1, 7), min_size=b, max_size=b)))


def _reference(src_lengths, tgt_lengths):
    """The three masks cell by cell, with plain loops."""
    B, S, T = len(src_lengths), max(src_lengths), max(tgt_lengths)
    enc = [[[k < src_lengths[b] for k in range(S)] for _ in range(S)] for b in range(B)]
    dec = [[[k <= q and k < tgt_lengths[b] for k in range(T)] for q in range(T)] for b in range(B)]
    cross = [[[k < src_lengths[b] for k in range(S)] for _ in range(T)] for b in range(B)]
    return {"encoder": enc, "decoder": dec, "cross": cross}


@settings(max_examples=200, deadline=None, derandomize=True)
@given(lengths)
def test_the_masks_match_the_loop_reference(case):
    src_lengths, tgt_lengths = case
    masks = encdec_masks(src_lengths, tgt_lengths)
    B, S, T = len(src_lengths), max(src_lengths), max(tgt_lengths)
    assert {name: tuple(m.shape) for name, m in masks.items()} == {
        "encoder": (B, S, S), "decoder": (B, T, T), "cross": (B, T, S)}
    assert all(m.dtype == torch.bool for m in masks.values())
    assert {name: m.tolist() for name, m in masks.items()} == _reference(src_lengths, tgt_lengths)


def _cross_attention(q, k, v, keep):
    """Dense float64 attention of target queries over source keys, masked cells at -inf."""
    scores = (q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5).masked_fill(~keep, -torch.inf)
    return scores.softmax(-1) @ v


@settings(max_examples=200, deadline=None, derandomize=True)
@given(lengths, st.sampled_from([1, 4, 8]), st.integers(0, 2**16))
def test_cross_attention_ignores_the_padded_source_positions(case, d, seed):
    src_lengths, tgt_lengths = case
    keep = encdec_masks(src_lengths, tgt_lengths)["cross"]
    B, T, S = keep.shape
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, T, d, generator=g, dtype=torch.float64)
    k, v = (torch.randn(B, S, d, generator=g, dtype=torch.float64) for _ in range(2))
    pad = ~keep[:, 0, :, None]  # (B, S, 1): the padded source positions
    k2, v2 = (torch.where(pad, 1e3 * torch.randn(B, S, d, generator=g, dtype=torch.float64), x)
              for x in (k, v))
    out = _cross_attention(q, k, v, keep)
    assert out.isfinite().all()  # every source has a real token: no row is fully masked
    torch.testing.assert_close(_cross_attention(q, k2, v2, keep), out, rtol=0, atol=1e-12)


def test_the_small_batch():
    masks = encdec_masks([4, 2], [3, 2])
    assert masks["decoder"][1].tolist() == [[True, False, False], [True, True, False], [True, True, False]]
    assert masks["cross"][1].tolist() == [[True, True, False, False]] * 3
    assert masks["encoder"][0].all()


@pytest.mark.parametrize(("call", "match"), [
    (lambda: encdec_masks([], []), "src_lengths must be a non-empty list of ints >= 1, got []"),
    (lambda: encdec_masks([2, 0], [1, 1]), "src_lengths must be a non-empty list of ints >= 1, got [2, 0]"),
    (lambda: encdec_masks([2], [1.0]), "tgt_lengths must be a non-empty list of ints >= 1, got [1.0]"),
    (lambda: encdec_masks([True], [1]), "src_lengths must be a non-empty list of ints >= 1, got [True]"),
    (lambda: encdec_masks([2, 3], [1]), "one source per target: 2 source lengths, 1 target lengths"),
])
def test_encdec_masks_rejects_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        call()
