"""The sinks chapter's functions: a learned sink logit is the online chapter's LSE merge with one
more key of that logit and value 0, and softmax-plus-one is a sink of logit 0; the weights sum to
less than 1 and a row with no key gives 0; a sink is a gate sigmoid(lse - s) on plain attention,
while a gate scales the output after the softmax; a tanh soft cap applied before the mask keeps
masked keys at weight 0, and after the mask gives them weight; FlexAttention's score_mod computes
the same as the dense formula; and bad input is refused by name."""

import math
import warnings

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

attention_with_sink = project.function("sinks/sink.py", "attention_with_sink")
gated_attention = project.function("sinks/gate.py", "gated_attention")
softcap = project.function("sinks/softcap.py", "softcap")
capped_weights = project.function("sinks/softcap.py", "capped_weights")
merge = project.function("online/merge.py", "merge")


@st.composite
def cases(draw):
    """(q, k, v, keep, sink): float64 heads, queries and keys, a random mask whose rows may be empty,
    and a sink logit per head."""
    heads, n_q, n_k, d = draw(st.integers(1, 3)), draw(st.integers(1, 5)), draw(st.integers(1, 6)), draw(
        st.integers(1, 4))
    g = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    q, k, v = (torch.rand(heads, n, d, generator=g, dtype=torch.float64) * 6 - 3 for n in (n_q, n_k, n_k))
    keep = torch.rand(n_q, n_k, generator=g) < draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    sink = torch.rand(heads, 1, generator=g, dtype=torch.float64) * 10 - 5  # in [-5, 5]
    return q, k, v, keep, sink


def _scores(q, k, keep):
    return (q @ k.mT / q.shape[-1] ** 0.5).masked_fill(~keep, -torch.inf)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cases())
def test_a_sink_is_the_lse_merge_with_one_more_key_of_value_zero(case):
    q, k, v, keep, sink = case
    scores = _scores(q, k, keep)
    lse = scores.logsumexp(-1)  # -inf for a row with no key
    real = scores.softmax(-1).nan_to_num() @ v  # the real keys alone, 0 where there is none
    zero_key = (torch.zeros_like(real), sink.expand_as(lse))  # value 0, lse = the sink logit
    expected, _ = merge(real, lse, *zero_key)
    torch.testing.assert_close(attention_with_sink(q, k, v, sink, keep), expected, rtol=0, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cases())
def test_softmax_plus_one_is_a_sink_of_logit_zero(case):
    q, k, v, keep, _ = case
    e = torch.exp(_scores(q, k, keep))  # 0 for a masked key
    expected = (e / (1 + e.sum(-1, keepdim=True))) @ v  # Evan Miller's softmax_1, written out
    torch.testing.assert_close(attention_with_sink(q, k, v, 0.0, keep), expected, rtol=0, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cases())
