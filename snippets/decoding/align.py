import warnings
import torch
from torch.nn.attention.bias import causal_lower_right, causal_upper_left


def causal_mask(l_q, l_k, align="top_left"):
    """(l_q, l_k) keep-mask (True = take part). top_left: query i sees keys 0..i, as
    is_causal=True. bottom_right: the queries are the last l_q of the l_k positions."""
    for name, n in [("l_q", l_q), ("l_k", l_k)]:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"{name} must be an int, got {type(n).__name__}")
        if n < 1:
            raise ValueError(f"{name} must be at least 1, got {n}")
    if align not in ("top_left", "bottom_right"):
        raise ValueError(f"align must be 'top_left' or 'bottom_right', got {align!r}")
    shift = 0 if align == "top_left" else l_k - l_q  # the diagonal that stays
    return torch.ones(l_q, l_k, dtype=torch.bool).tril(shift)


# --- demo: both alignments for L_Q < L_K and L_Q > L_K, against torch's own ---
theirs = {"top_left": causal_upper_left, "bottom_right": causal_lower_right}
masks, same, seen = {}, [], []
for l_q, l_k in [(3, 5), (5, 3)]:
    for align, bias in theirs.items():
        masks[l_q, l_k, align] = causal_mask(l_q, l_k, align)
        with warnings.catch_warnings(record=True) as caught:  # shown below, on purpose
            warnings.simplefilter("always")
            torch_mask = bias(l_q, l_k)._materialize()
        seen += [str(w.message) for w in caught]
        same.append(torch.equal(masks[l_q, l_k, align], torch_mask))
        print(f"L_Q={l_q}, L_K={l_k}, {align}: same as torch {same[-1]}")
        print(masks[l_q, l_k, align].int())
no_key = (~masks[5, 3, "bottom_right"].any(dim=-1)).sum()  # rows that see no key
print("rows with no key (5, 3, bottom_right):", int(no_key))
print("torch warned:", seen)
