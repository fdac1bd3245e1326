import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

z = torch.tensor([2.0, 1.0, 0.5, -1.0])
taus = [0.05, 0.2, 0.5, 1.0, 2.0, 5.0, 100.0]
p = torch.stack([torch.softmax(z / tau, dim=-1) for tau in taus])
entropy = -torch.special.xlogy(p, p).sum(dim=-1)  # 0 for one-hot, log(4) for uniform
torch.set_printoptions(precision=4, sci_mode=False)
for tau, row, h in zip(taus, p, entropy):
    print(f"tau = {tau:6.2f}:", row, f"entropy = {h:.4f}")
ties = torch.softmax(torch.tensor([1.0, 1.0, 0.0]) / 0.01, dim=-1)  # two maxima share
print("tied maxima, tau = 0.01:", ties)

grid = torch.logspace(-2, 2.3, 200)  # tau from 0.01 to 200
curves = torch.softmax(z / grid[:, None], dim=-1)
fig, ax = plt.subplots(figsize=(6.4, 4.0))
styles = [("#0072B2", "-", "o"), ("#D55E00", "--", "s"),
          ("#009E73", "-.", "^"), ("#CC79A7", ":", "D")]
for i, (color, line, marker) in enumerate(styles):
    ax.plot(grid, curves[:, i], color=color, linestyle=line, marker=marker,
            markevery=20, label=rf"$z_{i + 1} = {z[i]:g}$")
ax.axhline(1 / len(z), color="#000000", linewidth=0.8, linestyle=(0, (1, 3)),
           label=rf"$1/{len(z)}$")
ax.set_xscale("log")
ax.set_xticks([0.01, 0.1, 1, 10, 100], ["0.01", "0.1", "1", "10", "100"])
ax.set_xlabel(r"$\tau$")
ax.set_ylabel(r"$\mathrm{softmax}(z / \tau)_i$")
ax.legend()
plt.tight_layout()
plt.show()
