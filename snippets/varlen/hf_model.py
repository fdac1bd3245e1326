import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# A tiny Llama (random weights) on one packed row of documents of 3, 5 and 2 tokens
lengths = (3, 5, 2)
restart = torch.cat([torch.arange(n) for n in lengths])[None]  # 0, 1, 2, 0, 1, ...
gap = {}  # per document: max |packed - the document alone|
for impl in ("sdpa", "eager"):
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=32, hidden_size=16,
                                      intermediate_size=32, num_hidden_layers=2,
                                      num_attention_heads=2, attn_implementation=impl)
    model = transformers.LlamaModel(config).eval()
    ids = torch.randint(1, 32, (1, sum(lengths)))
    with torch.no_grad():
        alone = torch.cat([model(doc).last_hidden_state
                           for doc in ids.split(lengths, dim=1)], dim=1)
        for given, pos in (("restarting", restart), ("none", None)):
            out = model(ids, position_ids=pos, use_cache=False).last_hidden_state
            gap[impl, given] = [(o - a).abs().max().item() for o, a in
                                zip(out.split(lengths, 1), alone.split(lengths, 1))]
for (impl, given), g in gap.items():
    print(f"{impl:>5}, position_ids {given:>10}: as if alone per document",
          [x < 1e-6 for x in g])
