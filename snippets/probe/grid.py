import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap


@torch.no_grad()
def dependence(model, ids, tol=1e-6):
    """moved[j, i]: output i moved by more than tol when token j was replaced (by 0;
    by 1 where it was 0). model: ids (1, L) -> (1, L, ...), as first_leak takes."""
    if ids.dim() != 2 or ids.shape[0] != 1 or ids.shape[1] < 2 or not tol > 0:
        raise ValueError(f"need ids (1, L >= 2), tol > 0; got {list(ids.shape)}, {tol}")
    L, base = ids.shape[1], model(ids)
    moved = torch.zeros(L, L, dtype=torch.bool)
    for j in range(L):
        other = ids.clone()
        other[0, j] = int(ids[0, j] == 0)
        moved[j] = ~((model(other) - base).abs().reshape(L, -1).amax(-1) <= tol)
    return moved


# --- demo: one attention layer over 6 tokens, with and without its causal mask ---
torch.manual_seed(0)
emb = torch.nn.Embedding(16, 8)
mha = torch.nn.MultiheadAttention(8, 2, batch_first=True)
hide = torch.ones(6, 6).triu(1).bool()  # True: hidden (nn.MultiheadAttention's rule)
ids = torch.randint(1, 16, (1, 6))
grids = {"causal": dependence(lambda x: mha(*[emb(x)] * 3, attn_mask=hide)[0], ids),
         "no mask": dependence(lambda x: mha(*[emb(x)] * 3)[0], ids)}
rows = [["".join("■" if m else "⬚" for m in row) for row in moved.tolist()]
        for moved in grids.values()]  # the text twins: ■ moved
fig, axes = plt.subplots(1, 2, figsize=(7, 3.4))
for ax, (name, moved), twin in zip(axes, grids.items(), rows):
    print(name, *twin, sep="\n")
    ax.imshow(moved.numpy(), cmap=ListedColormap(["#d9d9d9", "#b3261e"]),  # grey, red
              vmin=0, vmax=1)
    ax.set(title=name, xlabel="i", ylabel="j", xticks=range(6), yticks=range(6))
plt.tight_layout()
plt.show()
