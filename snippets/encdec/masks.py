import torch


def encdec_masks(src_lengths, tgt_lengths):
    """Keep masks (True = attend) of an encoder-decoder batch, right-padded to the
    longest source S and target T: "encoder" (B, S, S), source key padding;
    "decoder" (B, T, T), causal and target key padding; "cross" (B, T, S), target
    queries x source keys, source key padding only."""
    for name, lengths in (("src_lengths", src_lengths), ("tgt_lengths", tgt_lengths)):
        if not lengths or any(isinstance(n, bool) or not isinstance(n, int) or n < 1
                              for n in lengths):
            raise ValueError(f"{name} must be a non-empty list of ints >= 1, "
                             f"got {lengths!r}")
    if len(src_lengths) != len(tgt_lengths):
        raise ValueError(f"one source per target: {len(src_lengths)} source lengths, "
                         f"{len(tgt_lengths)} target lengths")
    src_keep = torch.arange(max(src_lengths)) < torch.tensor(src_lengths)[:, None]
    tgt_keep = torch.arange(max(tgt_lengths)) < torch.tensor(tgt_lengths)[:, None]
    T = tgt_keep.shape[1]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    return {"encoder": src_keep[:, None, :].expand(-1, src_keep.shape[1], -1),
            "decoder": causal & tgt_keep[:, None, :],
            "cross": src_keep[:, None, :].expand(-1, T, -1)}


# --- demo: sources of 4 and 2 tokens, targets of 3 and 2 ---
src_lengths, tgt_lengths = [4, 2], [3, 2]
masks = encdec_masks(src_lengths, tgt_lengths)
shapes = {name: tuple(keep.shape) for name, keep in masks.items()}
kept = {name: keep.sum((1, 2)).tolist() for name, keep in masks.items()}  # per pair
print(shapes)
for name, keep in masks.items():
    for b in range(len(src_lengths)):
        print(f"{name}, pair {b}:")
        print("\n".join("".join("■" if x else "⬚" for x in row) for row in keep[b]))
