import torch


def online_stats(x, block):
    """Yield the running max m and running sum l over x's last axis, block by block."""
    if not (torch.is_tensor(x) and x.is_floating_point()):
        raise TypeError(f"x must be a float tensor, got {getattr(x, 'dtype', type(x))}")
    if x.dim() == 0 or x.shape[-1] == 0:
        raise ValueError(f"x needs a last axis of length >= 1, got {tuple(x.shape)}")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be an int >= 1, got {block!r}")
    m = torch.full(x.shape[:-1], -torch.inf, dtype=x.dtype)  # max of no score yet
    l = torch.zeros(x.shape[:-1], dtype=x.dtype)  # sum of exp(x - m) so far
    for start in range(0, x.shape[-1], block):
        xb = x[..., start:start + block]
        m_new = torch.maximum(m, xb.amax(dim=-1))
        shift = torch.where(torch.isneginf(m_new), 0.0, m_new)  # all -inf so far: 0
        l = l * torch.exp(m - shift) + torch.exp(xb - shift[..., None]).sum(dim=-1)
        m = m_new  # l * exp(m) stays the sum of exp over every score seen
        yield m, l


def online_softmax(x, block):
    """softmax(x, dim=-1) and logsumexp(x, dim=-1) from the last running (m, l)."""
    *_, (m, l) = online_stats(x, block)
    shift = torch.where(torch.isneginf(m), 0.0, m)[..., None]
    p = torch.exp(x - shift) / torch.where(l == 0, 1.0, l)[..., None]  # l = 0: p = 0
    return p, m + torch.log(l)  # lse; a row of only -inf gives -inf, as torch.logsumexp


# --- demo: one row of 8 scores, 3 keys per block ---
x, block = torch.tensor([0.5, -1.0, 2.0, 1.0, 4.0, 0.0, 3.0, -2.0]), 3
keys = [x[i:i + block].tolist() for i in range(0, len(x), block)]  # each block's scores
ms, ls = torch.stack([torch.stack(m_l) for m_l in online_stats(x, block)]).T
prefix = torch.stack([x[:i + block].logsumexp(dim=-1) for i in range(0, len(x), block)])
p, lse = online_softmax(x, block)
z = torch.randn(100, 16, generator=torch.Generator().manual_seed(0)) * (spread := 10)
gap = max((online_softmax(z, b)[0] - z.softmax(-1)).abs().max() for b in range(1, 18))
print(f"m per block: {ms.tolist()}\nl per block: {ls.tolist()}\nlse: {lse.item():.4f}",
      f"max |online - torch.softmax|, blocks 1..17: {gap.item():.1e}", sep="\n")
