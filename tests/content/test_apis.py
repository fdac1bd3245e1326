"""The apis chapter: its mask converters round-trip between every pair of conventions and refuse
what they cannot read; `read_api` reads torch's conventions off random probes; and each library's
behaviour that the chapter's table states is asserted here too, naming the library and the version
that was measured, so an upgrade that changes a cell fails with the library's name."""

import os

import project
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

to_keep = project.function("apis/convert.py", "to_keep")
from_keep = project.function("apis/convert.py", "from_keep")
read_api = project.function("apis/torch_sdpa.py", "read_api")

KINDS = ["keep", "hide", "additive", "finfo_min", "hf", "keras"]
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]


@st.composite
def keep_masks(draw):
    """A bool keep mask of 1 to 3 axes, each of size 1 to 5."""
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
    bits = draw(st.lists(st.booleans(), min_size=1, max_size=1))  # a seed for the pattern
    seed = draw(st.integers(0, 2**16))
    generator = torch.Generator().manual_seed(seed)
    keep = torch.rand(shape, generator=generator) < 0.5
    return keep if bits[0] else ~keep


# converters ----------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(keep=keep_masks(), dtype=st.sampled_from(FLOATS))
def test_every_convention_returns_to_keep(keep, dtype):
    for kind in KINDS:
        mask = from_keep(keep, kind, dtype)
        assert mask.shape == keep.shape, kind
        assert torch.equal(to_keep(mask, kind), keep), kind


@settings(max_examples=25, deadline=None, derandomize=True)
@given(keep=keep_masks(), dtype=st.sampled_from(FLOATS))
def test_every_pair_round_trips(keep, dtype):
    for a in KINDS:
        m = from_keep(keep, a, dtype)
        for b in KINDS:
            there = from_keep(to_keep(m, a), b, dtype)  # a -> b, the page's one line
            back = from_keep(to_keep(there, b), a, dtype)  # b -> a
            assert torch.equal(back, m) or (back.isnan().all() and m.isnan().all()), (a, b)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(keep=keep_masks(), dtype=st.sampled_from(FLOATS))
def test_the_conventions_mean_what_the_table_says(keep, dtype):
    assert torch.equal(from_keep(keep, "hide"), ~keep)
    additive = from_keep(keep, "additive", dtype)
    assert additive.dtype == dtype and torch.equal(additive == 0, keep)
    assert torch.isneginf(additive[~keep]).all()
    assert (from_keep(keep, "finfo_min", dtype)[~keep] == torch.finfo(dtype).min).all()
    assert from_keep(keep, "hf").dtype == torch.int64 and from_keep(keep, "keras").dtype == torch.int32
    scores = torch.randn(keep.shape, dtype=torch.float64)
    if keep.any(-1).all():  # no fully masked row: the additive mask is softmax(S + M)
        weights = torch.softmax(scores + from_keep(keep, "additive", torch.float64), -1)
        assert torch.equal(weights > 0, keep)


@pytest.mark.parametrize(
    ("mask", "kind", "error", "match"),
    [
        (torch.tensor([1, 0]), "keep", TypeError, r"'keep' mask is bool, not torch\.int64"),
        (torch.tensor([0.0, 1.0]), "hide", TypeError, r"'hide' mask is bool, not torch\.float32"),
        (torch.tensor([True]), "additive", TypeError, r"'additive' mask is float, not torch\.bool"),
        (torch.tensor([1, 0]), "finfo_min", TypeError, r"is float, not torch\.int64"),
        (torch.tensor([0.0, 1.0]), "hf", TypeError, r"'hf' mask is int, not torch\.float32"),
        (torch.tensor([True]), "keras", TypeError, r"'keras' mask is int, not torch\.bool"),
        (torch.tensor([0.0, 1.0]), "additive", ValueError, r"holds 0 and -inf only: \[0\.0, 1\.0\]"),
        (torch.tensor([0.0, -1e9]), "additive", ValueError, r"holds 0 and -inf only"),
        (torch.tensor([0.0, -torch.inf]), "finfo_min", ValueError, r"holds 0 and -3\.40"),
        (torch.tensor([0.0, -65504.0]).half() * 2, "finfo_min", ValueError, r"-65504\.0 only: \[-inf"),
        (torch.tensor([0, 2]), "hf", ValueError, r"'hf' holds 0 and 1 only: \[0, 2\]"),
        (torch.tensor([-1, 1]), "keras", ValueError, r"holds 0 and 1 only"),
        (torch.tensor([True]), "torch", ValueError, r"unknown convention 'torch'"),
        (torch.tensor([True]), "Keep", ValueError, r"unknown convention 'Keep'"),
    ],
)
def test_to_keep_rejects_what_it_cannot_read(mask, kind, error, match):
    with pytest.raises(error, match=match):
        to_keep(mask, kind)


