"""The flex chapter's mask functions against dense masks built another way, through SDPA and through
FlexAttention itself, and the block-level cost method against create_block_mask.

Each dense reference below is written with tril/triu and index arithmetic, not with the chapter's
predicates. Eager flex_attention on CPU costs about 0.1-0.3 s a call (it traces through dynamo), so
the tests that call it draw few examples; the cheap mask comparisons draw many.
"""

import ast
import itertools
import re
import warnings

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.flex_attention import (_ordered_to_dense, and_masks, create_block_mask, create_mask,
                                               flex_attention, or_masks)

causal = project.function("flex/zoo.py", "causal")
window = project.function("flex/zoo.py", "window")
first = project.function("flex/zoo.py", "first")
chunk = project.function("flex/zoo.py", "chunk")
document = project.function("flex/packing.py", "document")
layer = project.function("flex/packing.py", "layer")
alibi = project.function("flex/alibi.py", "alibi")
block_map = project.function("flex/cost.py", "block_map")
peak_bytes = project.function("flex/peak.py", "peak_bytes")

SDPA = F.scaled_dot_product_attention
QUIET = "flex_attention called without torch.compile"  # eager CPU: the chapter shows this warning


def flex(q, k, v, mask_mod, **kwargs):
    block = create_block_mask(mask_mod, 1, 1, q.shape[-2], k.shape[-2], device="cpu")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", QUIET)
        return flex_attention(q, k, v, block_mask=block, **kwargs)


def dense(mask_mod, L_Q, L_K):
    """The (L_Q, L_K) bool mask, by broadcasting the indices (create_mask's vmap is slower)."""
    zero = torch.tensor(0)
    return mask_mod(zero, zero, torch.arange(L_Q)[:, None], torch.arange(L_K)).expand(L_Q, L_K)


def tril(L_Q, L_K, diagonal=0):
    return torch.ones(L_Q, L_K, dtype=torch.bool).tril(diagonal)


@st.composite
def zoo_cases(draw):
    """One mask of the zoo with random sizes, its mask_mod and a dense reference built with tril."""
    kind = draw(st.sampled_from(["top-left", "bottom-right", "window", "prefix-LM", "chunked", "sinks",
                                 "document"]))
    L_Q = draw(st.integers(1, 12))
    L_K = draw(st.integers(1, 12)) if kind in ("top-left", "bottom-right") else L_Q  # L_Q > L_K too
    L = L_K
    n = draw(st.integers(0, L + 3))  # window 0 (no key at all) and windows >= L included
    if kind == "top-left":
        return kind, causal(), tril(L_Q, L_K), L_Q, L_K
    if kind == "bottom-right":  # L_Q > L_K: the first L_Q - L_K rows see nothing
        return kind, causal(L_K - L_Q), tril(L_Q, L_K, L_K - L_Q), L_Q, L_K
    if kind == "window":  # n keys at most: the diagonal and n - 1 before it
        ref = tril(L, L) & ~tril(L, L, -n) if n > 0 else torch.zeros(L, L, dtype=torch.bool)
        return kind, and_masks(causal(), window(n)), ref, L, L
    if kind == "prefix-LM":
        ref = tril(L, L)
        ref[:, :n] = True
        return kind, or_masks(causal(), first(n)), ref, L, L
    if kind == "chunked":
        size = max(n, 1)
        sizes = [len(c) for c in torch.arange(L).split(size)]
        ref = torch.block_diag(*[torch.ones(m, m) for m in sizes]).bool() & tril(L, L)
        return kind, and_masks(causal(), chunk(size)), ref, L, L
    if kind == "sinks":
        sinks = draw(st.integers(0, L))
        ref = (tril(L, L) & ~tril(L, L, -n)) if n > 0 else torch.zeros(L, L, dtype=torch.bool)
        ref[:, :sinks] = True
        return kind, and_masks(causal(), or_masks(window(n), first(sinks))), ref & tril(L, L), L, L
    cuts = sorted(draw(st.sets(st.integers(1, L - 1), max_size=L - 1))) if L > 1 else []
    lengths = [b - a for a, b in zip([0, *cuts], [*cuts, L])]  # one-token documents happen
    ref = torch.block_diag(*[torch.ones(m, m) for m in lengths]).bool() & tril(L, L)
    return kind, and_masks(causal(), document(lengths, L)), ref, L, L


