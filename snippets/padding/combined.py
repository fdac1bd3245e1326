import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

sentences = ["봄이 왔다", "나는 매일 공원을 천천히 걷는다", "고양이가 창가에서 잔다"]
tokens = [s.split() for s in sentences]
lengths = torch.tensor([len(t) for t in tokens])
L = int(lengths.max())
pad_keep = torch.arange(L) < lengths[:, None]  # (B, L): True = real token
causal_keep = torch.tril(torch.ones(L, L, dtype=torch.bool))  # (L_Q, L_K)
keep = causal_keep & pad_keep[:, None, :]  # (B, L_Q, L_K): both must allow

inf = float("-inf")
additive = (torch.zeros(L, L).masked_fill(~causal_keep, inf)  # (L_Q, L_K)
            + torch.zeros(lengths.shape[0], 1, L).masked_fill(~pad_keep[:, None], inf))
print("and of keep-masks == sum of additive masks:", torch.equal(keep, additive == 0))
print("seen per sentence:", keep.sum(dim=(1, 2)).tolist())
rows = [["".join("■" if x else "⬚" for x in row) for row in grid]
        for grid in keep.tolist()]  # the text twin: ■ seen
print(*("\n".join(grid) for grid in rows), sep="\n\n")

fig, axes = plt.subplots(1, 3, figsize=(7.2, 2.8), layout="constrained")
for b, (ax, words, grid) in enumerate(zip(axes, tokens, keep)):
    labels = words + ["[PAD]"] * (L - len(words))
    ax.imshow(grid.numpy(), cmap=ListedColormap(["#d9d9d9", "#00695c"]), vmin=0, vmax=1)
    for i in range(L):
        for j in range(L):
            ax.text(j, i, "참여" if grid[i, j] else "가림", ha="center", va="center",
                    fontsize=8, color="white" if grid[i, j] else "#333333")
    ax.set_xticks(range(L), labels, rotation=45, ha="left", fontsize=8)
    ax.set_yticks(range(L), labels, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_xlabel(f"문장 {b + 1} · 길이 {len(words)}", fontsize=9)
axes[0].set_ylabel("쿼리 (줄)")
fig.suptitle("키 (열)", fontsize=9)
plt.show()