@pytest.mark.parametrize(
    ("keep", "kind", "dtype"),
    [
        (torch.tensor([1, 0]), "hide", torch.float32),  # not bool
        (torch.tensor([True]), "additive", torch.int32),  # not a float dtype
        (torch.tensor([True]), "bool", torch.float32),  # not a convention
    ],
)
def test_from_keep_rejects_bad_arguments(keep, kind, dtype):
    with pytest.raises(ValueError, match=r"want bool, kinds\(\), float"):
        from_keep(keep, kind, dtype)


# read_api on random probes ---------------------------------------------------------------------


@st.composite
def probes(draw):
    """Scores (L_Q, L_K) and a keep mask whose last row is fully masked, the others not."""
    lq, lk = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**16)))
    scores = torch.randn(lq, lk, generator=generator)
    keep = torch.rand(lq, lk, generator=generator) < 0.6
    keep[:-1, 0] = True  # every other row keeps a key ...
    keep[:-1, -1] = False  # ... and hides one, so ~keep is not keep
    keep[-1] = False
    return scores, keep


@settings(max_examples=10, deadline=None, derandomize=True)
@given(probe=probes())
def test_read_api_reads_torch_the_same_on_any_probe(probe):
    s, keep = probe
    eye = torch.eye(s.shape[1])  # d = L_K: k = sqrt(d) I makes q k^T / sqrt(d) = s
    sdpa = lambda m: F.scaled_dot_product_attention(s[None], eye[None] * s.shape[1] ** 0.5, eye[None], m)[0]  # noqa: E731
    masked_fill = lambda m: torch.softmax(s.masked_fill(m, -torch.inf), -1)  # noqa: E731
    assert read_api(sdpa, s, keep) == ("True = 참여", "bool/float", "점수에 더함", "0"), torch.__version__
    assert read_api(masked_fill, s, keep) == ("True = 가림", "bool", "거부", "nan"), torch.__version__


@pytest.mark.parametrize(
    ("s", "keep", "match"),
    [
        (torch.zeros(3), torch.ones(3, dtype=torch.bool), r"need 2-D scores"),
        (torch.zeros(2, 3), torch.ones(2, 3), r"torch\.float32"),
        (torch.zeros(2, 3), torch.ones(3, 2, dtype=torch.bool), r"torch\.Size\(\[2, 3\]\)"),
    ],
)
def test_read_api_rejects_a_probe_it_cannot_read(s, keep, match):
    with pytest.raises(ValueError, match=match):
        read_api(lambda m: m, s, keep)


# each library, as measured (the chapter's table) ----------------------------------------------

S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
KEEP = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()


def test_torch_as_measured():
    assert torch.__version__.startswith("2.13."), f"torch {torch.__version__}: measure the chapter again"
    mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True)
    mha.load_state_dict({"in_proj_weight": torch.eye(4).repeat(3, 1), "out_proj.weight": torch.eye(4)})
    q, k, v = S[None], 2 * torch.eye(4)[None], torch.eye(4)[None]
    assert mha(q, k, v, attn_mask=~KEEP)[1][0, 2].isnan().all(), f"torch {torch.__version__}: MHA's row"
    assert mha(q, k, v, attn_mask=~KEEP, need_weights=False)[0][0, 2].eq(0).all(), f"torch {torch.__version__}"
    lower_right = ~torch.ones(2, 4, dtype=torch.bool).tril(2)  # MHA drops it under the is_causal hint
    w = mha(q[:, :2], k, v, attn_mask=lower_right, is_causal=True, need_weights=False)[0][0]
    assert torch.equal(w != 0, torch.ones(2, 4, dtype=torch.bool).tril()), f"torch {torch.__version__}"
    square = torch.nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float16)
    assert square.min() == -torch.inf, f"torch {torch.__version__}: generate_square_subsequent_mask"