@settings(max_examples=60, deadline=None, derandomize=True)
@given(zoo_cases(), st.integers(0, 2**16))
def test_every_zoo_mask_equals_its_dense_reference_through_sdpa(case, seed):
    kind, mask_mod, ref, L_Q, L_K = case
    assert torch.equal(dense(mask_mod, L_Q, L_K), ref), kind
    if seed % 8 == 0:  # now and then through create_mask, flex's own dense evaluation
        assert torch.equal(create_mask(mask_mod, 1, 1, L_Q, L_K, device="cpu")[0, 0], ref), kind
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(1, 2, n, 4, generator=g, dtype=torch.float64) for n in (L_Q, L_K, L_K))
    torch.testing.assert_close(SDPA(q, k, v, attn_mask=dense(mask_mod, L_Q, L_K)), SDPA(q, k, v, attn_mask=ref))


@settings(max_examples=10, deadline=None, derandomize=True)
@given(zoo_cases(), st.integers(0, 2**16))
def test_every_zoo_mask_through_flex_attention_equals_sdpa_with_the_reference(case, seed):
    kind, mask_mod, ref, L_Q, L_K = case
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(1, 2, n, 4, generator=g, dtype=torch.float64) for n in (L_Q, L_K, L_K))
    out = flex(q, k, v, mask_mod)
    torch.testing.assert_close(out, SDPA(q, k, v, attn_mask=ref), rtol=1e-10, atol=1e-12)
    assert (out[..., ~ref.any(-1), :] == 0).all(), "rows that see no key are 0, as SDPA's"


PIECES = {"and_masks": and_masks, "or_masks": or_masks, "causal": causal, "window": window, "first": first,
          "chunk": chunk}


def sink_compositions(text):
    """Every code span of a page that joins window(...) and first(...): the sink masks readers copy."""
    return [s for s in re.findall(r"`([^`\n]+)`", text) if "window(" in s and "first(" in s]


@pytest.mark.parametrize("page", ["docs/flex.md", "docs-en/flex.md"])
def test_every_sink_mask_the_page_writes_sees_its_window_and_sinks_and_no_future_key(page):
    # The table is what readers copy: or_masks(window(...), first(n)) once stood there, and window()
    # alone is true for every future key. Each composition is evaluated with the snippet's own pieces
    # and every small size, and compared with the sink mask built from tril.
    spans = sink_compositions((project.ROOT / page).read_text(encoding="utf-8"))
    assert len(spans) >= 2, spans  # the table's row and the prose of #more
    L = 7
    for span in spans:
        tree = ast.parse(span.replace("...", "w"), mode="eval")
        sizes = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - PIECES.keys())
        [sink_call] = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "first"]
        [window_call] = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "window"]
        for values in itertools.product(range(L + 1), repeat=len(sizes)):
            names = PIECES | dict(zip(sizes, values))
            sinks, w = (eval(ast.unparse(c.args[0]), names) for c in (sink_call, window_call))
            mask = dense(eval(compile(tree, span, "eval"), names), L, L)
            future = ~tril(L, L)
            assert not (mask & future)[:, sinks:].any(), f"{page}: `{span}` with {values} sees a future key that is no sink"
            ref = (tril(L, L) & ~tril(L, L, -w)) if w > 0 else torch.zeros(L, L, dtype=torch.bool)
            ref[:, :sinks] = True
            assert torch.equal(mask & ~future, ref & ~future), f"{page}: `{span}` with {values} is not window + sinks"