def test_the_weights_sum_to_less_than_one_and_a_row_with_no_key_gives_zero(case):
    q, k, _, keep, sink = case
    eye = torch.eye(k.shape[-2], dtype=torch.float64).expand(k.shape[0], -1, -1)
    weights = attention_with_sink(q, k, eye, sink, keep)  # one-hot values: the output is the weights
    assert not weights.isnan().any()
    assert (weights >= 0).all() and (weights.sum(-1) < 1).all()  # |score| <= 18, sink >= -5
    assert (weights[..., ~keep.any(-1), :] == 0).all()  # no key: exactly 0
    assert (weights[..., ~keep] == 0).all()  # a masked key takes nothing


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cases(), st.integers(0, 2**16))
def test_a_sink_is_a_gate_on_the_scores_and_a_gate_scales_after_the_softmax(case, seed):
    q, k, v, keep, sink = case
    scores = _scores(q, k, keep)
    plain = scores.softmax(-1).nan_to_num() @ v
    factor = torch.sigmoid(scores.logsumexp(-1) - sink)[..., None]  # 0 where the row has no key
    torch.testing.assert_close(attention_with_sink(q, k, v, sink, keep), factor * plain, rtol=0, atol=1e-12)
    gate = torch.randn(plain.shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    gated = gated_attention(q, k, v, gate, keep)
    torch.testing.assert_close(gated, torch.sigmoid(gate) * plain, rtol=0, atol=1e-12)
    assert (gated[..., ~keep.any(-1), :] == 0).all()  # 0 stays 0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cases(), st.floats(0.5, 20))
def test_the_cap_before_the_mask_keeps_masked_keys_at_zero_and_after_it_does_not(case, cap):
    q, k, _, keep, _ = case
    keep[..., 0] = True  # every row sees a key
    raw = q @ k.mT / q.shape[-1] ** 0.5
    expected = torch.zeros_like(raw)
    for h, i in ((h, i) for h in range(raw.shape[0]) for i in range(raw.shape[1])):  # slowly, row by row
        e = [math.exp(cap * math.tanh(s / cap)) if kept else 0.0 for s, kept in zip(raw[h, i].tolist(), keep[i])]
        expected[h, i] = torch.tensor(e, dtype=torch.float64) / sum(e)
    weights = capped_weights(raw, cap, keep)
    torch.testing.assert_close(weights, expected, rtol=0, atol=1e-12)
    assert (weights[..., ~keep] == 0).all()
    wrong = capped_weights(raw, cap, keep, cap_last=True)  # a masked key's -inf becomes -cap
    assert (wrong > 0).all()  # every key, masked or not: e^(-cap) / ... > 0
    torch.testing.assert_close(capped_weights(raw, None, keep), raw.masked_fill(~keep, -torch.inf).softmax(-1))


@pytest.mark.parametrize(("seed", "cap"), [(0, 1.0), (1, 2.5), (2, 30.0)])
def test_the_softcap_score_mod_under_flex_attention_equals_the_dense_formula(seed, cap):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(1, 2, 6, 4, generator=g, dtype=torch.float64) * 3 for _ in range(3))
    keep = torch.ones(6, 6, dtype=torch.bool).tril()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
        block = create_block_mask(lambda b, h, i, j: j <= i, 1, 1, 6, 6, device="cpu")
        out = flex_attention(q, k, v, score_mod=softcap(cap), block_mask=block)
    torch.testing.assert_close(out, capped_weights(q @ k.mT / 2, cap, keep) @ v, rtol=0, atol=1e-10)


def _call(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


_x = torch.zeros(2, 3, 4)


@pytest.mark.parametrize(("call", "match"), [
    (_call(attention_with_sink, _x, _x, torch.zeros(2, 4, 4), 0.0), "want q (..., L_Q, d), k and v (..., L_K, d)"),
    (_call(attention_with_sink, torch.zeros(3), _x, _x, 0.0), "want q (..., L_Q, d), k and v (..., L_K, d)"),
    (_call(attention_with_sink, _x, _x, _x, 0.0, torch.ones(3, 3)), "mask must be bool (True = keep), got torch.float32"),
    (_call(attention_with_sink, _x, _x, _x, float("inf")), "sink must be finite"),
    (_call(attention_with_sink, _x, _x, _x, -torch.inf), "sink must be finite"),
    (_call(softcap, 0), "cap must be a number > 0, got 0"),
    (_call(softcap, -1.0), "cap must be a number > 0, got -1.0"),
    (_call(softcap, True), "cap must be a number > 0, got True"),
    (_call(softcap, float("nan")), "cap must be a number > 0, got nan"),
    (_call(capped_weights, torch.zeros(3, 3), 0.0, torch.ones(3, 3, dtype=torch.bool)), "cap must be a number > 0, got 0.0"),
    (_call(capped_weights, torch.zeros(3, 3), None, torch.ones(3, 3, dtype=torch.bool), cap_last=True),
     "cap must be a number > 0, got None"),
    (_call(gated_attention, _x, _x, _x, torch.zeros(2, 3, 5)), "gate must be (..., L_Q, d_v) = (2, 3, 4), got"),
])
def test_sink_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        call()
