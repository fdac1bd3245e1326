import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

chars = list("고요한모닥불")
T = len(chars)
visible = torch.tril(torch.ones(T, T, dtype=torch.bool))  # row: now, column: seen
rows = ["".join("■" if x else "⬚" for x in row) for row in visible.tolist()]
for char, row in zip(chars, rows):
    print(char, row)  # the text twin: ■ may be seen, ⬚ masked

fig, ax = plt.subplots(figsize=(4.8, 4.4))
ax.imshow(visible.numpy(), cmap=ListedColormap(["#d9d9d9", "#00695c"]))  # grey, teal
for i in range(T):
    for j in range(T):
        seen = bool(visible[i, j])
        ax.text(j, i, int(seen), ha="center", va="center",
                color="white" if seen else "#333333", fontsize=11)
ax.set_xticks(range(T), chars)
ax.set_yticks(range(T), chars)
ax.xaxis.tick_top()
plt.tight_layout()
plt.show()
