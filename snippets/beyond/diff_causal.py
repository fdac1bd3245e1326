import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# the same tiny DiffLlama under eager and sdpa; token 5 of 7 changed
config = transformers.DiffLlamaConfig(
    vocab_size=32, hidden_size=32, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=4, head_dim=8)
torch.manual_seed(0)
model = transformers.DiffLlamaForCausalLM(config).eval()
ids = torch.randint(0, 32, (1, 7))
changed = ids.clone()
changed[0, 5] = (ids[0, 5] + 1) % 32
logits = {}
with torch.no_grad():
    for name in ("eager", "sdpa"):
        model.set_attn_implementation(name)
        logits[name] = model(ids).logits, model(changed).logits
for name, (a, b) in logits.items():
    before = (a[:, :5] - b[:, :5]).abs().max().item()
    later = (a[:, 5:] - b[:, 5:]).abs().max().item()
    print(f"{name}: logits 0-4 unchanged (< 1e-6) {before < 1e-6},",
          f"5-6 changed (> 1e-3) {later > 1e-3}")
gap = (logits["eager"][0] - logits["sdpa"][0]).abs().max().item()
layer = type(model.model.layers[0].self_attn).__name__  # the class under sdpa
print(f"eager vs. sdpa, gap < 1e-5: {gap < 1e-5}; the layer under sdpa: {layer}")
