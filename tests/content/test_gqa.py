"""The gqa chapter's functions against each other and against the libraries: SDPA and eager
FlexAttention with enable_gqa=True match the repeat_interleave reference over random shapes, head
counts and masks; the mask's head axis is the query heads'; the cache formula matches what a model
stores; and bad input is refused with a message that names the problem.

The reference (attention_reference) is checked first against a loop over query heads written with
kv_head_of alone, so the two library properties compare against something that is not itself
built from repeat_interleave. Eager flex_attention traces each call through dynamo (about 0.1 s a
call on CPU), so its property uses one mask_mod shape (a per-head causal window from a table) that
dynamo compiles once and reuses across the random cases.
"""

import warnings

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.flex_attention import create_block_mask, create_mask, flex_attention

kv_head_of = project.function("gqa/heads.py", "kv_head_of")
expand_kv = project.function("gqa/check.py", "expand_kv")
attention_reference = project.function("gqa/check.py", "attention_reference")
head_windows = project.function("gqa/windows.py", "head_windows")
kv_cache_bytes = project.function("gqa/cache.py", "kv_cache_bytes")

SDPA = F.scaled_dot_product_attention
QUIET = "flex_attention called without torch.compile"  # eager CPU: the flex chapter shows this warning


@st.composite
def gqa_cases(draw, per_head_mask=True):
    """Random (q, k, v, keep): B, H_kv, group size, lengths, d, and a keep mask that is shared by
    the heads ((B, 1, L_q, L_k)) or one per query head, random cells (rows that see nothing happen)."""
    B, H_kv, G = draw(st.integers(1, 2)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    L_q, L_k, d = draw(st.integers(1, 7)), draw(st.integers(1, 7)), draw(st.sampled_from([1, 4, 8]))
    heads = H_kv * G if per_head_mask and draw(st.booleans()) else 1
    seed, p = draw(st.integers(0, 2**16)), draw(st.floats(0.2, 1.0))
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(B, h, n, d, generator=g, dtype=torch.float64)
               for h, n in ((H_kv * G, L_q), (H_kv, L_k), (H_kv, L_k)))
    keep = torch.rand(B, heads, L_q, L_k, generator=g) < p
    return q, k, v, keep


