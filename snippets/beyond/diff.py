import torch


def diff_weights(q1, k1, q2, k2, lam, keep=None):
    """Differential attention's weights: softmax(q1 k1^T / sqrt d) minus lam times
    softmax(q2 k2^T / sqrt d); one bool mask (True = keep) on both, before each softmax.
    Rows sum to 1 - lam; a masked key gets 0 - lam * 0 = 0; a weight may be < 0."""
    if q1.dim() < 2 or q1.shape != q2.shape or k1.shape != k2.shape \
            or q1.shape[-1] != k1.shape[-1]:
        raise ValueError(f"want q1, q2 (..., L_Q, d) and k1, k2 (..., L_K, d): "
                         f"{q1.shape}, {k1.shape}, {q2.shape}, {k2.shape}")
    maps = []
    for q, k in ((q1, k1), (q2, k2)):
        s = q @ k.mT / q.shape[-1] ** 0.5
        if keep is not None:
            if keep.dtype != torch.bool or not keep.any(-1).all():
                raise ValueError("keep must be bool with a key in every row")
            s = s.masked_fill(~keep, -torch.inf)
        maps.append(s.softmax(-1))
    return maps[0] - lam * maps[1]


# --- demo: 1 head, 6 tokens, causal; lam = 0.8, lam_init's limit in deep layers ---
torch.manual_seed(0)
q1, k1, q2, k2 = torch.randn(4, 6, 8).unbind()
keep = torch.ones(6, 6, dtype=torch.bool).tril()
lam = 0.8
w = diff_weights(q1, k1, q2, k2, lam, keep)
for row, kept in zip(w, keep):  # the mask as text, and the negative weights per row
    print("".join("■" if m else "⬚" for m in kept), "negative:", int((row < 0).sum()))
negative, visible = int((w < 0).sum()), int(keep.sum())
zeros = bool((w[~keep] == 0).all())
sums_gap = (w.sum(-1) - (1 - lam)).abs().max().item()
print(f"rows sum to 1 - lam (< 1e-6): {sums_gap < 1e-6}, masked keys 0: {zeros}")
print(f"negative weights: {negative} of {visible} visible")
