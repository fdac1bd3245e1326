import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right as lower_right


def read_api(api, s, keep):
    """api(mask) -> weights like s: kinds it runs, True, floats, the last row."""
    if s.dim() != 2 or keep.dtype != torch.bool or s.shape != keep.shape:
        raise ValueError(f"need 2-D scores, bool keep alike: {s.shape}, {keep.dtype}")
    out, sm = {}, lambda m: torch.softmax(s.masked_fill(~m, -torch.inf), -1)[:-1]
    for kind, m in {"bool": keep, "int": keep.int(), "float": keep.float()}.items():
        try:
            out[kind] = api(m).float()
        except (RuntimeError, AssertionError, ValueError):
            pass
    same = lambda w, ref: w is not None and torch.allclose(w[:-1], ref, atol=1e-3)
    flip, f = same(out["bool"], sm(~keep)), out.get("float")
    added = same(f, torch.softmax(s + keep.float(), -1)[:-1])
    floats = "added" if added else "read as bool" if same(f, sm(keep)) else "refused"
    w = api(~keep if flip else keep).float()[-1]
    rows = {"nan": w.isnan(), "0": w == 0, "uniform": (w - 1 / len(w)).abs() < 1e-3,
            "as if unmasked": (w - torch.softmax(s[-1], -1)).abs() < 1e-3}
    return ("True = " + ("masked" if flip else "attend"), "/".join(out), floats,
            next((r for r, hit in rows.items() if hit.all()), "?"))


# --- demo ---
S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
keep = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()  # row 3: no key
q, k, v = S[None, None], 2 * torch.eye(4), torch.eye(4)  # q k^T / 2 = S, out = weights
sdpa = lambda m, n=3, **kw: F.scaled_dot_product_attention(q[:, :, :n], k, v, m, **kw)
corner = lambda w: next(c for c, d in (("top-left", 0), ("bottom-right", 2))  # tril(d)
                        if w[0, 0].ne(0).equal(torch.ones(2, 4).bool().tril(d)))
masked_fill = lambda m: torch.softmax(S.masked_fill(m, -torch.inf), -1)
rows = [("`masked_fill(m, -inf)`", *read_api(masked_fill, S, keep), "—", "your choice"),
        ("SDPA `attn_mask`", *read_api(lambda m: sdpa(m)[0, 0], S, keep), "—", "-inf"),
        ("SDPA `is_causal=True`", *"————", corner(sdpa(None, 2, is_causal=True)), "—"),
        ("SDPA `causal_lower_right`", *"————", corner(sdpa(lower_right(2, 4), 2)), "—")]
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*(" | ".join(r) for r in rows), "torch", version := torch.__version__, sep="\n")
