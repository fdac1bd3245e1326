import warnings
from collections import defaultdict
import torch
from torch.nn.attention.flex_attention import and_masks, create_mask


def causal(b, h, q, kv):
    return kv <= q


# --- demo ---
W, L = 3, 6  # the same number W given to each library's parameter
conventions = {  # each library's rule, written as a mask_mod
    # transformers masking_utils.sliding_window_overlay: kv_idx > q_idx - sliding_window
    "HF sliding_window=W": and_masks(causal, lambda b, h, q, kv: kv > q - W),
    # flash_attn_func docstring: keys in [i - window_size[0], i + window_size[1]]
    "FA window_size=(W, 0)": lambda b, h, q, kv: (q - W <= kv) & (kv <= q + 0),
    "FA window_size=(W - 1, 0)": lambda b, h, q, kv: (q - (W - 1) <= kv) & (kv <= q),
    # attention-gym generate_sliding_window: q_idx - kv_idx <= window_size
    "attention-gym window_size=W": and_masks(causal, lambda b, h, q, kv: q - kv <= W),
    # keras MultiHeadAttention._compute_sliding_window_mask: abs(i - j) < sliding_window
    "Keras sliding_window=W": (band := lambda b, h, q, kv: (q - kv).abs() < W),
    "Keras sliding_window=W, causal": and_masks(causal, band),  # use_causal_mask=True
    # transformers before #39408: window_size=(W, W) passed to FA with causal=True
    "FA window_size=(W, W), causal": and_masks(
        causal, lambda b, h, q, kv: (q - W <= kv) & (kv <= q + W)),
}
seen = {name: create_mask(mask_mod, 1, 1, L, L, device="cpu")[0, 0].sum(-1).tolist()
        for name, mask_mod in conventions.items()}  # keys each query row sees
print("\n".join(f"{name:>31}: {row}" for name, row in seen.items()))
names, most = list(seen), {name: max(row) for name, row in seen.items()}
with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers.modeling_flash_attention_utils as fa_utils
hf_to_fa = fa_utils._process_flash_attention_kwargs(  # as if FA took window_size
    L, L, True, sliding_window=W, supports_mapping=defaultdict(bool, window_size=True))
left, right = hf_to_fa["window_size"]  # what transformers passes to FA now (#40163)
fa_now = and_masks(causal, lambda b, h, q, kv: (q - left <= kv) & (kv <= q + right))
most_now = int(create_mask(fa_now, 1, 1, L, L, device="cpu")[0, 0].sum(-1).max())
print(f"transformers now passes window_size={(left, right)}: at most {most_now} keys")
