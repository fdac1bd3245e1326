import torch
import torch.nn.functional as F

def attention(q, k, v, mask=None, *, causal=False, dropout_p=0.0, training=False,
              scale=None):
    """q (..., L_Q, d_k), k (..., L_K, d_k), v (..., L_K, d_v) -> (output, weights)."""
    dtypes = [getattr(t, "dtype", type(t).__name__) for t in (q, k, v)]
    if len(set(dtypes)) > 1 or not (torch.is_tensor(q) and q.is_floating_point()):
        raise TypeError(f"q, k, v must be float tensors of one dtype, got {dtypes}")
    if q.shape[-1] != k.shape[-1] or k.shape[-2:-1] != v.shape[-2:-1] or v.dim() < 2:
        raise ValueError(f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}: "
                         "want (..., L_Q, d_k), (..., L_K, d_k), (..., L_K, d_v)")
    scale = q.shape[-1] ** -0.5 if scale is None else scale  # scale q, then multiply:
    s = (q * scale) @ k.transpose(-2, -1)  # the unscaled q @ k^T can overflow float16
    if causal:  # top-left aligned like SDPA's is_causal: query i sees keys 0..i
        s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1), -torch.inf)
    if mask is not None:  # broadcast to (..., L_Q, L_K); bool: True = take part
        ones = mask.dtype == q.dtype and mask.unique().tolist() in ([1.0], [0.0, 1.0])
        if mask.dtype not in (torch.bool, q.dtype) or ones:  # ones: keep.float()
            raise TypeError(f"mask must be bool (True = take part) or {q.dtype} (added "
                            f"to the scores), got {mask.dtype}"
                            + " of only 0s and 1s: pass keep, not keep.float()" * ones)
        if mask.dim() > s.dim() or any(a not in (1, b) for a, b in
                                       zip(mask.shape[::-1], s.shape[::-1])):
            raise ValueError(f"mask {tuple(mask.shape)} does not broadcast to the "
                             f"scores (..., L_Q, L_K) = {tuple(s.shape)}")
        s = s + mask if mask.dtype == q.dtype else s.masked_fill(~mask, -torch.inf)
    empty = torch.isneginf(s).all(dim=-1, keepdim=True)  # no key: weights 0, as SDPA
    weights = torch.softmax(s.masked_fill(empty, 0), dim=-1).masked_fill(empty, 0)
    weights = F.dropout(weights, dropout_p, training)  # what the output is made of
    return weights @ v, weights

# --- demo: bad calls, each refused with a message that says what is wrong ---
q, k, v, keep = torch.ones(3, 4), torch.ones(5, 4), torch.ones(5, 6), torch.ones(5) > 0
for args in [(q, k[:, :3], v), (q, k, v[:4]), (q.long(), k.long(), v.long()),
             (q, k.double(), v), (q, k, v, keep.long()), (q, k, v, keep[:4])]:
    try:
        attention(*args)
    except (TypeError, ValueError) as error:
        print(f"{type(error).__name__}: {error}")
