import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# A tiny Llama with 8 query heads and 2 KV heads, random weights: what its cache holds
torch.manual_seed(0)
config = transformers.LlamaConfig(vocab_size=32, hidden_size=64, intermediate_size=64,
                                  num_hidden_layers=2, num_attention_heads=8,
                                  num_key_value_heads=2, attn_implementation="sdpa")
model = transformers.LlamaModel(config).eval()
L = 10  # tokens in the prompt
with torch.no_grad():
    cache = model(torch.randint(1, 32, (1, L)), use_cache=True).past_key_values
shapes = [tuple(layer.keys.shape) for layer in cache.layers]  # (B, H_kv, L, d_head)
held = sum(t.numel() * t.element_size() for layer in cache.layers
           for t in (layer.keys, layer.values))  # bytes, as stored
formula = 2 * config.num_hidden_layers * config.num_key_value_heads * config.head_dim \
    * L * torch.float32.itemsize  # K and V x layers x H_kv x d_head x L x bytes
kind = type(cache).__name__
print(kind, shapes, "bytes held:", held, "formula:", formula)
