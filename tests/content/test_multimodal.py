"""The multimodal chapter's functions: image_blocks numbers the runs of image tokens as Gemma 3's
own get_block_sequence_ids_for_mask does; multimodal_mask equals a slow loop over (query, key)
pairs, and transformers' own masks (create_causal_mask with block ids on full layers, Gemma 3's
create_masks_for_vision_model on sliding layers); the window, applied after the block, keeps every
key ahead of the query inside its image and drops every key a window or more behind, so an image
wider than the window is cut; and bad input is refused by name."""

import os

import project
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import transformers  # noqa: E402
from transformers.masking_utils import create_causal_mask  # noqa: E402
from transformers.models.gemma3.modeling_gemma3 import (  # noqa: E402
    create_masks_for_vision_model, get_block_sequence_ids_for_mask)

image_blocks = project.function("multimodal/mask.py", "image_blocks")
multimodal_mask = project.function("multimodal/mask.py", "multimodal_mask")


@st.composite
def batches(draw):
    """(token_type_ids (B, L), window or None): rows of text and image runs, windows narrower and
    wider than the images."""
    b, length = draw(st.integers(1, 3)), draw(st.integers(1, 12))
    bits = draw(st.lists(st.lists(st.integers(0, 1), min_size=length, max_size=length),
                         min_size=b, max_size=b))
    return torch.tensor(bits), draw(st.none() | st.integers(1, 6))


def _slow(types, window):
    """The obvious loop: the block id of each token, then each (query, key) pair by the rule."""
    b, length = types.shape
    keep = torch.zeros(b, length, length, dtype=torch.bool)
    for r in range(b):
        ids, block = [], -1
        for t in range(length):
            if types[r, t] == 1 and (t == 0 or types[r, t - 1] == 0):
                block += 1
            ids.append(block if types[r, t] == 1 else -1)
        for i in range(length):
            for j in range(length):
                seen = j <= i or (ids[i] == ids[j] and ids[i] >= 0)
                keep[r, i, j] = seen and (window is None or j > i - window)
    return keep


@settings(max_examples=200, deadline=None, derandomize=True)
@given(batches())
def test_the_builder_equals_the_slow_loop(case):
    types, window = case
    assert multimodal_mask(image_blocks(types), window).equal(_slow(types, window))


def _config(window, impl):
    return transformers.Gemma3TextConfig(
        sliding_window=window or 1, attn_implementation=impl, num_hidden_layers=1,
        layer_types=["sliding_attention"])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(batches(), st.sampled_from(["eager", "sdpa"]))
def test_the_builder_equals_transformers_own_masks(case, impl):
    types, window = case
    blocks = get_block_sequence_ids_for_mask(types)
    assert image_blocks(types).equal(blocks)
    b, length = types.shape
    kw = {"config": _config(window, impl), "inputs_embeds": torch.zeros(b, length, 4),
          "attention_mask": None, "past_key_values": None,
          "position_ids": torch.arange(length).expand(b, -1)}
    if window is None:
        hf = create_causal_mask(block_sequence_ids=blocks, **kw)
    else:
        hf = create_masks_for_vision_model(block_sequence_ids=blocks, **kw)["sliding_attention"]
    hf = hf if hf.dtype == torch.bool else hf == 0  # eager: additive 0 / min float
    assert hf.expand(b, 1, length, length)[:, 0].equal(multimodal_mask(blocks, window))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.integers(-1, 2), min_size=n, max_size=n)),
       st.sampled_from(["eager", "sdpa"]))
def test_any_block_ids_equal_create_causal_mask_with_those_ids(ids, impl):
    """Block ids given directly (PaliGemma's prefix of 0s, blocks apart or interleaved)."""
    blocks, length = torch.tensor([ids]), len(ids)
    hf = create_causal_mask(config=_config(None, impl), inputs_embeds=torch.zeros(1, length, 4),
                            attention_mask=None, past_key_values=None,
                            position_ids=torch.arange(length)[None], block_sequence_ids=blocks)
    hf = hf if hf.dtype == torch.bool else hf == 0
    assert hf.expand(1, 1, length, length)[:, 0].equal(multimodal_mask(blocks))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(batches().filter(lambda c: c[1] is not None))
def test_the_window_cuts_an_image_only_behind_the_query(case):
    types, window = case
    blocks = image_blocks(types)
    full, windowed = multimodal_mask(blocks), multimodal_mask(blocks, window)
    length = types.shape[1]
    i, j = torch.arange(length)[:, None], torch.arange(length)[None]
    assert windowed.equal(full & (j > i - window))  # the window ANDed after the block
    same = (blocks[:, :, None] == blocks[:, None, :]) & (blocks[:, :, None] >= 0)
    assert windowed[same & (j > i)].all()  # keys ahead in the same image: never cut
    assert not windowed[same & (j <= i - window)].any()  # a window or more behind: cut
    assert not (windowed & (j > i) & ~same).any()  # no text key ahead, ever


@pytest.mark.parametrize(("call", "match"), [
    (lambda: image_blocks(torch.tensor([0, 1])), "token_type_ids must be a 2-D integer tensor"),
    (lambda: image_blocks(torch.tensor([[0.0, 1.0]])), "token_type_ids must be a 2-D integer tensor"),
    (lambda: image_blocks(torch.tensor([[True, False]])), "token_type_ids must be a 2-D integer tensor"),
    (lambda: image_blocks([[0, 1]]), "token_type_ids must be a 2-D integer tensor"),
    (lambda: image_blocks(torch.tensor([[0, 2]])), "token_type_ids must be 0 or 1, got [0, 2]"),
    (lambda: image_blocks(torch.tensor([[-1, 1]])), "token_type_ids must be 0 or 1, got [-1, 1]"),
    (lambda: multimodal_mask(torch.tensor([[-2, 0]])), "blocks must be a 2-D integer tensor of ids >= -1"),
    (lambda: multimodal_mask(torch.tensor([0, 0])), "blocks must be a 2-D integer tensor of ids >= -1"),
    (lambda: multimodal_mask(torch.tensor([[0.0]])), "blocks must be a 2-D integer tensor of ids >= -1"),
    (lambda: multimodal_mask(torch.tensor([[0]]), 0), "window must be None or an int >= 1, got 0"),
    (lambda: multimodal_mask(torch.tensor([[0]]), 2.0), "window must be None or an int >= 1, got 2.0"),
    (lambda: multimodal_mask(torch.tensor([[0]]), True), "window must be None or an int >= 1, got True"),
])
def test_multimodal_functions_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace("[", r"\[")):
        call()


def test_two_adjacent_images_are_one_block_unless_numbered_apart():
    types = torch.tensor([[1, 1, 1, 1]])  # token_type_ids cannot say where one image ends
    assert image_blocks(types).tolist() == [[0, 0, 0, 0]]
    apart = multimodal_mask(torch.tensor([[0, 0, 1, 1]]))[0]
    assert not apart[0, 2] and apart[2, 3] and apart[2, 0]
