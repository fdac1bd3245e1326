"""The explorer's own arithmetic (handbook/explorer.py): its blocks are FlexAttention's, for any mask;
its weights are one over the kept keys; every pattern's parameter sets are the ones it lists; and a
page that forgets a word is told which."""

import pytest
import torch
from fractions import Fraction
from hypothesis import given, settings
from hypothesis import strategies as st
from handbook.explorer import BLOCK, PATTERNS, blocks, explorer, weights
from torch.nn.attention.flex_attention import create_block_mask


@st.composite
def masks(draw):
    q, k = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    return draw(st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=q, max_size=q))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(masks())
def test_empty_blocks_are_the_ones_flexattention_skips_and_full_ones_its_full_blocks(keep):
    q, k = len(keep), len(keep[0])
    dense = torch.tensor(keep)
    block = create_block_mask(lambda b, h, i, j: dense[i, j], 1, 1, q, k, device="cpu", BLOCK_SIZE=BLOCK)
    computed = block.to_dense()[0, 0]
    full = torch.zeros_like(computed)
    for row, (count, indices) in enumerate(zip(block.full_kv_num_blocks[0, 0], block.full_kv_indices[0, 0])):
        full[row, indices[:count]] = 1
    got = blocks(keep)
    assert [[c != "e" for c in line] for line in got] == computed[: len(got), : len(got[0])].bool().tolist()
    assert [[c == "f" for c in line] for line in got] == full[: len(got), : len(got[0])].bool().tolist()


@settings(max_examples=200, deadline=None, derandomize=True)
@given(masks())
def test_weights_of_equal_scores_are_what_softmax_gives(keep):
    scores = torch.zeros(len(keep), len(keep[0]), dtype=torch.float64).masked_fill(~torch.tensor(keep), -torch.inf)
    soft = scores.softmax(-1)
    for row, shown, probabilities in zip(keep, weights(keep), soft):
        if any(row):
            assert all(abs(p - float(Fraction(shown))) < 1e-12 for p, kept in zip(probabilities.tolist(), row) if kept)
        else:
            assert shown == "nan" and probabilities.isnan().all()


def test_each_pattern_lists_its_parameter_sets_once_and_drops_the_meaningless():
    causal = next(p for p in PATTERNS if p.key == "causal")
    sets = causal.combinations()
    assert all(c["L_Q"] <= c["L_K"] for c in sets) and len(sets) == len({tuple(c.values()) for c in sets})
    assert {"L_Q": 8, "L_K": 8, "align": 1} in sets and {"L_Q": 8, "L_K": 4, "align": 0} not in sets


def test_a_page_missing_a_word_is_told_which():
    with pytest.raises(ValueError, match=r"the explorer's words lack params: L, params: L_K, .*patterns: causal, .*ui: caption"):
        explorer(lambda s, e: [[True]], {"patterns": {}, "params": {}, "values": {}, "ui": {}})
