import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

z = torch.tensor([2.0, 1.0, 0.5, -1.0])  # the same four scores in every frame
n = len(z)  # the dotted line: 1 / n, where every cell would be even
taus = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 20.0]
cells = ["first cell", "second cell", "third cell", "fourth cell"]
for tau in taus:  # one figure per temperature: the page's slider moves among them
    p = torch.softmax(z / tau, dim=-1)
    print(f"tau = {tau:5.2f}:", [round(x, 4) for x in p.tolist()])
    fig, ax = plt.subplots(figsize=(5.2, 3.2))
    bars = ax.bar(cells, p.numpy(), color="#00695c")
    ax.bar_label(bars, fmt="%.3f", padding=2)
    ax.axhline(1 / n, color="#000000", linewidth=0.8, linestyle=(0, (1, 3)))
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("softmax(z / τ)")
    ax.set_title(f"Temperature τ = {tau:g}")
    plt.tight_layout()
    plt.show()
