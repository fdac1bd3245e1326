import warnings

import torch


def forward(model, src, tgt, src_pad, tgt_pad, memory_pad, fast=True):
    """nn.Transformer, its masks True = masked; fast=False: the fast path off."""
    causal = torch.ones(tgt.shape[1], tgt.shape[1], dtype=torch.bool).triu(1)
    torch.backends.mha.set_fastpath_enabled(fast)
    try:
        with torch.no_grad():
            return model(src, tgt, src_key_padding_mask=src_pad, tgt_mask=causal,
                         tgt_key_padding_mask=tgt_pad,
                         memory_key_padding_mask=memory_pad)
    finally:
        torch.backends.mha.set_fastpath_enabled(True)


# --- demo: sources of 4 and 2 tokens, targets of 3 and 2, right-padded ---
warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")  # fast path's
torch.manual_seed(0)
model = torch.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True).eval()
src, tgt = torch.randn(2, 4, 8), torch.randn(2, 3, 8)  # (batch, length, d_model)
src_pad = torch.arange(4) >= torch.tensor([[4], [2]])  # (2, 4), True = padding
tgt_pad = torch.arange(3) >= torch.tensor([[3], [2]])  # (2, 3)
noisy = torch.where(src_pad[..., None], 100 * torch.randn(src.shape), src)  # new pads
alone = forward(model, src[1:, :2], tgt[1:, :2], None, None, None)[0]  # no padding
gap, moved, off_gap, off_moved, finite = ({} for _ in range(5))
for path, fast in {"fast": True, "slow": False}.items():
    kw = dict(tgt=tgt, src_pad=src_pad, tgt_pad=tgt_pad, fast=fast)
    out, out2 = (forward(model, x, memory_pad=src_pad, **kw) for x in (src, noisy))
    off, off2 = (forward(model, x, memory_pad=None, **kw) for x in (src, noisy))
    gap[path] = (out[1, :2] - alone).abs().max().item()  # the short pair vs alone
    moved[path] = (out2 - out)[~tgt_pad].abs().max().item()  # real target rows
    off_gap[path] = (off[1, :2] - alone).abs().max().item()  # mask forgotten
    off_moved[path] = (off2 - off)[~tgt_pad].abs().max().item()
    finite[path] = out[tgt_pad].isfinite().all().item()  # the padded target row
print({p: (gap[p] < 1e-6, moved[p] < 1e-6, off_gap[p] > 0.1) for p in gap})
print({p: (off_moved[p] > 0.1, finite[p]) for p in gap})
