import os
import warnings

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers
    from transformers import DynamicCache
    from transformers.masking_utils import create_causal_mask

torch.manual_seed(0)
config = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64,
                                  num_hidden_layers=2, num_attention_heads=4,
                                  num_key_value_heads=4, attn_implementation="sdpa")
model = transformers.LlamaForCausalLM(config).eval()  # random weights, tiny
ids = torch.randint(0, 64, (1, 11))  # an 11-token prompt
sizes, gaps = [1, 2, 3, 4, 5, 11], []  # chunk sizes; 1 is token by token
with torch.no_grad():
    whole = model(ids).logits  # one forward pass over the prompt, no cache
    for size in sizes:
        cache, logits = DynamicCache(config=config), []
        for start in range(0, ids.shape[1], size):  # each chunk after the ones cached
            chunk = model(ids[:, start:start + size], past_key_values=cache)
            logits.append(chunk.logits)
        gaps.append((torch.cat(logits, dim=1) - whole).abs().max().item())
    cache = DynamicCache(config=config)
    model(ids[:, :4], past_key_values=cache)  # 4 tokens cached, then a chunk of 3
    mask = create_causal_mask(config=config, inputs_embeds=torch.zeros(1, 3, 32),
                              attention_mask=None, past_key_values=cache)[0, 0]
cached_len = cache.get_seq_length()
bottom_right = torch.ones(3, cached_len + 3, dtype=torch.bool).tril(cached_len)
is_bottom_right = torch.equal(mask, bottom_right)
print("logits, max |chunked - one pass| per chunk size:")
print(*(f"{s:>3}: {g:.1e}" for s, g in zip(sizes, gaps)), sep="\n")
print(mask.int())
print("transformers' mask for the chunk is bottom-right:", is_bottom_right)
