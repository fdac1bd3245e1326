import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the config is built here: no download
import torch
import transformers
from transformers.masking_utils import create_causal_mask

# What create_causal_mask builds for one packed row of documents of 3, 5 and 2 tokens
lengths = (3, 5, 2)
restart = torch.cat([torch.arange(n) for n in lengths])[None]  # 0, 1, 2, 0, 1, ...
blocks = torch.block_diag(*(torch.ones(n, n) for n in lengths))
kinds = {"block-diagonal causal": blocks,
         "causal over the whole row": torch.ones(10, 10)}
seen = {}
for impl in ("sdpa", "eager"):
    config = transformers.LlamaConfig(hidden_size=16, num_attention_heads=2,
                                      attn_implementation=impl)
    for given, position_ids in (("restarting", restart), ("none", None)):
        mask = create_causal_mask(config=config, inputs_embeds=torch.zeros(1, 10, 16),
                                  attention_mask=None, past_key_values=None,
                                  position_ids=position_ids)
        if mask is None:  # sdpa then runs with is_causal=True
            seen[impl, given] = "None"
            continue
        keep = mask[0, 0] if mask.dtype == torch.bool else mask[0, 0] == 0  # eager adds
        kind = [k for k, m in kinds.items() if keep.equal(m.tril().bool())]
        seen[impl, given] = f"{mask.dtype} {tuple(mask.shape)}: {kind[0]}"
for (impl, given), what in seen.items():
    print(f"{impl:>5}, position_ids {given:>10}: {what}")
