import torch
import transformers
from transformers.integrations.sdpa_attention import sdpa_attention_forward
from transformers.masking_utils import or_masks, sdpa_mask


def prefix_mask(n, skip=False):
    """A mask interface entry: sdpa_mask with the first n keys or'ed in. skip=True
    passes the caller's allow_is_causal_skip on; skip=False turns it off."""
    def mask(**kwargs):
        kwargs["mask_function"] = or_masks(kwargs["mask_function"],
                                           lambda b, h, q, kv: kv < n)
        kwargs["allow_is_causal_skip"] = skip and kwargs["allow_is_causal_skip"]
        return sdpa_mask(**kwargs)
    return mask


# --- demo: a prefix-LM mask function registered for a new attention name ---
torch.manual_seed(0)
model = transformers.LlamaForCausalLM(transformers.LlamaConfig(
    vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, attn_implementation="sdpa")).eval()
ids = torch.randint(1, 32, (1, 6))
q, kv = torch.arange(6)[:, None], torch.arange(6)
with torch.no_grad():
    want = model(ids, attention_mask=((kv <= q) | (kv < 3))[None, None]).logits
    causal = model(ids).logits  # the built-in causal mask
transformers.AttentionInterface.register("prefix", sdpa_attention_forward)
model.set_attn_implementation("prefix")
found = {}
for skip in [True, False]:
    transformers.AttentionMaskInterface.register("prefix", prefix_mask(3, skip))
    with torch.no_grad():
        out = model(ids).logits
    found[f"skip={skip}"] = ("prefix-LM" if (out - want).abs().max() < 1e-6 else
                             "causal" if (out - causal).abs().max() < 1e-6 else "other")
print(found)
