import torch


def attention(q, k, v, causal):
    if not isinstance(causal, bool):  # "False" or a tensor would be read as truthy
        raise TypeError(f"causal must be True or False, got {causal!r}")
    scores = q @ k.T / q.shape[-1] ** 0.5
    if causal:
        mask = torch.tril(torch.ones(len(q), len(k)))
        scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


# --- demo ---
torch.manual_seed(0)
T, d = 6, 8
q, k, v = torch.randn(T, d), torch.randn(T, d), torch.randn(T, d)

once = attention(q, k, v, causal=True)  # all T positions in one pass
# each position on its own, seeing positions 0..t only: what generation does later
prefix = torch.stack([
    attention(q[: t + 1], k[: t + 1], v[: t + 1], causal=False)[-1] for t in range(T)
])
unmasked = attention(q, k, v, causal=False)  # every position sees the whole sentence

print("one masked pass == T prefix passes:", torch.allclose(once, prefix))
rows_differ = (unmasked - prefix).abs().amax(dim=-1) > 1e-6
print("rows that differ without the mask:", rows_differ.tolist())
