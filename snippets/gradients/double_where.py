import torch

torch.set_printoptions(precision=4)

# sqrt is safe only for x > 0: where(ok, sqrt(x), 0), then the same with a safe input
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
ok = x > 0
torch.where(ok, torch.sqrt(x), 0.0).sum().backward()
sqrt_once = x.grad.tolist()  # the branch not taken sends 0 * NaN, 0 * inf back
x.grad = None
safe_x = torch.where(ok, x, 1.0)  # before sqrt: no NaN, no inf, even unselected
torch.where(ok, torch.sqrt(safe_x), 0.0).sum().backward()
sqrt_twice = x.grad.tolist()
print("one where :", sqrt_once, "\ntwo wheres:", sqrt_twice)

# the same rule around the softmax of rows with no key (mask added: S + M)
torch.manual_seed(0)
L, d = 3, 4
q0, k0, v0 = torch.randn(L, d), torch.randn(L, d), torch.randn(L, d)
M = torch.zeros(L, L)
M[1] = -torch.inf  # query 1 may see no key at all
empty = torch.isneginf(M).all(dim=-1, keepdim=True)
inner = [lambda z: z, lambda z: torch.where(empty, 0.0, z)]  # [without, with] where
outer = [lambda w: w, lambda w: torch.where(empty, 0.0, w)]
row, nans, dv = {}, {}, {}
for name, (i, o) in {"none": (0, 0), "after only": (0, 1), "before only": (1, 0),
                     "before and after": (1, 1)}.items():
    q, k, v = (t.clone().requires_grad_() for t in (q0, k0, v0))
    out = outer[o](torch.softmax(inner[i](q @ k.T / d**0.5 + M), dim=-1)) @ v
    out.sum().backward()
    row[name], dv[name] = out[1].detach(), v.grad
    nans[name] = [int(t.grad.isnan().sum()) for t in (q, k, v)]
    print(f"{name:>16}: row 1 = {row[name]}, NaN in dq, dk, dv = {nans[name]}")
uniform = torch.allclose(row["before only"], v0.mean(0))  # 1/L_K each
moved = not torch.equal(dv["before only"], dv["before and after"])  # row 1 reaches v
print("before only: row 1 = mean of v:", uniform, "| it changes dv:", moved)
