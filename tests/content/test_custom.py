"""The custom chapter's functions: to_hf_mask gives each attention implementation a mask
under which attention equals a dense reference that attends only to the kept keys;
create_causal_mask with or_mask_function and and_mask_function equals the dense grid
(causal or the extra mask, then and the other); and bad input is refused by name."""

import project
import pytest
import torch
import transformers
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers.masking_utils import create_causal_mask

to_hf_mask = project.function("custom/helper.py", "to_hf_mask")
prefix = project.function("custom/functions.py", "prefix")
same_document = project.function("custom/functions.py", "same_document")


@st.composite
def grids(draw):
    """(keep (B, 1, Q, K), seed): random keep grids, every query seeing a key."""
    b, q, k = draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    bits = draw(st.lists(st.booleans(), min_size=b * q * k, max_size=b * q * k))
    keep = torch.tensor(bits).reshape(b, 1, q, k)
    first = draw(st.lists(st.integers(0, k - 1), min_size=b * q, max_size=b * q))
    keep[..., 0, :, :].view(b * q, k)[torch.arange(b * q), torch.tensor(first)] = True
    return keep, draw(st.integers(0, 2**16))


def _dense(q, k, v, keep):
    """Attention the slow obvious way: per query, a softmax over its kept keys only."""
    out = torch.zeros(*q.shape[:-1], v.shape[-1], dtype=q.dtype)
    for b in range(q.shape[0]):
        for h in range(q.shape[1]):
            for i in range(q.shape[2]):
                kept = keep[b, 0, i].nonzero().flatten()
                w = (k[b, h, kept] @ q[b, h, i] / q.shape[-1] ** 0.5).softmax(-1)
                out[b, h, i] = w @ v[b, h, kept]
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(grids())
def test_to_hf_mask_gives_each_implementation_the_dense_attention(case):
    keep, seed = case
    B, _, Q, K = keep.shape
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, 2, Q, 4, generator=g, dtype=torch.float64)
    k, v = (torch.randn(B, 2, K, 4, generator=g, dtype=torch.float64) for _ in "kv")
    want = _dense(q, k, v, keep)
    sdpa = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=to_hf_mask(keep, "sdpa"))
    scores = q @ k.transpose(-1, -2) / 2 + to_hf_mask(keep, "eager", torch.float64)
    eager = scores.softmax(-1) @ v
    assert (sdpa - want).abs().max() < 1e-9
    assert (eager - want).abs().max() < 1e-9


@st.composite
def layouts(draw):
    """(n, prefix length, document ids): sorted document ids over n tokens."""
    n = draw(st.integers(1, 10))
    starts = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    doc = torch.tensor(starts).long().cumsum(0)[None]
    return n, draw(st.integers(0, n)), doc


@settings(max_examples=200, deadline=None, derandomize=True)
@given(layouts())
def test_create_causal_mask_ors_then_ands_as_the_dense_grid(case):
    n, p, doc = case
    config = transformers.LlamaConfig(attn_implementation="sdpa")
    q, kv = torch.arange(n)[:, None], torch.arange(n)
    same = doc[0, q] == doc[0, kv]
    for kwargs, dense in [
            ({"or_mask_function": prefix(p)}, (kv <= q) | (kv < p)),
            ({"and_mask_function": same_document(doc)}, (kv <= q) & same),
            ({"or_mask_function": prefix(p), "and_mask_function": same_document(doc)},
             ((kv <= q) | (kv < p)) & same)]:
        mask = create_causal_mask(config, torch.zeros(1, n, 8), None, None, **kwargs)
        assert mask.dtype == torch.bool and mask.shape == (1, 1, n, n)
        assert mask[0, 0].equal(dense)


KEEP = torch.ones(1, 1, 3, 3, dtype=torch.bool).tril()


@pytest.mark.parametrize(("keep", "impl", "message"), [
    (KEEP.float(), "sdpa", "keep must be bool, got torch.float32"),
    ([[True]], "sdpa", "keep must be bool, got [[True]]"),
    (KEEP[0], "sdpa", r"keep must be (B, 1, Q, K), got (1, 3, 3)"),
    (KEEP.expand(1, 2, 3, 3), "eager", r"keep must be (B, 1, Q, K), got (1, 2, 3, 3)"),
    (KEEP.triu(1), "eager", "every query must see at least one key"),
    (KEEP, "flash_attention_2", "impl must be 'sdpa' or 'eager', got 'flash_attention_2'"),
])
def test_to_hf_mask_refuses_bad_input_by_name(keep, impl, message):
    with pytest.raises(ValueError) as error:
        to_hf_mask(keep, impl)
    assert str(error.value) == message