@pytest.mark.parametrize(("mask_mod", "ref"), [
    (lambda: and_masks(causal(), window(0)), lambda L: torch.zeros(L, L, dtype=torch.bool)),  # window 0
    (lambda: and_masks(causal(), window(50)), lambda L: tril(L, L)),  # window >= L: plain causal
    (lambda: and_masks(causal(), document([1] * 7, 7)), lambda L: torch.eye(L, dtype=torch.bool)),
])
def test_edge_cases_through_flex_attention(mask_mod, ref):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, 7, 4, generator=g, dtype=torch.float64) for _ in range(3))
    torch.testing.assert_close(flex(q, k, v, mask_mod()), SDPA(q, k, v, attn_mask=ref(7)), rtol=1e-10, atol=1e-12)


@given(st.integers(0, 20), st.integers(1, 16))
@settings(max_examples=60, derandomize=True, deadline=None)
def test_window_counts_keys_like_transformers_and_one_less_than_flash_attention(W, L):
    seen = dense(and_masks(causal(), window(W)), L, L).sum(-1)
    q = torch.arange(L)
    hf = dense(lambda b, h, qi, kv: (kv <= qi) & (kv > qi - W), L, L).sum(-1)  # masking_utils
    fa = dense(lambda b, h, qi, kv: (qi - W <= kv) & (kv <= qi), L, L).sum(-1)  # window_size=(W, 0)
    assert torch.equal(seen, hf) and torch.equal(seen, torch.minimum(q + 1, torch.tensor(W)))
    assert torch.equal(fa, torch.minimum(q + 1, torch.tensor(W + 1)))


# bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: window(-1), ValueError, r"window must be an int >= 0, got -1"),
    (lambda: window(2.5), ValueError, r"window must be an int >= 0, got 2\.5"),
    (lambda: window(True), ValueError, r"window must be an int >= 0, got True"),
    (lambda: first(-3), ValueError, r"first must be an int >= 0, got -3"),
    (lambda: chunk(0), ValueError, r"chunk must be an int >= 1, got 0"),
    (lambda: causal(1.0), ValueError, r"offset must be an int"),
    (lambda: document([3, 4], 8), ValueError, r"lengths \[3, 4\] must be >= 1 and sum to L=8"),
    (lambda: document([3, 0, 5], 8), ValueError, r"lengths \[3, 0, 5\] must be >= 1"),
    (lambda: document([2.5, 5.5], 8), TypeError, r"lengths must be a 1-D list of ints, got torch\.float32"),
    (lambda: document(torch.tensor([3.0, 5.0]), 8), TypeError, r"got torch\.float32 of shape \(2,\)"),
    (lambda: document(torch.tensor([[3, 5]]), 8), TypeError, r"of shape \(1, 2\)"),
    (lambda: alibi(0), ValueError, r"heads must be an int >= 1, got 0"),
    (lambda: alibi(2.0), ValueError, r"heads must be an int >= 1, got 2\.0"),
    (lambda: alibi(4, sign=0), ValueError, r"sign must be -1 \(ALiBi\) or 1 \(the wrong sign\), got 0"),
    (lambda: block_map([0, 0], [0, 1]), TypeError, r"lo, hi must be int64 tensors"),
    (lambda: block_map(torch.zeros(100, dtype=torch.long), torch.arange(100)), ValueError, r"a multiple of 128"),
    (lambda: block_map(torch.arange(128).flip(0), torch.arange(128) + 200), ValueError, r"non-decreasing"),
    (lambda: block_map(torch.arange(128) + 1, torch.arange(128)), ValueError, r"need 1-D lo <= hi"),
])
def test_mask_functions_reject_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


# the block-level cost method -------------------------------------------------------------------


