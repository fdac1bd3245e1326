import torch
import transformers

# a tiny Llama decodes token 4 after a cache of tokens 0..3, given 4-D masks
torch.manual_seed(0)
model = transformers.LlamaForCausalLM(transformers.LlamaConfig(
    vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, attn_implementation="sdpa")).eval()
ids = torch.randint(1, 32, (1, 6))
masks = {"(1, 1, 1, 5): the cache and the new key": torch.ones(1, 1, 1, 5).bool(),
         "(1, 1, 1, 1): broadcast over the keys": torch.ones(1, 1, 1, 1).bool(),
         "(1, 1, 1, 3): too short": torch.ones(1, 1, 1, 3).bool(),
         "(1, 1, 1, 5), key 0 hidden": torch.arange(5).view(1, 1, 1, 5) > 0}
found = {}
with torch.no_grad():
    want = model(ids[:, :5]).logits[0, -1]  # token 4 in one pass, causal
    for name, mask in masks.items():
        cache = model(ids[:, :4], use_cache=True).past_key_values
        try:
            step = model(ids[:, 4:5], past_key_values=cache, attention_mask=mask)
            gap = (step.logits[0, -1] - want).abs().max()
            found[name] = "same" if gap < 1e-5 else "differs"
        except RuntimeError as error:
            found[name] = type(error).__name__
for name, outcome in found.items():
    print(f"{name}: {outcome}")
