import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap


def window_mask(length, window, sinks=0):
    """keep[i, j]: query i sees key j when j <= i and j is one of the last `window`
    positions up to i (i itself too) or one of the first `sinks`."""
    if min(length, window, sinks) < 0 or window < 1:
        raise ValueError("want window >= 1, length and sinks >= 0; got "
                         f"{length=}, {window=}, {sinks=}")
    i, j = torch.arange(length)[:, None], torch.arange(length)[None]
    return (j <= i) & ((i - j < window) | (j < sinks))


# --- demo: 10 tokens, a window of 4 and 2 sinks ---
L, W, S = 10, 4, 2
keep = window_mask(L, W, S)
seen = keep.sum(-1).tolist()  # keys each query sees
first_gap = min(i for i in range(L) if seen[i] < i + 1)  # a key unseen before it
rows = ["".join("■" if x else "⬚" for x in row) for row in keep.tolist()]
print(*rows, sep="\n")  # the text twin: ■ seen

fig, ax = plt.subplots(figsize=(4.4, 4.2))
ax.imshow(keep.numpy(), cmap=ListedColormap(["#d9d9d9", "#00695c"]))  # grey, teal
ax.set_xticks(range(L))
ax.set_yticks(range(L))
ax.xaxis.tick_top()
ax.set_xlabel("j")
ax.xaxis.set_label_position("top")
ax.set_ylabel("i")
plt.tight_layout()
plt.show()
