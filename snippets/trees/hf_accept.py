import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

parents, P = [-1, -1, 0, 0, 1, 2, 4], 3  # the tree of draw.py, after 3 cached tokens
N, paths = len(parents), []
for p in parents:  # each node's path from the first level down to itself
    paths.append((paths[p] if p != -1 else []) + [len(paths)])
keep = (torch.arange(P + N) < P).repeat(N, 1)  # the cache, then ancestors and itself
for i, path in enumerate(paths):
    keep[i, [P + j for j in path]] = True
depth = torch.tensor([len(path) - 1 for path in paths])
torch.manual_seed(0)  # the model of hf_verify.py, SDPA
config = transformers.LlamaConfig(
    vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=2, initializer_range=0.3, attn_implementation="sdpa")
model = transformers.LlamaForCausalLM(config).eval()
prefix, draft = torch.randint(1, 32, (1, P)), torch.randint(1, 32, (1, N))
with torch.no_grad():
    alone, greedy = model(prefix), []  # the target alone, greedy, three tokens
    for _ in range(3):
        greedy.append(int(alone.logits[0, -1].argmax()))
        alone = model(torch.tensor([greedy[-1:]]),
                      past_key_values=alone.past_key_values)
    draft[0, paths[5]] = torch.tensor(greedy)  # the draft got branch 0, 2, 5 right
    out = model(draft, past_key_values=model(prefix).past_key_values,  # verify the tree
                attention_mask=keep[None, None], position_ids=P + depth[None])
target = [greedy[0], *out.logits[0].argmax(dim=-1)]  # after the cache, after each node
accepted = [i for i in range(N)  # every token on its path is what the target chose
            if all(draft[0, j] == target[parents[j] + 1] for j in paths[i])]
node = max(accepted, key=lambda i: len(paths[i]))  # the longest matching branch
rows = list(range(P)) + [P + i for i in paths[node]]  # cache rows to keep
layers = zip(out.past_key_values.layers, alone.past_key_values.layers)
gap = max((t[:, :, rows] - a).abs().max().item() for tree, one in layers
          for t, a in [(tree.keys, one.keys), (tree.values, one.values)])
bonus, own = int(target[node + 1]), int(alone.logits[0, -1].argmax())
print("accepted node:", node, "path:", paths[node], "cache rows kept:", rows)
print(f"bonus token: {bonus} (alone: {own}); kept rows = alone: {gap < 1e-5}")