def loop_reference(q, k, v, keep):
    """Attention one query head at a time, reading KV head kv_head_of(h): no expansion at all."""
    H_q, H_kv = q.shape[1], k.shape[1]
    out = torch.zeros_like(q)
    for h in range(H_q):
        j = kv_head_of(h, H_q, H_kv)
        mask = keep[:, min(h, keep.shape[1] - 1)]
        scores = (q[:, h] @ k[:, j].mT / q.shape[-1] ** 0.5).masked_fill(~mask, -torch.inf)
        weights = torch.nan_to_num(scores.softmax(-1), nan=0.0)  # a row that sees nothing: 0
        out[:, h] = weights @ v[:, j]
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(gqa_cases())
def test_the_reference_equals_a_loop_over_query_heads(case):
    q, k, v, keep = case
    torch.testing.assert_close(attention_reference(q, k, v, keep), loop_reference(q, k, v, keep),
                               rtol=1e-12, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(gqa_cases())
def test_sdpa_enable_gqa_equals_the_reference(case):
    q, k, v, keep = case
    torch.testing.assert_close(SDPA(q, k, v, keep, enable_gqa=True), attention_reference(q, k, v, keep),
                               rtol=1e-10, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(gqa_cases(per_head_mask=False), st.data())
def test_flex_enable_gqa_with_a_window_per_query_head_equals_the_reference(case, data):
    q, k, v, _ = case
    B, H_q, L_q, _ = q.shape
    L_k = k.shape[2]
    windows = data.draw(st.lists(st.integers(1, 8), min_size=H_q, max_size=H_q))
    mask_mod = head_windows(windows)
    keep = create_mask(mask_mod, 1, H_q, L_q, L_k, device="cpu")
    block = create_block_mask(mask_mod, 1, H_q, L_q, L_k, device="cpu")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", QUIET)
        out = flex_attention(q, k, v, block_mask=block, enable_gqa=True)
    torch.testing.assert_close(out, attention_reference(q, k, v, keep), rtol=1e-10, atol=1e-12)
    # the windows are what the page says: causal, and query head h sees at most windows[h] keys
    expected = [[sum(1 for j in range(L_k) if j <= i and i - j < w) for i in range(L_q)] for w in windows]
    assert keep[0].sum(-1).tolist() == expected


def table_mask_mod(keep):
    """A mask_mod that reads a dense keep table, (B or 1, H_q or 1, L_q, L_k), with its own b and h."""
    return lambda b, h, q_idx, kv_idx: keep[b.clamp(max=keep.shape[0] - 1), h.clamp(max=keep.shape[1] - 1),
                                             q_idx, kv_idx]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(gqa_cases())
def test_flex_enable_gqa_with_any_mask_as_a_table_equals_the_reference(case):
    # Random cells, shared by the heads or one table per query head; rows that see nothing included.
    q, k, v, keep = case
    B, H_q, L_q, _ = q.shape
    block = create_block_mask(table_mask_mod(keep), B, H_q, L_q, k.shape[2], device="cpu")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", QUIET)
        out = flex_attention(q, k, v, block_mask=block, enable_gqa=True)
    torch.testing.assert_close(out, attention_reference(q, k, v, keep), rtol=1e-10, atol=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 8), st.integers(1, 8))
def test_kv_head_of_pairs_neighbouring_query_heads_as_repeat_interleave_does(H_kv, G):
    H_q = H_kv * G
    heads = torch.arange(H_kv).reshape(1, H_kv, 1, 1).float()  # each KV head holds its number
    assert expand_kv(heads, G).flatten().long().tolist() == [kv_head_of(h, H_q, H_kv) for h in range(H_q)]
    assert [kv_head_of(h, H_q, H_kv) for h in range(H_q)] == sorted(kv_head_of(h, H_q, H_kv) for h in range(H_q))


def test_a_mask_per_kv_head_is_refused_by_sdpa_and_works_stretched():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, h, 5, 4, generator=g) for h in (6, 2, 2))
    per_kv = torch.rand(1, 2, 5, 5, generator=g) < 0.6
    with pytest.raises(RuntimeError, match=r"must match the size of tensor b \(2\) at non-singleton dimension 1"):
        SDPA(q, k, v, per_kv, enable_gqa=True)
    stretched = per_kv.repeat_interleave(3, dim=1)
    torch.testing.assert_close(SDPA(q, k, v, stretched, enable_gqa=True),
                               attention_reference(q, k, v, stretched), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("layers", "H_q", "H_kv", "L"), [(1, 4, 4, 3), (2, 8, 2, 10), (3, 6, 1, 7)])
def test_kv_cache_bytes_equals_what_a_small_llama_stores(layers, H_q, H_kv, L):
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers

    config = transformers.LlamaConfig(vocab_size=16, hidden_size=8 * H_q, intermediate_size=16,
                                      num_hidden_layers=layers, num_attention_heads=H_q,
                                      num_key_value_heads=H_kv, attn_implementation="sdpa")
    torch.manual_seed(0)
    with torch.no_grad():
        cache = transformers.LlamaModel(config).eval()(torch.randint(0, 16, (1, L)), use_cache=True).past_key_values
    held = sum(t.numel() * t.element_size() for layer in cache.layers for t in (layer.keys, layer.values))
    assert held == kv_cache_bytes(layers, H_kv, config.head_dim, L, dtype=torch.float32)
    assert all(layer.keys.shape == (1, H_kv, L, config.head_dim) for layer in cache.layers)


