import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch


def make_dot_product_tensor(length, dim):  # A @ B^T, entries of A and B ~ U(-3, 3)
    a = torch.empty(length, dim).uniform_(-3, 3)
    b = torch.empty(length, dim).uniform_(-3, 3)
    return a @ b.T  # (length, length): every row of A against every row of B


# --- demo ---
plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True
torch.manual_seed(0)
length, big_dim, small_dim = 30, 1024, 10
big = make_dot_product_tensor(length, big_dim)
small = make_dot_product_tensor(length, small_dim)
scores = {
    "1) S (d=1024)": big,  # S = A @ B^T, the scores
    "2) S/√1024": big / big_dim**0.5,  # sqrt(1024) = 32
    "3) S (d=10)": small,
    "4) S/√10": small / small_dim**0.5,
}
names = list(scores)
titles = [r"1) $S$ ($d=1024$)", r"2) $S/\sqrt{1024}$", r"3) $S$ ($d=10$)",
          r"4) $S/\sqrt{10}$"]  # mathtext: NanumGothic draws a poor √
lows = torch.stack([s.min() for s in scores.values()])
highs = torch.stack([s.max() for s in scores.values()])
for name, low, high in zip(names, lows, highs):
    print(f"{name}: min {low:9.3f}, max {high:9.3f}")

fig, axes = plt.subplots(2, 2, figsize=(6.6, 6.4), layout="constrained")
for ax, title, s in zip(axes.flat, titles, scores.values()):
    image = ax.imshow(torch.softmax(s, dim=-1).numpy(), cmap="cividis", vmin=0, vmax=1)
    ax.set_title(title, fontsize=11)
    ax.set_xlabel("$j$")  # key j: a column
    ax.set_ylabel("$i$")  # query i: a row
fig.colorbar(image, ax=axes, shrink=0.8, label="$p_{ij}$")  # the attention weights
plt.show()