@st.composite
def block_cases(draw):
    """A pattern as (lo, hi, sinks) rows and as a mask_mod, with a small block size."""
    block = draw(st.sampled_from([2, 4, 8, 16]))
    L = block * draw(st.integers(1, 8))
    q, zero = torch.arange(L), torch.zeros(L, dtype=torch.int64)
    W, s = draw(st.integers(1, L + 2)), draw(st.integers(0, L + 2))
    cuts = sorted(draw(st.sets(st.integers(1, L - 1), max_size=6))) if L > 1 else []
    starts = torch.tensor([0, *cuts])
    lo_doc = starts[torch.searchsorted(starts, q, right=True) - 1]
    kind = draw(st.sampled_from(["causal", "window", "documents", "prefix-LM", "chunked", "sinks"]))
    rows, mask_mod = {
        "causal": ((zero, q), causal()),
        "window": ((q - W + 1, q), and_masks(causal(), window(W))),
        "documents": ((lo_doc, q), and_masks(causal(), document([b - a for a, b in zip([0, *cuts], [*cuts, L])], L))),
        "prefix-LM": ((zero, q.clamp(min=s - 1)), or_masks(causal(), first(s))),
        "chunked": ((q - q % W, q), and_masks(causal(), chunk(W))),
        "sinks": ((q - W + 1, q, s), and_masks(causal(), or_masks(window(W), first(s)))),
    }[kind]
    return rows, mask_mod, L, block


@settings(max_examples=40, deadline=None, derandomize=True)
@given(block_cases())
def test_block_map_equals_create_block_mask(case):
    rows, mask_mod, L, block = case
    partial, full = block_map(*rows, block=block)
    made = create_block_mask(mask_mod, 1, 1, L, L, device="cpu", BLOCK_SIZE=block)
    n = L // block
    assert torch.equal(partial, _ordered_to_dense(made.kv_num_blocks, made.kv_indices, n)[0, 0].bool())
    assert torch.equal(full, _ordered_to_dense(made.full_kv_num_blocks, made.full_kv_indices, n)[0, 0].bool())


@pytest.mark.parametrize("L", [128, 1024, 2048])
@pytest.mark.parametrize("pattern", ["causal", "window", "chunked"])
def test_blockmask_bytes_follow_the_pages_formula_whatever_the_pattern(L, pattern):
    mask_mod = {"causal": causal(), "window": and_masks(causal(), window(100)), "chunked": chunk(300)}[pattern]
    made = create_block_mask(mask_mod, 1, 1, L, L, device="cpu")
    tensors = [made.kv_num_blocks, made.kv_indices, made.full_kv_num_blocks, made.full_kv_indices,
               made.q_num_blocks, made.q_indices, made.full_q_num_blocks, made.full_q_indices]
    n = L // 128
    assert sum(t.numel() * t.element_size() for t in tensors) == 16 * n * n + 16 * n


# the memory eager create_block_mask holds ------------------------------------------------------


def test_peak_bytes_replays_allocations_and_frees_in_order():
    def two_then_one():
        a, b = torch.ones(1000, dtype=torch.bool), torch.ones(1000, dtype=torch.int64)
        del a, b  # 9000 bytes held together, then freed
        return torch.ones(3000, dtype=torch.bool)

    def one_at_a_time():
        for _ in range(3):
            torch.ones(5000, dtype=torch.bool)

    assert peak_bytes(two_then_one) == 9000
    assert peak_bytes(one_at_a_time) == 5000
    assert peak_bytes(lambda: None) == 0


def test_peak_bytes_agrees_with_the_allocators_own_running_total():
    # A second reading of the same profile: each allocation event also carries the allocator
    # reporter's total of the bytes it holds (total_allocated), counted from its own table.
    from torch.profiler import ProfilerActivity, profile
    peak = peak_bytes(create_block_mask, causal(), 1, 1, 1024, 1024, device="cpu")  # quiets kineto first
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        create_block_mask(causal(), 1, 1, 1024, 1024, device="cpu")
    found, stack = [], list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:
        event = stack.pop()
        stack += event.children
        if isinstance(event.extra_fields, torch._C._profiler._ExtraFields_Allocation):
            found.append((event.start_time_ns, event.extra_fields))
    found.sort(key=lambda pair: pair[0])
    start = found[0][1].total_allocated - found[0][1].alloc_size  # held before the call
    assert max(f.total_allocated for _, f in found) - start == peak


