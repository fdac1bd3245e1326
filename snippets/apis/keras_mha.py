import os

os.environ["KERAS_BACKEND"] = "torch"  # before keras is imported; no TensorFlow needed
import keras
import torch
from keras.src.backend.torch.nn import _get_large_negative  # the fused path's fill
from keras.src.layers.activations.softmax import _large_negative_number  # scores'

S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
keep = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()  # row 3: no key
q, k, v = S[None], 2 * torch.eye(4)[None], torch.eye(4)[None]  # scores S, out = weights
ref = torch.softmax(S.masked_fill(~keep, -torch.inf), -1)  # softmax(S + M)
mha = keras.layers.MultiHeadAttention(num_heads=1, key_dim=4)
mha(q, v, key=k)  # builds the weights: kernels (4, 1, 4), (1, 4, 4), zero biases
mha.set_weights([torch.eye(4).reshape(w.shape) if len(w.shape) == 3 else torch.zeros(
    w.shape) for w in mha.weights])  # identity projections: the layer sees q, k, v
run = lambda m, n=3, **kw: mha(q[:, :n], v, key=k, attention_mask=m, **kw)
same = lambda w, r: torch.allclose(w[0, :2].float(), r[:2], atol=1e-6)
polarity = "1 = 참여" if same(run(keep), ref) else "?"
masks = {"bool": keep, "int": keep.int(), "float": keep.float()}
kinds = [name for name, m in masks.items() if same(run(m), ref)]
additive = torch.zeros(3, 4).masked_fill(~keep, -torch.inf)  # a torch-style 0/-inf mask
inverted = same(run(additive), torch.softmax(S.masked_fill(keep, -torch.inf), -1))
kind = lambda r: "0" if r.eq(0).all() else "균등" if r.std() < 1e-3 else "?"
fused, scores = run(keep)[0, 2], run(keep, return_attention_scores=True)[1][0, 0, 2]
fill_fused = _get_large_negative("float16").item()  # float16 fills of the two paths
fill_scores = _large_negative_number("float16")
causal = run(None, 2, use_causal_mask=True)[0]
corner = "왼쪽 위" if causal.ne(0).equal(torch.ones(2, 4).bool().tril()) else "?"
rows = [("Keras `MultiHeadAttention`", polarity, "/".join(kinds),
         "bool로 읽음 (0/-inf는 뒤집힘)" if inverted else "?",
         f"{kind(fused)} (점수를 돌려받으면 {kind(scores)})", corner,
         f"{fill_fused:g} (점수를 돌려받으면 {fill_scores:g})")]
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*rows[0], sep=" | ")
print("keras", version := keras.__version__, "on", keras.backend.backend())
