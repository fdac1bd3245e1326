import os

os.environ["HF_HUB_OFFLINE"] = "1"
import torch
import transformers
from transformers.masking_utils import (create_causal_mask,
                                        create_sliding_window_causal_mask)
from transformers.models.gemma3.modeling_gemma3 import (
    create_masks_for_vision_model, get_block_sequence_ids_for_mask)

# the same 8 tokens (image at 2-5), a window of 3, through transformers' own functions
config = transformers.Gemma3TextConfig(sliding_window=3, attn_implementation="sdpa",
                                       num_hidden_layers=1,
                                       layer_types=["sliding_attention"])
kw = {"config": config, "inputs_embeds": torch.zeros(1, 8, 4), "attention_mask": None,
      "past_key_values": None, "position_ids": torch.arange(8)[None]}
types = torch.tensor([[0, 0, 1, 1, 1, 1, 0, 0]])  # Gemma 3: 1 = image
prefix_types = torch.tensor([[0, 0, 0, 0, 0, 0, 1, 1]])  # PaliGemma: 0 = prefix
blocks = get_block_sequence_ids_for_mask(types)
masks = {
    "gemma3 sliding": create_masks_for_vision_model(
        block_sequence_ids=blocks, **kw)["sliding_attention"],
    "sliding, block_sequence_ids": create_sliding_window_causal_mask(
        block_sequence_ids=blocks, **kw),
    "paligemma prefix": create_causal_mask(  # the block ids PaliGemma makes
        block_sequence_ids=torch.where(prefix_types == 0, 0, -1), **kw),
}
rows = {name: m[0, 0, 5].nonzero().flatten().tolist() for name, m in masks.items()}
print("blocks:", blocks[0].tolist())
for name, m in masks.items():
    print(f"{name}: row 5 sees {rows[name]}")
    print("\n".join("".join("■" if x else "⬚" for x in row) for row in m[0, 0]))
