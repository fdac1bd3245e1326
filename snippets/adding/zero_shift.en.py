import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

S_real = torch.tensor([[2.0, 0.0, -1.0], [0.5, 1.0, -0.5], [-1.0, -2.5, -0.5]])
n_pad = 2  # two [PAD] keys, whose scores multiplied by 0 are 0
shifts = torch.arange(-40, 41) / 10  # add c = -4.0 ... 4.0 to every real score
# share of [PAD] after x0: n_pad * e^0 / (n_pad * e^0 + sum of e^(s + c))
real = torch.exp(S_real[None] + shifts[:, None, None]).sum(dim=-1)
share = n_pad / (n_pad + real)  # (shifts, rows)
at = {c: share[shifts == c][0] for c in (-2.0, 0.0, 2.0)}
for c, s in at.items():
    print(f"[PAD] share at c = {c:+.0f}:", [round(x, 4) for x in s.tolist()])

fig, ax = plt.subplots(figsize=(6, 3.8))
styles = [("#0072B2", "-", "o"), ("#D55E00", "--", "s"), ("#009E73", ":", "^")]
for row, name, (color, ls, marker) in zip(share.T, ["I", "go", "home"], styles):
    ax.plot(shifts, row, color=color, ls=ls, marker=marker, markevery=10,
            label=f"row '{name}' (multiply by 0)")
ax.axhline(0, color="#000000", lw=1.5, label="add −∞ (always 0)")
ax.set_xlabel("c, added to every real token's score")
ax.set_ylabel("total weight on the two [PAD] keys")
ax.set_title("Multiplied by 0, the [PAD] share depends on the score level")
ax.set_ylim(-0.03, 1.0)
ax.legend(fontsize=9)
plt.tight_layout()
plt.show()
