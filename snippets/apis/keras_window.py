import os

os.environ["KERAS_BACKEND"] = "torch"  # before keras is imported; no TensorFlow needed
import keras
import torch

keras.utils.set_random_seed(0)
W, L = 3, 6  # the same W and length as the window table of the flex chapter
x = torch.randn(1, L, 4)
mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4, sliding_window=W)
seen, band = {}, {}  # keys each query row sees; which keys, as 0/1
for causal in (False, True):
    w = mha(x, x, return_attention_scores=True, use_causal_mask=causal)[1][0, 0]
    name = "Keras sliding_window=W" + (", causal" if causal else "")
    band[name] = w.detach().ne(0).int()
    seen[name] = band[name].sum(-1).tolist()
    print(f"{name:>31}: {seen[name]}")
i, j = torch.arange(L)[:, None], torch.arange(L)
plain = band["Keras sliding_window=W"]
symmetric = plain.bool().equal((i - j).abs() < W)  # the band |i - j| < W, both sides
future = int(plain.triu(1).sum())  # keys after their query that some query sees
most = {name: max(row) for name, row in seen.items()}