def test_transformers_as_measured():
    os.environ["HF_HUB_OFFLINE"] = "1"
    import transformers
    from transformers.masking_utils import create_causal_mask

    where = f"transformers {transformers.__version__}"
    assert transformers.__version__ == "5.23.0", f"{where}: measure the chapter again"
    config = transformers.LlamaConfig(hidden_size=16, num_attention_heads=2, attn_implementation="eager")
    mask = create_causal_mask(config=config, inputs_embeds=torch.zeros(1, 4, 16, dtype=torch.float16),
                              attention_mask=torch.tensor([[0, 2, 1, 1]]), past_key_values=None)[0, 0]
    assert mask.dtype == torch.float16 and mask.min() == -65504, f"{where}: eager fill is finfo.min"
    assert mask[0].eq(-65504).all() and mask[1, 1] == 0, f"{where}: a 2 attends, a left pad row is all min"


def test_keras_as_measured():
    os.environ["KERAS_BACKEND"] = "torch"
    import keras

    where = f"keras {keras.__version__} on {keras.backend.backend()}"
    assert keras.__version__ == "3.15.1" and keras.backend.backend() == "torch", f"{where}: measure again"
    mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4)
    q, k, v = S[None], 2 * torch.eye(4)[None], torch.eye(4)[None]
    mha(q, v, key=k)
    mha.set_weights([torch.eye(4).reshape(w.shape) if len(w.shape) == 3 else torch.zeros(w.shape)
                     for w in mha.weights])
    additive = torch.zeros(3, 4).masked_fill(~KEEP, -torch.inf)  # torch's habit, read as bool
    inverted = torch.softmax(S.masked_fill(KEEP, -torch.inf), -1)
    assert torch.allclose(mha(q, v, key=k, attention_mask=additive)[0, :2], inverted[:2], atol=1e-6), where
    assert mha(q, v, key=k, attention_mask=KEEP)[0, 2].std() < 1e-6, f"{where}: the fused path's uniform row"



def test_keras_window_is_the_rule_the_flex_table_transcribes():
    """flex/window.py writes Keras's sliding_window rule as a mask_mod; the Keras layer, run, agrees."""
    measured, table = project.run("apis/keras_window.py").namespace, project.run("flex/window.py").namespace
    for name in ("Keras sliding_window=W", "Keras sliding_window=W, causal"):
        assert measured["seen"][name] == table["seen"][name], name
    assert measured["symmetric"] and measured["future"] > 0, "a two-sided band, future keys included"

def test_jax_and_flax_as_measured():
    import flax
    import jax
    import jax.numpy as jnp
    from flax import linen as nn

    where = f"jax {jax.__version__}, flax {flax.__version__}"
    assert (jax.__version__, flax.__version__) == ("0.10.2", "0.12.8"), f"{where}: measure again"
    s, keep = jnp.asarray(S.numpy()), jnp.asarray(KEEP.numpy())
    q, k, v = s[None, :, None], 2 * jnp.eye(4)[None, :, None], jnp.eye(4)[None, :, None]
    with pytest.raises(ValueError, match="mask dtype should be bool"):
        jax.nn.dot_product_attention(q, k, v, mask=keep.astype(int)[None, None])
    by_mask = jax.nn.dot_product_attention(q, k, v, mask=keep[None, None])[0, 2, 0]
    by_bias = jax.nn.dot_product_attention(q, k, v, bias=jnp.where(keep, 0, -jnp.inf)[None, None])[0, 2, 0]
    assert by_mask.std() < 1e-6 and jnp.isnan(by_bias).all(), f"{where}: mask uniform, bias nan"
    flax_w = nn.dot_product_attention_weights(q, k, None, keep[None, None])[0, 0, 2]
    assert flax_w.std() < 1e-6, f"{where}: flax's fully masked row is uniform"


NESTED_TWICE = """
import warnings
import torch
layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
encoder = torch.nn.TransformerEncoder(layer, num_layers=1).eval()
pad = torch.tensor([[False, True], [True, True]])
with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(2):
        encoder(torch.randn(2, 2, 8), src_key_padding_mask=pad)
print(sum("nested tensors is in prototype stage" in str(w.message) for w in caught))
"""


def test_torch_warns_about_nested_tensors_once_a_process():
    # Why apis/transformer.py and padding/encoder.py silence that warning (apis.md says so).
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", NESTED_TWICE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1", f"torch {torch.__version__}: the encoder's nested-tensor warning came {out.stdout.strip()} times"
