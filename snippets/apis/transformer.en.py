import warnings

import torch

torch.manual_seed(0)
S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
q, k, v = S[None], 2 * torch.eye(4)[None], torch.eye(4)[None]  # scores S, out = weights
mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True)
mha.load_state_dict({"in_proj_weight": torch.eye(4).repeat(3, 1),  # identity maps
                     "out_proj.weight": torch.eye(4)})
square = torch.nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float16)
pad = torch.tensor([[False, False, True]])  # key_padding_mask: True = [PAD]
with warnings.catch_warnings(record=True) as caught:  # shown on the page on purpose
    warnings.simplefilter("always")
    mha(q, k[:, :3], v[:, :3], attn_mask=square.float(), key_padding_mask=pad)
mismatch = str(caught[0].message)
try:  # the is_causal hint needs a mask ...
    mha(q[:, :2], k, v, is_causal=True, need_weights=False)
except RuntimeError as error:
    hint = str(error).split(".")[0]
lower_right = ~torch.ones(2, 4).bool().tril(2)  # ... but may drop it: True = masked
w = mha(q[:, :2], k, v, attn_mask=lower_right, is_causal=True, need_weights=False)[0][0]
corner = "top-left" if w.ne(0).equal(torch.ones(2, 4).bool().tril()) else "?"
layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
encoder, x = torch.nn.TransformerEncoder(layer, 1), torch.randn(2, 3, 8)
pads = torch.tensor([[False, False, True], [True, True, True]])  # sequence 2: all [PAD]
trained = encoder(x, src_key_padding_mask=pads)[1]
with torch.no_grad(), warnings.catch_warnings():  # once a process: see the page
    warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")
    fast = encoder.eval()(x, src_key_padding_mask=pads)[1]
kind = lambda y: "0" if y.eq(0).all() else "finite" if y.isfinite().all() else "?"
rows = [("`generate_square_subsequent_mask`", "0 = attend", "float 0/-inf",
         "added", "—", "square only", str(square.min().item())),
        ("MHA `is_causal=True`", *"————", f"{corner} (mask dropped)", "—"),
        ("`TransformerEncoder` train / eval", "True = masked", "bool/float",
         "added",
         f"{kind(trained)} / {kind(fast)}", "—", "-inf")]
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*(" | ".join(r) for r in rows), mismatch, hint, sep="\n")
print("torch", version := torch.__version__)
