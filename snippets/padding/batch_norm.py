import torch

torch.manual_seed(0)
B, L, D = 2, 4, 3  # two sentences of four positions, three features
x = torch.randn(B, L, D)
keep = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]]).bool()  # sentence 2: two PADs
layers = {"BatchNorm, training": torch.nn.BatchNorm1d(D).train(),  # the batch's stats
          "LayerNorm": torch.nn.LayerNorm(D),  # each token by itself
          "BatchNorm, eval": torch.nn.BatchNorm1d(D).eval()}  # running statistics
pads = (0.0, 100.0)  # what the PAD positions hold: 0, then 100
gap = {}  # how far the real tokens' outputs move when only the PADs' values change
for name, layer in layers.items():
    outs = []
    for pad_value in pads:
        y = x.masked_fill(~keep[..., None], pad_value).reshape(B * L, D)
        outs.append(layer(y).reshape(B, L, D)[keep])  # the real tokens only
    gap[name] = (outs[0] - outs[1]).abs().max().item()
    print(f"{name:>19}: real tokens move by {gap[name]:.3g}")