@pytest.mark.parametrize(("B", "H", "L"), [(1, 1, 256), (1, 1, 1024), (2, 3, 512)])
def test_eager_create_block_mask_holds_the_mask_a_padded_copy_and_an_int64_copy(B, H, L):
    # What the page explains its measured ratio (B = H = 1) with: at the peak, the bool table
    # mask_mod gives, the copy F.pad makes of it and the int64 copy mask.sum casts that to are all
    # held, with the int64 block sums. A causal mask_mod ignores b and h, so its table is one
    # (L, L) broadcast over them, and only the two copies are B * H times as large. Another torch
    # that drops or adds a copy fails here; measure again, then edit the page.
    assert torch.__version__.startswith("2.13.")
    cells, blocks = B * H * L * L, B * H * (L // 128) ** 2
    peak = peak_bytes(create_block_mask, causal(), B, H, L, L, device="cpu")
    assert peak == L * L + (1 + 8) * cells + 8 * blocks


# packing, ALiBi, CPU ---------------------------------------------------------------------------


@settings(max_examples=3, deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=3), st.integers(0, 2**16))
def test_packing_with_document_mask_and_reset_positions_equals_separate_runs(lengths, seed):
    g = torch.Generator().manual_seed(seed)
    L, d = sum(lengths), 4
    x, table = torch.randn(L, d, generator=g), torch.randn(L, d, generator=g)
    w = torch.randn(3, d, d, generator=g)
    starts = torch.tensor([0, *lengths]).cumsum(0)[:-1]
    reset = torch.cat([torch.arange(n) for n in lengths])
    alone = torch.cat([layer(x[a:a + n], table[:n], w, causal()) for a, n in zip(starts.tolist(), lengths)])
    docs = and_masks(causal(), document(lengths, L))
    torch.testing.assert_close(layer(x, table[reset], w, docs), alone, rtol=1e-5, atol=1e-5)
    later = slice(lengths[0], L)  # the first document sees nothing else under a causal mask anyway
    assert (layer(x, table, w, causal())[later] - alone[later]).abs().max() > 1e-3


@pytest.mark.parametrize(("H", "L"), [(3, 5), (1, 1)])  # few: each new score_mod is traced anew
def test_alibi_score_mod_equals_a_dense_bias_through_sdpa(H, L):
    g = torch.Generator().manual_seed(H)
    slopes = 2.0 ** (-8 * torch.arange(1, H + 1, dtype=torch.float64) / H)  # ALiBi's
    q, k, v = (torch.randn(1, H, L, 4, generator=g, dtype=torch.float64) for _ in range(3))
    i = torch.arange(L)
    bias = (-slopes[:, None, None] * (i[:, None] - i)).masked_fill(i > i[:, None], -torch.inf)
    assert (bias[:, -1, :].diff(dim=-1) >= 0).all()  # within a row, farther keys get less
    # alibi() computes its slopes in float32 (h is an int tensor), hence float32's tolerance
    torch.testing.assert_close(flex(q, k, v, causal(), score_mod=alibi(H)), SDPA(q, k, v, attn_mask=bias),
                               rtol=1e-6, atol=1e-6)


def test_eager_backward_on_cpu_raises_in_this_torch():
    # The page says eager flex_attention has no backward on CPU in the torch measured. Upgrading
    # torch fails this first; measure again, then edit the page.
    assert torch.__version__.startswith("2.13.")
    q = torch.randn(1, 1, 4, 4, requires_grad=True)
    with pytest.raises(NotImplementedError, match="FlexAttention does not support backward on CPU"):
        flex(q, q.detach(), q.detach(), causal()).sum().backward()
