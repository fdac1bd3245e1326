import torch


def gated_attention(q, k, v, gate, mask=None):
    """Attention whose output is scaled by sigmoid(gate), element by element, as in
    Qwen3-Next; gate (..., L_Q, d_v) comes from each token's hidden state. mask: bool,
    True = keep; a row with no key gives 0 (as the fused kernels do), and 0 stays 0."""
    want = (*q.shape[:-1], v.shape[-1])
    if gate.shape != want:
        raise ValueError(f"gate must be (..., L_Q, d_v) = {want}, got {gate.shape}")
    scores = q @ k.mT / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, -torch.inf)
    out = scores.softmax(-1).nan_to_num() @ v  # a row with no key: nan -> 0
    return out * torch.sigmoid(gate)  # after the softmax: the weights are untouched


# --- demo: 2 heads, 4 queries, 5 keys; query 3 sees no key; a sink as a gate ---
torch.manual_seed(0)
q, k, v, gate = torch.randn(2, 4, 8), torch.randn(2, 5, 8), *torch.randn(2, 2, 5, 8)
gate = gate[:, :4]  # one gate logit per query and channel
sink = torch.tensor([[0.5], [-1.0]])  # a sink logit per head, as in sink.py
keep = torch.ones(4, 5, dtype=torch.bool).tril(1)
keep[3] = False
gated = gated_attention(q, k, v, gate, keep)
scores = (q @ k.mT / 8**0.5).masked_fill(~keep, -torch.inf)
plain = scores.softmax(-1).nan_to_num() @ v
both = torch.cat([scores, sink.expand(2, 4)[..., None]], -1)  # the sink as a key
with_sink = both.softmax(-1)[..., :-1] @ v  # attention_with_sink, sink.py
factor = torch.sigmoid(scores.logsumexp(-1) - sink)[..., None]  # sigmoid(lse - s)
gap = (with_sink - factor * plain).abs().max().item()
print(f"gated row 3 all 0: {bool((gated[:, 3] == 0).all())}")
print(f"sink = sigmoid(lse - s) * attention, gap < 1e-6: {gap < 1e-6}")
