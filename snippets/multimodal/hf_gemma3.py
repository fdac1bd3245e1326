import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# a tiny Gemma 3 (SigLIP tower, image of 4 tokens), random weights; a window of 3
torch.manual_seed(0)
text = transformers.Gemma3TextConfig(
    vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, num_key_value_heads=1, head_dim=8, sliding_window=3,
    layer_types=["sliding_attention", "full_attention"])
vision = transformers.SiglipVisionConfig(hidden_size=16, intermediate_size=32,
                                         num_hidden_layers=1, num_attention_heads=2,
                                         image_size=16, patch_size=4)
ids = torch.tensor([[5, 6, 39, 39, 39, 39, 7, 8]])  # 39: the image's placeholder
types = (ids == 39).long()  # token_type_ids: 1 = image
pixels = torch.randn(1, 3, 16, 16)
seen = {}  # (implementation, layer type) -> keep mask the attention layer got
for impl in ["eager", "sdpa"]:
    config = transformers.Gemma3Config(
        text_config=text, vision_config=vision, mm_tokens_per_image=4,
        image_token_index=39, boi_token_index=37, eoi_token_index=38,
        attn_implementation=impl)
    model = transformers.Gemma3ForConditionalGeneration(config).eval()
    for layer in model.model.language_model.layers:
        layer.self_attn.register_forward_pre_hook(
            lambda m, args, kw, impl=impl: seen.__setitem__(
                (impl, m.layer_type), kw["attention_mask"][0, 0]), with_kwargs=True)
    with torch.no_grad():
        model(input_ids=ids, token_type_ids=types, pixel_values=pixels)
keep = {k: m if m.dtype == torch.bool else m == 0 for k, m in seen.items()}
dtypes = {k: str(m.dtype) for k, m in seen.items()}
rows = {k: m[5].nonzero().flatten().tolist() for k, m in keep.items()}  # last image
same = all(keep["eager", k].equal(keep["sdpa", k]) for _, k in keep)
print(*(f"{i} {k} {dtypes[i, k]}: row 5 sees {r}" for (i, k), r in rows.items()),
      sep="\n")
print("eager == sdpa:", same)
print("\n".join("".join("■" if x else "⬚" for x in row)
                for row in keep["sdpa", "sliding_attention"]))
