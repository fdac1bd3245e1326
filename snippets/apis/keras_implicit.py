import os

os.environ["KERAS_BACKEND"] = "torch"  # before keras is imported; no TensorFlow needed
import keras
import torch

keras.utils.set_random_seed(0)
ids = torch.tensor([[5, 3, 7, 0, 0]])  # three tokens, then two PADs (id 0)
emb = keras.layers.Embedding(10, 4, mask_zero=True)  # mask_zero: id 0 is masked
mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4)
mha(emb(ids), emb(ids))  # builds the weights: kernels (4, 1, 4), (1, 4, 4), biases
mha.set_weights([torch.eye(4).reshape(w.shape) if len(w.shape) == 3 else torch.zeros(
    w.shape) for w in mha.weights])  # identity projections: output = weights @ x
keep = emb.compute_mask(ids)[0]  # the mask Keras attaches to emb's output
x = emb(ids)  # a fresh output each time: a layer call takes the mask off its inputs
w = mha(x, x, return_attention_scores=True)[1]  # no attention_mask passed
weights = w[0, 0].detach()  # (query, key): the mask Keras built from x's mask
reused = mha(x, x, return_attention_scores=True)[1][0, 0].detach()  # x again
x = emb(ids)
y = mha(x, x)  # the default path, through SDPA
fused, passed_on = y[0].detach(), y._keras_mask[0].tolist()  # y carries x's mask
pad_rows_zero = bool(weights[~keep].eq(0).all())  # PAD queries: every weight 0
pad_keys_zero = bool(weights[keep][:, ~keep].eq(0).all())  # real queries skip PADs
uniform_gap = (fused[~keep] - x[0].mean(0)).abs().max().item()  # fused: mean of all v
reused_pad = reused[keep][:, ~keep].sum().item()  # second call on x: PADs seen again
only_keys = keep[None, None, :].expand(1, 5, 5)  # a key mask only, as torch would
sees = mha(emb(ids).detach(), emb(ids).detach(), return_attention_scores=True,
           attention_mask=only_keys)[1][0, 0].detach()  # detach drops the Keras mask
pad_sees_keys = sees[~keep].ne(0).sum(-1).tolist()  # no query mask: PAD rows see keys
print("Keras mask of emb(ids):", keep.tolist())
print("weights of the PAD query rows (scores path):", weights[~keep].tolist())
print(f"fused path, PAD row minus the mean of all values: {uniform_gap:.1e}")
print(f"x reused: weight the real queries give the PAD keys: {reused_pad:.3f}")
print("keys a PAD query sees with a key mask only:", pad_sees_keys)
