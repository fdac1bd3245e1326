import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

torch.manual_seed(0)
x = torch.randn(24) * 1.5 + torch.linspace(0, 3, 24)  # scores that drift upward
block = 4
ends, ms, ls = [], [], []
m, l = torch.tensor(-torch.inf), torch.tensor(0.0)
for start in range(0, len(x), block):
    xb = x[start:start + block]
    m_new = torch.maximum(m, xb.max())
    l = l * torch.exp(m - m_new) + torch.exp(xb - m_new).sum()  # rescale, then add
    m = m_new
    ends.append(start + block)
    ms.append(m.item())
    ls.append(l.item())
jumps = sum(b > a for a, b in zip(ms, ms[1:]))  # blocks that raised the max
print(f"m: {[round(v, 3) for v in ms]}\nl: {[round(v, 3) for v in ls]}")

fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 5.0), sharex=True)
top.plot(range(1, len(x) + 1), x, "o", color="#999999", markersize=4, label=r"$x_j$")
top.hlines(ms, [e - block + 0.5 for e in ends], [e + 0.5 for e in ends],
           color="#0072B2", label=r"$m_t$")
top.set_ylabel(r"$x_j$")
top.legend(loc="upper left")
bottom.plot(ends, ls, "s-", color="#D55E00", label=r"$l_t$")
bottom.set_ylabel(r"$l_t$")
bottom.set_xlabel(r"$j$")
bottom.legend(loc="upper left")
for edge in ends[:-1]:
    for ax in (top, bottom):
        ax.axvline(edge + 0.5, color="#dddddd", linewidth=0.8, zorder=0)
plt.tight_layout()
plt.show()
