import torch


def merge(out1, lse1, out2, lse2):
    """(out, lse) of attention over two sets of keys -> (out, lse) over both sets."""
    parts = (out1, lse1, out2, lse2)
    if not all(torch.is_tensor(t) and t.is_floating_point() for t in parts):
        raise TypeError(f"want floats, got {[getattr(t, 'dtype', t) for t in parts]}")
    shapes = [tuple(t.shape) for t in parts]
    if shapes[0] != shapes[2] or shapes[1] != shapes[3] or shapes[0][:-1] != shapes[1]:
        raise ValueError(f"want out (..., L_Q, d_v), lse (..., L_Q), twice: {shapes}")
    lse = torch.logaddexp(lse1, lse2)  # log(e^lse1 + e^lse2): the sums of exp add up
    shift = torch.where(torch.isneginf(lse), 0.0, lse)[..., None]  # no key in either: 0
    w1, w2 = torch.exp(lse1[..., None] - shift), torch.exp(lse2[..., None] - shift)
    return out1 * w1 + out2 * w2, lse  # w1 + w2 = 1: each half's share of the sum


# --- demo: 8 keys in two halves, as a split-KV kernel splits them ---
torch.manual_seed(0)
q, k, v = torch.randn(1, 1, 3, 4), torch.randn(1, 1, 8, 4), torch.randn(1, 1, 8, 4)
hide = torch.zeros(3, 8)
hide[0, :4] = -torch.inf  # query 0 sees no key of the first half
flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu  # -> (out, lse)
full, lse = flash(q, k, v, attn_mask=hide)
scores = q @ k.mT / 4**0.5 + hide
gap_lse = (lse - torch.logsumexp(scores, dim=-1)).abs().max().item()
halves = [flash(q, k[..., h, :], v[..., h, :], attn_mask=hide[:, h])
          for h in (slice(0, 4), slice(4, 8))]
empty_lse = halves[0][1][0, 0, 0].item()  # query 0, first half: no key
as_is = (merge(*halves[0], *halves[1])[0] - full).abs().amax(dim=(0, 1, 3))
no_key = torch.isneginf(hide[:, :4]).all(dim=-1)  # the rows that saw no key
lse_first = halves[0][1].masked_fill(no_key, -torch.inf)
fixed = (merge(halves[0][0], lse_first, *halves[1])[0] - full).abs().max().item()
print(f"lse {tuple(lse.shape)} {lse.dtype}, max |lse - torch.logsumexp|: {gap_lse:.1e}")
print(f"the kernel's lse for a row with no key: {empty_lse}")
print("merged halves as returned, max gap per query:", [f"{g:.1e}" for g in as_is])
print(f"with that lse set to -inf: max gap {fixed:.1e}")
