import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers
from transformers import DataCollatorWithFlattening

# Three tokenized examples of 3, 5 and 2 tokens, flattened into one row without [PAD]
features = [{"input_ids": [11, 12, 13]}, {"input_ids": [21, 22, 23, 24, 25]},
            {"input_ids": [31, 32]}]
batch = DataCollatorWithFlattening()(features)
flash = DataCollatorWithFlattening(return_flash_attn_kwargs=True,
                                   return_position_ids=False)(features)
for name, b in (("default", batch), ("flash kwargs, no position_ids", flash)):
    print(f"{name}:", *(f"  {k}: {v.tolist() if torch.is_tensor(v) else v}"
                        for k, v in b.items()), sep="\n")
torch.manual_seed(0)  # a tiny Llama with random weights, SDPA on this CPU
config = transformers.LlamaConfig(vocab_size=40, hidden_size=16, intermediate_size=32,
                                  num_hidden_layers=1, num_attention_heads=2,
                                  attn_implementation="sdpa")
model = transformers.LlamaModel(config).eval()
lengths = [len(f["input_ids"]) for f in features]
with torch.no_grad():
    alone = torch.cat([model(torch.tensor([f["input_ids"]])).last_hidden_state
                       for f in features], dim=1)
    gap = {}  # per example: max |packed - the example alone|
    for name, b in (("default", batch), ("flash kwargs, no position_ids", flash)):
        kwargs = {k: v for k, v in b.items() if k != "labels"}
        out = model(**kwargs, use_cache=False).last_hidden_state
        gap[name] = [(o - a).abs().max().item()
                     for o, a in zip(out.split(lengths, 1), alone.split(lengths, 1))]
print({n: [x < 1e-6 for x in g] for n, g in gap.items()})
