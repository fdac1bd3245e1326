import torch


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
q, k, v = S[None], 2 * torch.eye(4)[None], torch.eye(4)[None]  # scores S, out = weights
mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True)
mha.load_state_dict({"in_proj_weight": torch.eye(4).repeat(3, 1),  # identity maps
                     "out_proj.weight": torch.eye(4)})
kpm = lambda m: torch.cat([mha(q[:, [i]], k, v, key_padding_mask=m[[i]])[1][0]
                           for i in range(3)])  # one query a call, its own key row
run = lambda m, weights=True: mha(q, k, v, attn_mask=m, need_weights=weights)
rows = [("MHA `attn_mask`", *read_api(lambda m: run(m)[1][0], S, keep)),
        ("MHA `need_weights=False`", *read_api(lambda m: run(m, False)[0][0], S, keep)),
        ("MHA `key_padding_mask`", *read_api(kpm, S, keep))]
api, polarity, kinds, floats, fully = zip(*rows)
causal, fill16, version = ("—",) * 3, ("-inf",) * 3, torch.__version__
print(*(" | ".join(r) for r in rows), "torch " + version, sep="\n")
