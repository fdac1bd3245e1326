import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

torch.manual_seed(0)
chars = list("고요한모닥불")
T, d_k = len(chars), 16
q, k = torch.randn(T, d_k), torch.randn(T, d_k)  # stand-ins for learned q, k
scores = q @ k.T / d_k**0.5
mask = torch.tril(torch.ones(T, T))
weights = torch.softmax(scores.masked_fill(mask == 0, float("-inf")), dim=-1)
torch.set_printoptions(precision=4, sci_mode=False)
print(weights)
print("row sums:", weights.sum(dim=-1))

fig, ax = plt.subplots(figsize=(5.6, 4.6))
image = ax.imshow(weights.numpy(), cmap="cividis", vmin=0, vmax=1)
for i in range(T):
    for j in range(T):
        w = weights[i, j].item()
        label = f"{w:.2f}" if 0 < w < 1 else f"{w:g}"  # exact 0 and 1 stay exact
        ax.text(j, i, label, ha="center", va="center", fontsize=9,
                color="black" if w > 0.5 else "white")
ax.set_xticks(range(T), chars)
ax.set_yticks(range(T), chars)
ax.xaxis.tick_top()
ax.set_ylabel("current token (row)")
fig.colorbar(image, ax=ax, label="attention weight")
plt.tight_layout()
plt.show()