def test_eager_flex_gives_mask_mod_the_query_heads_number():
    # What the page says measured (gqa/flex_h.py): under enable_gqa=True, h is the query head's number.
    # Upgrading torch fails this first; measure again, then edit the page.
    assert torch.__version__.startswith("2.13.")
    assert project.run("gqa/flex_h.py").namespace["h_seen"] == list(range(8))


# bad input ------------------------------------------------------------------------------------

Q, KV = torch.zeros(1, 6, 3, 4), torch.zeros(1, 4, 3, 4)


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: kv_head_of(0, 6, 4), ValueError, r"h_q=6 query heads is not a multiple of h_kv=4"),
    (lambda: kv_head_of(6, 6, 2), ValueError, r"query_head must be in 0\.\.5, got 6"),
    (lambda: kv_head_of(-1, 6, 2), ValueError, r"query_head must be in 0\.\.5, got -1"),
    (lambda: kv_head_of(True, 6, 2), ValueError, r"query_head must be in 0\.\.5, got True"),
    (lambda: kv_head_of(0, 0, 1), ValueError, r"h_q must be an int >= 1, got 0"),
    (lambda: kv_head_of(0, 4, 2.0), ValueError, r"h_kv must be an int >= 1, got 2\.0"),
    (lambda: expand_kv(KV, 0), ValueError, r"groups must be an int >= 1, got 0"),
    (lambda: expand_kv(KV, 1.5), ValueError, r"groups must be an int >= 1, got 1\.5"),
    (lambda: attention_reference(Q, KV, KV, torch.ones(1, 1, 3, 3, dtype=torch.bool)), ValueError,
     r"H_q=6 query heads is not a multiple of H_kv=4"),
    (lambda: attention_reference(Q, KV[:, :2], KV[:, :2], torch.ones(1, 2, 3, 3, dtype=torch.bool)), ValueError,
     r"mask must be bool, \(B=1 or 1, H_q=6 or 1, 3, 3\); got torch\.bool \(1, 2, 3, 3\)"),
    (lambda: attention_reference(Q, KV[:, :2], KV[:, :2], torch.ones(1, 1, 3, 3)), ValueError,
     r"got torch\.float32 \(1, 1, 3, 3\)"),
    (lambda: attention_reference(Q, KV[:, :2], KV[:, :2], torch.ones(3, 3, dtype=torch.bool)), ValueError,
     r"got torch\.bool \(3, 3\)"),
    (lambda: attention_reference(Q, KV[:, :2], KV[:, :2], torch.ones(2, 1, 3, 3, dtype=torch.bool)), ValueError,
     r"got torch\.bool \(2, 1, 3, 3\)"),
    (lambda: head_windows([2, 0]), ValueError, r"windows must be ints >= 1, one a query head; got \[2, 0\]"),
    (lambda: head_windows([1.5, 2.0]), ValueError, r"windows must be ints >= 1"),
    (lambda: head_windows([]), ValueError, r"windows must be ints >= 1"),
    (lambda: kv_cache_bytes(0, 8, 64, 1024), ValueError, r"layers must be an int >= 1, got 0"),
    (lambda: kv_cache_bytes(2, 8, 64, 10.5), ValueError, r"seq_len must be an int >= 1, got 10\.5"),
    (lambda: kv_cache_bytes(2, 8, 64, 16, batch=0), ValueError, r"batch must be an int >= 1, got 0"),
    (lambda: kv_cache_bytes(2, 8, 64, 16, dtype="bf16"), TypeError, r"dtype must be a torch\.dtype, got 'bf16'"),
])
def test_gqa_functions_reject_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_kv_cache_bytes_counts_every_factor():
    base = kv_cache_bytes(2, 4, 8, 16, dtype=torch.float16, batch=3)
    assert base == 2 * 2 * 4 * 8 * 16 * 2 * 3
    assert kv_cache_bytes(2, 4, 8, 16, dtype=torch.float32, batch=3) == 2 * base
    assert kv_cache_bytes(2, 1, 8, 16, dtype=torch.float16, batch=3) * 4 == base
