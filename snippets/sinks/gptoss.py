import torch
import transformers  # the models are built from configs: nothing is downloaded
from transformers.masking_utils import eager_mask


def with_sink(module, q, k, v, mask, scaling, **kwargs):  # transformers' signature
    """gpt-oss's attention by this chapter's formula (attention_with_sink: sink.py)."""
    k = k.repeat_interleave(module.num_key_value_groups, 1)  # grouped heads
    v = v.repeat_interleave(module.num_key_value_groups, 1)
    scores = (q @ k.mT * scaling).masked_fill(mask < 0, -torch.inf)  # mask: 0 or min
    sink = module.sinks[:, None].expand(scores.shape[:-1])[..., None]  # one per head
    weights = torch.cat([scores, sink], -1).softmax(-1)[..., :-1]  # sink dropped
    return (weights @ v).transpose(1, 2), None  # (B, L, H, d), as eager returns


# --- demo: a tiny gpt-oss, random weights, 2 layers (sliding, full), 7 tokens ---
transformers.AttentionInterface.register("with_sink", with_sink)
transformers.AttentionMaskInterface.register("with_sink", eager_mask)  # never None
torch.manual_seed(0)
config = transformers.GptOssConfig(
    vocab_size=32, hidden_size=16, intermediate_size=16, num_hidden_layers=2,
    num_attention_heads=2, num_key_value_heads=1, head_dim=8, num_local_experts=2,
    num_experts_per_tok=1, sliding_window=4, attn_implementation="eager")
model, ids = transformers.GptOssForCausalLM(config).eval(), torch.randint(0, 32, (1, 7))
layers = [layer.self_attn for layer in model.model.layers]
with torch.no_grad():
    for attn in layers:
        attn.sinks.copy_(torch.tensor([2.0, -1.0]))  # large enough to matter
    eager = model(ids).logits
    model.set_attn_implementation("with_sink")
    gap = (model(ids).logits - eager).abs().max().item()
    model.set_attn_implementation("eager")
    for attn in layers:
        attn.sinks.fill_(-torch.inf)  # no sink: e^-inf = 0 in the denominator
    sinks_matter = (model(ids).logits - eager).abs().max().item()
print(f"{len(layers)} layers: {config.layer_types}")
print(f"gap < 1e-6: {gap < 1e-6}, without sinks gap > 1e-3: {sinks_matter > 1e-3}")
