import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

parents, P = [-1, -1, 0, 0, 1, 2, 4], 3  # the tree of draw.py, after 3 cached tokens
N, paths = len(parents), []
for p in parents:  # each node's path from the first level down to itself
    paths.append((paths[p] if p != -1 else []) + [len(paths)])
tree = torch.zeros(N, P + N, dtype=torch.bool)
tree[:, :P] = True  # the cache
for i, path in enumerate(paths):
    tree[i, [P + j for j in path]] = True  # itself and its ancestors
causal = torch.ones(N, P + N, dtype=torch.bool).tril(P)  # bottom-right, flattened
depth = torch.tensor([len(path) - 1 for path in paths])
torch.manual_seed(0)  # the model of hf_verify.py, SDPA
config = transformers.LlamaConfig(
    vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, initializer_range=0.3, attn_implementation="sdpa")
model = transformers.LlamaForCausalLM(config).eval()
prefix, tokens = torch.randint(1, 32, (1, P)), torch.randint(1, 32, (1, N))
runs = {"tree mask, P + depth": (tree, P + depth),
        "tree mask, P + 0..N-1": (tree, P + torch.arange(N)),
        "causal mask, P + depth": (causal, P + depth)}
logits = {}
with torch.no_grad():
    for name, (mask, pos) in runs.items():
        out = model(tokens, past_key_values=model(prefix).past_key_values,
                    attention_mask=mask[None, None], position_ids=pos[None])
        logits[name] = out.logits[0]
right = logits["tree mask, P + depth"]
gap = {name: (out - right).abs().amax(dim=-1) for name, out in logits.items()}
sees_other = (causal & ~tree).any(dim=-1)  # rows that see a node not on their path
moved = depth != torch.arange(N)  # rows whose flattened index is not their depth
for name, g in gap.items():
    print(f"{name:>22}: {[round(x, 3) for x in g.tolist()]}")
