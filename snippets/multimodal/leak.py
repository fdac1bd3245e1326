import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# a tiny Gemma 3 language model behind Gemma3Model's masks, random weights
torch.manual_seed(0)
text = transformers.Gemma3TextConfig(
    vocab_size=40, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, num_key_value_heads=1, head_dim=8, sliding_window=3,
    layer_types=["sliding_attention", "full_attention"])
vision = transformers.SiglipVisionConfig(hidden_size=16, intermediate_size=32,
                                         num_hidden_layers=1, num_attention_heads=2,
                                         image_size=16, patch_size=4)
config = transformers.Gemma3Config(text_config=text, vision_config=vision,
                                   mm_tokens_per_image=4, attn_implementation="sdpa")
model = transformers.Gemma3Model(config).eval()
types = torch.tensor([[0, 0, 1, 1, 1, 1, 0, 0]])  # text 0-1, image 2-5, text 6-7
embeds = torch.randn(1, 8, 16)  # stand-ins for the image's and the text's embeddings
cases = {"token 5": (5, types), "token 6": (6, types),  # image's last; text after
         "token 5, no token_type_ids": (5, None)}
moved, gaps = {}, []  # case -> the positions whose output moved; every gap
with torch.no_grad():
    for name, (pos, tt) in cases.items():
        base = model(inputs_embeds=embeds, token_type_ids=tt).last_hidden_state
        bumped = embeds.clone()
        bumped[0, pos] += 1.0
        out = model(inputs_embeds=bumped, token_type_ids=tt).last_hidden_state
        gap = (out - base).abs().amax(-1)[0].tolist()
        gaps += gap
        moved[name] = [i for i, g in enumerate(gap) if g > 1e-4]
still = max(g for g in gaps if g <= 1e-4)  # the outputs that did not move
move = min(g for g in gaps if g > 1e-4)  # the smallest move; nothing in between
assert still < 1e-6, still
for name, positions in moved.items():
    print(f"change {name}: outputs that move {positions}")
