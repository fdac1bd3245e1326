import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers
from transformers.masking_utils import create_causal_mask

# two documents of 3 and 5 tokens packed into one row, no [PAD]
torch.manual_seed(0)
config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32,
                                  num_hidden_layers=1, num_attention_heads=2,
                                  num_key_value_heads=2, attn_implementation="sdpa")
model = transformers.LlamaModel(config).eval()  # random weights, tiny
ids, lengths = torch.randint(1, 32, (1, 8)), (3, 5)
packed = torch.cat([torch.arange(n) for n in lengths])[None]  # restart per document
mask = create_causal_mask(config=config, inputs_embeds=torch.zeros(1, 8, 16),
                          attention_mask=None, past_key_values=None,
                          position_ids=packed)[0, 0]  # no 2-D mask: packing is read
block_causal = torch.block_diag(*(torch.ones(n, n) for n in lengths)).tril().bool()
is_block_causal = bool(mask.equal(block_causal))
with torch.no_grad():
    alone = torch.cat([model(doc).last_hidden_state
                       for doc in ids.split(lengths, dim=1)], dim=1)
    runs = {"position_ids, use_cache=False": model(ids, position_ids=packed,
                                                   use_cache=False),
            "position_ids, the default cache": model(ids, position_ids=packed),
            "no position_ids": model(ids, use_cache=False)}  # positions 0..7
gap = {name: (out.last_hidden_state - alone).abs().max().item()
       for name, out in runs.items()}  # vs each document alone
print(mask.int())
print("block-diagonal causal:", is_block_causal)
print(*(f"{name:>31}: max gap {g:.1e}" for name, g in gap.items()), sep="\n")
