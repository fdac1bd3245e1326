"""The tree-attention chapter's functions, on random trees the page does not show.

`ancestor_mask` and `tree_depths` (snippets/trees/mask.py) must agree with a slow walk up the parents;
`tree_attention_mask` (snippets/trees/cache_mask.py) must see the whole cache plus the ancestor mask, be
the bottom-right causal mask on a chain, and make one pass of dense attention over the tree equal to
attention over each root-to-node branch alone; `accepted_path` and `longest_accepted`
(snippets/trees/accept.py) must follow the parents and the target's tokens; `tree_mask_mod`
(snippets/trees/flex.py) must expand to the same mask. Bad input is refused with the message named.

Random trees: parents[i] drawn from -1..i-1, so parents come before children, as the functions require.
Tolerance: float64, 1e-12 (the one pass and the branch add the same terms in another order).
"""

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn.attention.flex_attention import create_mask

import project

ancestor_mask = project.function("trees/mask.py", "ancestor_mask")
tree_depths = project.function("trees/mask.py", "tree_depths")
tree_attention_mask = project.function("trees/cache_mask.py", "tree_attention_mask")
accepted_path = project.function("trees/accept.py", "accepted_path")
longest_accepted = project.function("trees/accept.py", "longest_accepted")
tree_mask_mod = project.function("trees/flex.py", "tree_mask_mod")

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)


@st.composite
def trees(draw, max_nodes=12):
    n = draw(st.integers(1, max_nodes))
    return [draw(st.integers(-1, i - 1)) for i in range(n)]


def slow_ancestors(parents, i):
    """Node i and every node met walking up its parents."""
    seen = {i}
    while parents[i] != -1:
        i = parents[i]
        seen.add(i)
    return seen


@SETTINGS
@given(trees())
def test_ancestor_mask_and_depths_follow_the_parents(parents):
    keep, depth = ancestor_mask(parents), tree_depths(parents)
    n = len(parents)
    assert keep.dtype == torch.bool and keep.shape == (n, n)
    for i in range(n):
        assert set(keep[i].nonzero().flatten().tolist()) == slow_ancestors(parents, i)
        assert int(depth[i]) == len(slow_ancestors(parents, i)) - 1
        assert accepted_path(parents, i) == sorted(slow_ancestors(parents, i))
    assert torch.equal(ancestor_mask(torch.tensor(parents)), keep)  # a tensor of parents too


@SETTINGS
@given(trees(), st.integers(0, 6))
def test_tree_attention_mask_is_the_cache_then_the_ancestors(parents, cache_len):
    mask = tree_attention_mask(parents, cache_len)
    assert mask.shape == (len(parents), cache_len + len(parents))
    assert mask[:, :cache_len].all() and torch.equal(mask[:, cache_len:], ancestor_mask(parents))
    dense = create_mask(tree_mask_mod(parents, cache_len), 1, 1, len(parents), cache_len + len(parents),
                        device="cpu")
    assert torch.equal(dense[0, 0], mask)


@SETTINGS
@given(st.integers(1, 12), st.integers(0, 6))
def test_a_chain_is_the_bottom_right_causal_mask(n, cache_len):
    chain = list(range(-1, n - 1))
    causal = torch.ones(n, cache_len + n, dtype=torch.bool).tril(cache_len)
    assert torch.equal(tree_attention_mask(chain, cache_len), causal)
    assert tree_depths(chain).tolist() == list(range(n))


@SETTINGS
@given(trees(), st.integers(0, 6), st.integers(0, 2**16))
def test_one_pass_over_the_tree_equals_attention_over_each_branch(parents, cache_len, seed):
    g = torch.Generator().manual_seed(seed)
    n, d = len(parents), 4
    q = torch.randn(n, d, generator=g, dtype=torch.float64)
    k, v = torch.randn(2, cache_len + n, d, generator=g, dtype=torch.float64)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=tree_attention_mask(parents, cache_len))
    for i in range(n):
        rows = list(range(cache_len)) + [cache_len + j for j in accepted_path(parents, i)]
        # the branch alone: its tokens after the cache, node i the last of them
        alone = F.scaled_dot_product_attention(q[i:i + 1], k[rows], v[rows])
        torch.testing.assert_close(out[i:i + 1], alone, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(trees(), st.data())
def test_longest_accepted_is_the_deepest_agreeing_path(parents, data):
    vocab = st.integers(0, 2)  # few tokens, so that many nodes agree
    draft = data.draw(st.lists(vocab, min_size=len(parents), max_size=len(parents)))
    target = data.draw(st.lists(vocab, min_size=len(parents) + 1, max_size=len(parents) + 1))
    node = longest_accepted(parents, draft, target)
    agrees = [all(draft[j] == target[parents[j] + 1] for j in accepted_path(parents, i))
              for i in range(len(parents))]
    if node == -1:
        assert not any(agrees)
    else:
        assert agrees[node]
        depth = tree_depths(parents)
        assert int(depth[node]) == max(int(depth[i]) for i in range(len(parents)) if agrees[i])


@pytest.mark.parametrize("function", [ancestor_mask, tree_depths, lambda p: tree_attention_mask(p, 2)])
@pytest.mark.parametrize("parents, error, match", [
    ([], ValueError, r"a tree needs at least one node, got parents = \[\]"),
    ([-1, 1], ValueError, r"parents\[1\] = 1: a parent must come before its child"),
    ([-1, 2, 0], ValueError, r"parents\[1\] = 2: a parent must come before its child"),
    ([-1, -2], ValueError, r"parents\[1\] = -2 is not"),
    ([-1, 5], ValueError, r"parents\[1\] = 5 is not"),
])
def test_bad_parents_are_refused(function, parents, error, match):
    with pytest.raises(error, match=match):
        function(parents)


def test_bad_types_and_cache_lengths_are_refused():
    with pytest.raises(TypeError, match=r"parents\[1\] must be an int, got float"):
        ancestor_mask([-1, 0.0])
    for cache_len in (-1, 1.5, True, None):
        with pytest.raises(ValueError, match=r"cache_len must be an int >= 0, got"):
            tree_attention_mask([-1, 0], cache_len)
    with pytest.raises(ValueError, match=r"cache_len must be >= 0, got -1"):
        tree_mask_mod([-1, 0], -1)
    with pytest.raises(ValueError, match=r"parents\[1\] = 1: want -1 or a node before 1"):
        tree_mask_mod([-1, 1], 0)


def test_accepted_path_refuses_bad_nodes_and_orders():
    for node in (-1, 3, 1.0, True):
        with pytest.raises(ValueError, match=r"node must be an index in 0..2, got"):
            accepted_path([-1, 0, 1], node)
    with pytest.raises(ValueError, match=r"parents\[1\] = 2: a parent must come before its child, or be -1"):
        accepted_path([-1, 2, 0], 1)
    with pytest.raises(ValueError, match=r"want len\(draft\) == len\(parents\) == len\(target\) - 1, got 2, 2, 2"):
        longest_accepted([-1, 0], [1, 2], [1, 2])
