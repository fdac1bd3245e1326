import torch
import transformers
from transformers.masking_utils import eager_mask, sdpa_mask


@torch.no_grad()
def first_leak(model, ids, tol=1e-6, last_only=False):
    """(i, j): the first output i < j that moved by more than tol when token j was
    replaced (by 0; by 1 where it was 0), or None. model: ids (1, L) -> (1, L, ...)."""
    if ids.dim() != 2 or ids.shape[0] != 1 or ids.shape[1] < 2 or not tol > 0:
        raise ValueError(f"need ids (1, L >= 2), tol > 0; got {list(ids.shape)}, {tol}")
    L, leaks, base = ids.shape[1], [], model(ids)
    if tuple(getattr(base, "shape", ()))[:2] != (1, L) or not (
            base.isfinite().all() and base.equal(model(ids))):
        raise ValueError(f"need finite outputs (1, {L}, ...), equal on a second call")
    for j in [L - 1] if last_only else range(1, L):  # last_only: the cheap check
        other = ids.clone()
        other[0, j] = int(ids[0, j] == 0)
        gap = (model(other) - base).abs().reshape(L, -1).amax(-1)
        leaks += [(i, j) for i in range(j) if not gap[i] <= tol]  # nan: moved
    return min(leaks, default=None)


def plain_attention(module, query, key, value, attention_mask, scaling, **kwargs):
    scores = query @ key.transpose(-1, -2) * scaling  # the mask added as given, if any
    scores = scores if attention_mask is None else scores + attention_mask
    return (scores.softmax(-1) @ value).transpose(1, 2), None  # no weights


# --- demo: "plain" registered alone, then with sdpa's and eager's mask functions ---
transformers.AttentionInterface.register("plain", plain_attention)
torch.manual_seed(0)
config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, num_hidden_layers=2,
                                  num_attention_heads=2, attn_implementation="plain")
model, ids = transformers.LlamaForCausalLM(config).eval(), torch.randint(1, 32, (1, 8))
found = {"no mask function": first_leak(lambda x: model(x).logits, ids)}
for mask_function in [sdpa_mask, eager_mask]:
    transformers.AttentionMaskInterface.register("plain", mask_function)
    found[mask_function.__name__] = first_leak(lambda x: model(x).logits, ids)
print(found)
