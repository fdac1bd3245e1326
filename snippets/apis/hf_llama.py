import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

torch.manual_seed(0)
config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=32,
                                  num_hidden_layers=1, num_attention_heads=2,
                                  num_key_value_heads=2, pad_token_id=0)
model = transformers.LlamaForCausalLM(config).eval()  # random weights, tiny
seqs = [[5, 7, 9, 11], [3, 4]]
ids = torch.tensor([[0, 0, 0, 0][len(s):] + s for s in seqs])  # left padding, [PAD] = 0
mask_2d = (ids != 0).long()  # 1 = token, 0 = [PAD]
with torch.no_grad():
    alone = [model(torch.tensor([s])).logits[0] for s in seqs]
    batched = model(ids, attention_mask=mask_2d).logits
    unmasked = model(ids).logits
gap = lambda out: max((out[i, -len(s):] - alone[i]).abs().max().item()
                      for i, s in enumerate(seqs))  # real tokens only
masked_gap, unmasked_gap = gap(batched), gap(unmasked)
pad_finite = bool(batched.isfinite().all())  # the [PAD] queries' logits too
print(f"{ids.tolist()} {mask_2d.tolist()}")
print("real tokens as alone, with mask (gap < 1e-6):", masked_gap < 1e-6)  # rounding
print("real tokens as alone, without (gap < 1e-6):", unmasked_gap < 1e-6)  # sets digits
print("all logits finite:", pad_finite)
print("transformers", version := transformers.__version__)
