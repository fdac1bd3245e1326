import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]

# the three keep masks (encdec_masks: masks.py) for sources of 4 and 2 tokens, targets
# of 3 and 2, drawn for the second pair (the padded one)
src_lengths, tgt_lengths = [4, 2], [3, 2]
src_keep = torch.arange(4) < torch.tensor(src_lengths)[:, None]  # (2, S)
tgt_keep = torch.arange(3) < torch.tensor(tgt_lengths)[:, None]  # (2, T)
masks = {"인코더 셀프 어텐션": src_keep[:, None, :].expand(-1, 4, -1),
         "디코더 셀프 어텐션": torch.ones(3, 3, dtype=torch.bool).tril()
         & tgt_keep[:, None, :],
         "크로스 어텐션": src_keep[:, None, :].expand(-1, 3, -1)}
axes_labels = {"인코더 셀프 어텐션": ("소스 키", "소스 쿼리"),
               "디코더 셀프 어텐션": ("타깃 키", "타깃 쿼리"),
               "크로스 어텐션": ("소스 키", "타깃 쿼리")}
print({name: keep.sum((1, 2)).tolist() for name, keep in masks.items()})  # kept cells
rows = [["".join("■" if x else "⬚" for x in row) for row in keep[1].tolist()]
        for keep in masks.values()]  # the text twins of the figure (pair 1): ■ seen
cmap = ListedColormap(["#d9d9d9", "#00695c"])  # grey: masked, teal: kept
fig, axes = plt.subplots(1, 3, figsize=(8, 3))
for ax, (name, keep) in zip(axes, masks.items()):
    ax.imshow(keep[1].numpy(), cmap=cmap, vmin=0, vmax=1)
    ax.set_xticks(range(keep.shape[2]))
    ax.set_yticks(range(keep.shape[1]))
    ax.set_title(f"{name}, 쌍 1", fontsize=10)
    ax.set_xlabel(axes_labels[name][0])
    ax.set_ylabel(axes_labels[name][1])
plt.tight_layout()
plt.show()
