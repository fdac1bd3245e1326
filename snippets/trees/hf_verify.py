import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

parents, P = [-1, -1, 0, 0, 1, 2, 4], 3  # the tree of draw.py, after 3 cached tokens
N, paths = len(parents), []
for p in parents:  # each node's path from the first level down to itself
    paths.append((paths[p] if p != -1 else []) + [len(paths)])
keep = torch.zeros(1, 1, N, P + N, dtype=torch.bool)  # (B, 1, L_Q, L_K)
keep[..., :P] = True  # the cache
for i, path in enumerate(paths):
    keep[0, 0, i, [P + j for j in path]] = True  # itself and its ancestors
depth = torch.tensor([len(path) - 1 for path in paths])
masks = {"bool": keep,
         "float": torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))}
gaps = {}  # (attention, mask) -> largest logit difference from decoding each branch
for attention in ("sdpa", "eager"):
    torch.manual_seed(0)  # random weights, tiny; initializer_range: not flat logits
    config = transformers.LlamaConfig(
        vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, initializer_range=0.3, attn_implementation=attention)
    model = transformers.LlamaForCausalLM(config).eval()
    prefix, tokens = torch.randint(1, 32, (1, P)), torch.randint(1, 32, (1, N))
    with torch.no_grad():
        branch = torch.empty(N, 32)  # node i's logits: its path fed one token at a time
        for i, path in enumerate(paths):
            cache = model(prefix).past_key_values
            for j in path:
                out = model(tokens[:, [j]], past_key_values=cache)
            branch[i] = out.logits[0, -1]
        for kind, mask in masks.items():  # the whole tree in one forward pass
            out = model(tokens, past_key_values=model(prefix).past_key_values,
                        attention_mask=mask, position_ids=P + depth[None])
            gaps[attention, kind] = (out.logits[0] - branch).abs().max().item()
print("transformers", version := transformers.__version__)  # measured with this one
shown = {key: "< 1e-5" if g < 1e-5 else f"{g:.1f}" for key, g in gaps.items()}
print(*(f"{a:>5}, {k:>5} mask: max |diff| {s}" for (a, k), s in shown.items()),
      sep="\n")
