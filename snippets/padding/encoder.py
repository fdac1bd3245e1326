import warnings

import torch

torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0,
                                         batch_first=True)
encoder = torch.nn.TransformerEncoder(layer, num_layers=1)  # enable_nested_tensor=True
x = torch.randn(2, 4, 8)
pad = torch.tensor([[0, 0, 1, 1], [0, 0, 0, 0]]) > 0  # True = [PAD], as MHA reads it
encoder.train()
trained = encoder(x, src_key_padding_mask=pad)
encoder.eval()
with torch.no_grad(), warnings.catch_warnings():
    # The fast path builds a nested tensor; torch warns once a process that their API
    # is a prototype, so whether a run shows it depends on what ran before: silenced.
    warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")
    fast = encoder(x, src_key_padding_mask=pad)
pad_train = trained[pad].abs().max().item()  # ordinary outputs at the [PAD] positions
pad_eval = fast[pad].abs().max().item()  # the eval fast path pads back with exact 0
real_gap = (trained[~pad] - fast[~pad]).abs().max().item()
print(f"max |output| at [PAD]: train {pad_train:.4f}, eval + no_grad {pad_eval}")
print(f"real tokens, train vs eval: max gap {real_gap:.1e}")
