import warnings

import torch
from torch.nn.attention import flex_attention as flex
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
keep = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]).bool()  # row 3: no key
q, k, v = S[None, None], 2 * torch.eye(4)[None, None], torch.eye(4)[None, None]
ref = torch.softmax(S.masked_fill(~keep, -torch.inf), -1)  # softmax(S + M)
keep_mod = lambda b, h, q_idx, kv_idx, keep=keep: keep[q_idx, kv_idx]  # True: attend
causal_mod = lambda b, h, q_idx, kv_idx: q_idx >= kv_idx  # the usual one, by hand

flex._WARNINGS_SHOWN.discard("flex_attention_performance")  # torch warns once a process
with warnings.catch_warnings(record=True) as caught:  # shown on the page on purpose
    warnings.simplefilter("always")
    block = create_block_mask(keep_mod, 1, 1, 3, 4, "cpu")  # B, H, L_Q, L_K
    w = flex_attention(q, k, v, block_mask=block)
    half = flex_attention(q.half(), k.half(), v.half(), block_mask=block)
    c = flex_attention(q[:, :, :2], k, v,
                       block_mask=create_block_mask(causal_mod, 1, 1, 2, 4, "cpu"))
eager = {str(x.message).split(" - ")[0] for x in caught}  # one notice, every call
w, half, c = w[0, 0], half[0, 0], c[0, 0]
polarity = "True = attend" if torch.allclose(w[:2], ref[:2], atol=1e-6) else "?"
corner = "top-left" if c.ne(0).equal(torch.ones(2, 4).bool().tril()) else "?"
rows = [("FlexAttention `mask_mod`", polarity, "function (bool)", "via `score_mod`",
         "0" if w[2].eq(0).all() else "?", corner + " (written by hand)",
         "-inf" if half[2].eq(0).all() else "?")]  # only -inf rows come out as 0
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*rows[0], *eager, sep=" | ")
print("torch", version := torch.__version__)
