import torch


def attention_with_sink(q, k, v, sink, mask=None):
    """Attention with one more term in the softmax's denominator, exp(sink):
    w_j = exp(s_j) / (exp(sink) + sum_k exp(s_k)), s = q k^T / sqrt(d). q (..., L_Q, d);
    k, v (..., L_K, d); sink: finite, broadcasting to (..., L_Q) (per head: (H, 1));
    mask: bool, True = keep. The weights sum to < 1; a row with no key gives 0."""
    if q.dim() < 2 or k.shape[:-1] != v.shape[:-1] or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"want q (..., L_Q, d), k and v (..., L_K, d): {q.shape}, "
                         f"{k.shape}, {v.shape}")
    scores = q @ k.mT / q.shape[-1] ** 0.5
    if mask is not None:
        if mask.dtype != torch.bool:
            raise ValueError(f"mask must be bool (True = keep), got {mask.dtype}")
        scores = scores.masked_fill(~mask, -torch.inf)
    sink = torch.as_tensor(sink, dtype=scores.dtype)
    if not sink.isfinite().all():
        raise ValueError("sink must be finite")
    sink = sink.expand(scores.shape[:-1])[..., None]  # one more key per row...
    weights = torch.cat([scores, sink], -1).softmax(-1)[..., :-1]  # ...dropped after
    return weights @ v  # the sink's value is 0: its share adds nothing


# --- demo: 2 heads, 4 queries, 5 keys; one query sees no key (a padded row) ---
torch.manual_seed(0)
q, k, v = torch.randn(2, 4, 8), torch.randn(2, 5, 8), torch.randn(2, 5, 8)
sink = torch.tensor([[0.5], [-1.0]])  # a learned logit per head
keep = torch.ones(4, 5, dtype=torch.bool).tril(1)
keep[3] = False  # query 3: no key
out = attention_with_sink(q, k, v, sink, keep)
# one-hot values: the output is the weights; sums per head and query
sums = attention_with_sink(q, k, torch.eye(5).expand(2, 5, 5), sink, keep).sum(-1)
scores = (q @ k.mT / 8**0.5).masked_fill(~keep, -torch.inf)
lse = scores.logsumexp(-1)  # the online chapter's merge with a key of value 0:
share = torch.exp(lse - torch.logaddexp(lse, sink.expand_as(lse)))[..., None]
real = scores.softmax(-1).nan_to_num() @ v  # the real keys alone (0 where none)
empty, gap = bool((out[:, 3] == 0).all()), (out - share * real).abs().max().item()
print(f"weights sum < 1: {bool((sums < 1).all())}, row 3 all 0: {empty}")
print(f"no nan: {not out.isnan().any()}, merge gap < 1e-6: {gap < 1e-6}")
