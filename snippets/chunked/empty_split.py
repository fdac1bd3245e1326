import torch


def attend_naive(q, k, v, mask):
    """softmax, then @ v: a row of the split that keeps no key is 0 / 0 = nan."""
    scores = (q @ k.mT * q.shape[-1] ** -0.5).masked_fill(~mask, -torch.inf)
    return torch.softmax(scores, dim=-1) @ v, torch.logsumexp(scores, dim=-1)

def attend_guarded(q, k, v, mask):
    """split_kv.py's attend_split without its checks: such a row is 0, its lse -inf."""
    scores = (q @ k.mT * q.shape[-1] ** -0.5).masked_fill(~mask, -torch.inf)
    lse = torch.logsumexp(scores, dim=-1)
    shift = torch.where(torch.isneginf(lse), 0.0, lse)[..., None]
    return torch.exp(scores - shift) @ v, lse

def merge_naive(parts):
    """e^(lse_s - lse) as written: -inf - -inf = nan where no split keeps a key."""
    lse = torch.logsumexp(torch.stack([s_lse for _, s_lse in parts]), dim=0)
    return sum(torch.exp(s_lse - lse)[..., None] * o for o, s_lse in parts), lse

def merge_guarded(parts):
    """split_kv.py's merge without its check: subtract 0 where lse is -inf."""
    lse = torch.logsumexp(torch.stack([s_lse for _, s_lse in parts]), dim=0)
    shift = torch.where(torch.isneginf(lse), 0.0, lse)[..., None]
    return sum(torch.exp(s_lse[..., None] - shift) * o for o, s_lse in parts), lse

# --- demo: 8 cache slots in 4 splits of 2; query 0 sees slots 0-2, query 1 no slot ---
g = torch.Generator().manual_seed(0)
q, (k, v) = torch.randn(2, 4, generator=g), torch.randn(2, 8, 4, generator=g)
keep = torch.stack([torch.arange(8) < 3, torch.zeros(8, dtype=torch.bool)])
right = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=keep)
splits = list(zip(k.split(2), v.split(2), keep.split(2, dim=-1)))
names, nans, same = [], [], []  # per way: its name, nan in its output, rows as SDPA's
for attend, merge in [(a, m) for a in (attend_naive, attend_guarded)
                      for m in (merge_naive, merge_guarded)]:
    out = merge([attend(q, *split) for split in splits])[0]
    names.append(f"{attend.__name__} + {merge.__name__}")
    nans.append(int(out.isnan().sum()))
    same.append(((out - right).abs().amax(dim=-1) < 1e-6).tolist())  # nan: False
    print(f"{names[-1]}: {nans[-1]} nan, rows equal to SDPA: {same[-1]}")
