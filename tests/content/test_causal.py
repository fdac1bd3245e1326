"""Properties of the causal chapter's attention function, for shapes the page does not show."""

import re

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

attention = project.function("causal/parallel.py", "attention")


@settings(max_examples=30, deadline=None)
@given(T=st.integers(1, 12), d=st.integers(1, 16), seed=st.integers(0, 2**16), scale=st.floats(0.1, 30))
def test_causal_weights(T, d, seed, scale):
    generator = torch.Generator().manual_seed(seed)
    q, k = (torch.randn(T, d, generator=generator) * scale for _ in range(2))
    weights = attention(q, k, torch.eye(T), causal=True)  # v = identity: the output is the weights
    assert torch.equal(weights.triu(diagonal=1), torch.zeros(T, T))  # exactly 0 above the diagonal
    assert torch.allclose(weights.sum(dim=-1), torch.ones(T), atol=1e-5)
    assert weights[0, 0] == 1  # the first position can only see itself


@settings(max_examples=30, deadline=None)
@given(T=st.integers(1, 12), d=st.integers(1, 16), seed=st.integers(0, 2**16))
def test_one_pass_equals_prefix_passes_and_pytorch(T, d, seed):
    generator = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(T, d, generator=generator) for _ in range(3))
    once = attention(q, k, v, causal=True)
    for t in range(T):
        alone = attention(q[: t + 1], k[: t + 1], v[: t + 1], causal=False)[-1]
        torch.testing.assert_close(once[t], alone)
    torch.testing.assert_close(once, F.scaled_dot_product_attention(q, k, v, is_causal=True))


@pytest.mark.parametrize("causal", ["False", "True", "", 0, 1, None, torch.tensor(False)])
def test_attention_refuses_a_causal_that_is_not_a_bool(causal):
    # `if causal:` reads the string "False" as true and would apply the mask.
    q = k = v = torch.ones(3, 4)
    with pytest.raises(TypeError, match=rf"causal must be True or False, got {re.escape(repr(causal))}"):
        attention(q, k, v, causal=causal)
