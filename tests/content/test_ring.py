"""The ring chapter's functions: a ring buffer of sinks + window slots holds exactly the keys the
sliding-window mask (with sinks) lets the newest token see; decoding through it equals one pass
under that mask, whatever order the slots hold the keys in; leaving the empty slots unmasked breaks
exactly the rows decoded before the buffer is full; and bad input is refused by name."""

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

ring_slot = project.function("ring/slots.py", "ring_slot")
ring_positions = project.function("ring/slots.py", "ring_positions")
window_mask = project.function("ring/mask.py", "window_mask")
ring_decode = project.function("ring/decode.py", "ring_decode")


@st.composite
def rings(draw):
    """(length, window, sinks): sequences shorter and longer than the cache."""
    return draw(st.integers(1, 24)), draw(st.integers(1, 8)), draw(st.integers(0, 4))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rings())
def test_the_ring_holds_exactly_what_the_window_mask_lets_the_newest_token_see(case):
    length, window, sinks = case
    keep = window_mask(length, window, sinks)
    for t in range(length):
        held = ring_positions(t + 1, window, sinks)  # after writing token t
        assert sorted(p for p in held if p >= 0) == keep[t].nonzero().flatten().tolist()
        assert held[ring_slot(t, window, sinks)] == t  # the newest is where ring_slot puts it


def _qkv(length, d, seed):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(length, d, generator=g, dtype=torch.float64) for _ in range(3)]


def _one_pass(q, k, v, window, sinks):
    scores = (q @ k.T / q.shape[1] ** 0.5).masked_fill(~window_mask(len(q), window, sinks), -torch.inf)
    return scores.softmax(-1) @ v


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rings(), st.sampled_from([1, 3, 8]), st.integers(0, 2**16))
def test_decoding_through_the_ring_equals_one_pass_under_the_mask(case, d, seed):
    length, window, sinks = case
    q, k, v = _qkv(length, d, seed)
    torch.testing.assert_close(ring_decode(q, k, v, window, sinks), _one_pass(q, k, v, window, sinks),
                               rtol=0, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(rings(), st.integers(0, 2**16))
def test_unmasked_empty_slots_break_exactly_the_rows_before_the_buffer_is_full(case, seed):
    length, window, sinks = case
    q, k, v = _qkv(length, 4, seed)
    error = (ring_decode(q, k, v, window, sinks, mask_empty=False) - _one_pass(q, k, v, window, sinks)).abs().amax(-1)
    broken = [t for t in range(length) if error[t] > 1e-9]
    assert broken == [t for t in range(length) if t + 1 < sinks + window]


def test_the_slot_wraps_past_the_sinks():
    assert [ring_slot(p, 3, 2) for p in range(9)] == [0, 1, 2, 3, 4, 2, 3, 4, 2]
    assert ring_positions(9, 3, 2) == [0, 1, 8, 6, 7]
    assert ring_positions(0, 3) == [-1, -1, -1]


@pytest.mark.parametrize(("call", "match"), [
    (lambda: ring_slot(-1, 4), "position must be an int >= 0, got -1"),
    (lambda: ring_slot(0, 0), "window must be an int >= 1, got 0"),
    (lambda: ring_slot(0, 4, -1), "sinks must be an int >= 0, got -1"),
    (lambda: ring_slot(1.0, 4), "position must be an int >= 0, got 1.0"),
    (lambda: ring_slot(True, 4), "position must be an int >= 0, got True"),
    (lambda: ring_positions(-2, 4), "tokens must be an int >= 0, got -2"),
    (lambda: ring_positions(3, 0), "window must be an int >= 1, got 0"),
    (lambda: window_mask(5, 0), "want window >= 1, length and sinks >= 0; got length=5, window=0, sinks=0"),
    (lambda: window_mask(5, 2, -1), "want window >= 1, length and sinks >= 0; got length=5, window=2, sinks=-1"),
    (lambda: ring_decode(torch.zeros(3, 2), torch.zeros(3, 2), torch.zeros(4, 2), 2), "q, k, v must be"),
    (lambda: ring_decode(torch.zeros(3), torch.zeros(3), torch.zeros(3), 2), "q, k, v must be"),
    (lambda: ring_decode(*[torch.zeros(3, 2)] * 3, 0), "need window >= 1 and sinks >= 0, got 0, 0"),
])
def test_ring_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        call()
