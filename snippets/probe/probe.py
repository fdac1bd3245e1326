import torch


@torch.no_grad()
def first_leak(model, ids, tol=1e-6, last_only=False):
    """(i, j): the first output i < j that moved by more than tol when token j was
    replaced (by 0; by 1 where it was 0), or None. model: ids (1, L) -> (1, L, ...)."""
    if ids.dim() != 2 or ids.shape[0] != 1 or ids.shape[1] < 2 or not tol > 0:
        raise ValueError(f"need ids (1, L >= 2), tol > 0; got {list(ids.shape)}, {tol}")
    L, leaks, base = ids.shape[1], [], model(ids)
    if tuple(getattr(base, "shape", ()))[:2] != (1, L) or not (
            base.isfinite().all() and base.equal(model(ids))):
        raise ValueError(f"need finite outputs (1, {L}, ...), equal on a second call")
    for j in [L - 1] if last_only else range(1, L):  # last_only: the cheap check
        other = ids.clone()
        other[0, j] = int(ids[0, j] == 0)
        gap = (model(other) - base).abs().reshape(L, -1).amax(-1)
        leaks += [(i, j) for i in range(j) if not gap[i] <= tol]  # nan: moved
    return min(leaks, default=None)


# --- demo: one attention layer over 6 tokens, with and without its causal mask ---
torch.manual_seed(0)
emb = torch.nn.Embedding(16, 8)
mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
hide = torch.ones(6, 6).triu(1).bool()  # True: hidden (nn.MultiheadAttention's rule)
ids = torch.randint(1, 16, (1, 6))
found = {"causal": first_leak(lambda x: mha(*[emb(x)] * 3, attn_mask=hide)[0], ids),
         "no mask": first_leak(lambda x: mha(*[emb(x)] * 3)[0], ids),
         "no mask, last token only": first_leak(lambda x: mha(*[emb(x)] * 3)[0], ids,
                                                last_only=True)}
for name, leak in found.items():
    print(f"{name}: {leak}")
