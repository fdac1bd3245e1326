import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

torch.manual_seed(0)
length, trials = 30, 16  # 16 score matrices of 30 x 30 per d_k
dims = [4, 16, 64, 256, 1024, 4096]
divisors = {"none": lambda d: 1, "sqrt(d)": lambda d: d**0.5, "d": lambda d: d}
labels = ["not divided", r"divided by $\sqrt{d_k}$", r"divided by $d_k$"]
entropy = {name: [] for name in divisors}  # mean entropy of a row, in nats
top = {name: [] for name in divisors}  # mean largest weight of a row
for d in dims:
    a, b = (torch.empty(trials, length, d).uniform_(-3, 3) for _ in range(2))
    s = a @ b.transpose(-2, -1)
    for name, divisor in divisors.items():
        p = torch.softmax(s / divisor(d), dim=-1)
        entropy[name].append(-torch.special.xlogy(p, p).sum(dim=-1).mean().item())
        top[name].append(p.amax(dim=-1).mean().item())
for name in divisors:
    print(f"divide by {name:7}: entropy        {[round(x, 3) for x in entropy[name]]}")
    print(f"{'':19}largest weight {[round(x, 3) for x in top[name]]}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(7, 3.6), layout="constrained")
styles = [("#D55E00", "-", "o"), ("#0072B2", "--", "s"), ("#009E73", ":", "^")]
for name, label, (color, line, marker) in zip(divisors, labels, styles):
    ax1.plot(dims, entropy[name], color=color, ls=line, marker=marker, label=label)
    ax2.plot(dims, top[name], color=color, ls=line, marker=marker)
ax1.axhline(torch.log(torch.tensor(length)), color="#000000", lw=0.8, ls="-.")
ax1.set(ylabel="mean row entropy (nats)", title=r"Entropy (dash-dot: max $\log 30$)")
ax2.set(ylabel="mean largest weight per row", title="Largest weight", ylim=(0, 1.05))
for ax in (ax1, ax2):
    ax.set_xscale("log", base=2)
    ax.set_xticks(dims, [str(d) for d in dims])
    ax.set_xlabel(r"$d_k$ (log scale)")
fig.legend(loc="outside lower center", ncol=3, fontsize=9,
           handlelength=1.5, columnspacing=1.2)  # short: it fits a phone
plt.show()
