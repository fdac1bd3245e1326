import torch

torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = torch.randn(L, d), torch.randn(L, d), torch.randn(L, d)
keep = torch.ones(L, L, dtype=torch.bool)  # True = take part
keep[1] = False  # query 1 may see no key at all
M = torch.zeros(L, L).masked_fill(~keep, -torch.inf)  # the same mask, to add
hide = {"masked_fill": lambda s: s.masked_fill(~keep, -torch.inf),
        "S + M": lambda s: s + M}
after = {"none": lambda w: w, "nan_to_num": torch.nan_to_num,  # after the softmax
         "where(isnan)": lambda w: torch.where(w.isnan(), 0.0, w)}
names, nans = [], {t: [] for t in ("out", "z", "s", "q", "k", "v")}
for hide_name, h in hide.items():
    for after_name, a in after.items():
        q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
        s = q @ k.T / d**0.5  # scores
        z = h(s)  # softmax input
        s.retain_grad(), z.retain_grad()
        out = a(torch.softmax(z, dim=-1)) @ v
        out.sum().backward()  # the loss keeps every row
        names.append(f"{hide_name}, {after_name}")
        for t, x in zip(nans, (out, z.grad, s.grad, q.grad, k.grad, v.grad)):
            nans[t].append(int(x.isnan().sum()))  # NaN entries, per tensor
        print(f"{names[-1]:>25}: NaN in out, dz, ds, dq, dk, dv =",
              [nans[t][-1] for t in nans])
where_nans = {}  # the scores replaced with where instead of masked_fill
for after_name in ("none", "nan_to_num"):
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    z = torch.where(keep, q @ k.T / d**0.5, -torch.inf)
    (after[after_name](torch.softmax(z, dim=-1)) @ v).sum().backward()
    where_nans[after_name] = [int(x.isnan().sum()) for x in (q.grad, k.grad, v.grad)]
    print(f"{'where, ' + after_name:>25}: NaN in dq, dk, dv =", where_nans[after_name])
