import os
import warnings

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch

with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers

# a tiny Mistral with sliding_window=4, random weights; 10 tokens
torch.manual_seed(0)
W, L = 4, 10
config = transformers.MistralConfig(vocab_size=32, hidden_size=16, intermediate_size=32,
                                    num_hidden_layers=1, num_attention_heads=2,
                                    num_key_value_heads=1, sliding_window=W,
                                    attn_implementation="eager")
model = transformers.MistralForCausalLM(config).eval()
ids = torch.randint(0, 32, (1, L))
caches = {"DynamicCache": transformers.DynamicCache(config=config),
          "StaticCache": transformers.StaticCache(config=config, max_cache_len=L)}
with torch.no_grad():
    whole = model(ids).logits  # all 10 tokens at once, under the window mask
    gap, layer, kept = {}, {}, {}
    for name, cache in caches.items():
        steps = [model(ids[:, t:t + 1], past_key_values=cache, use_cache=True,
                       cache_position=torch.tensor([t])).logits for t in range(L)]
        gap[name] = (torch.cat(steps, 1) - whole).abs().max().item()
        layer[name] = type(cache.layers[0]).__name__
        kept[name] = cache.layers[0].keys.shape[-2]  # key rows the layer holds
    config.sliding_window = None  # the same weights with no window
    no_window = transformers.MistralForCausalLM(config).eval()
    no_window.load_state_dict(model.state_dict())
    window_matters = (no_window(ids).logits - whole).abs().max().item()
for name in caches:
    print(f"{name}: {layer[name]}, 키 {kept[name]} 줄을 둠,",
          f"한 번에 돌린 것과의 차이 < 1e-6: {gap[name] < 1e-6}")
print(f"윈도 없이 한 번에 돌리면 차이 > 1e-3: {window_matters > 1e-3}")
