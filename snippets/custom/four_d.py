import torch
import transformers

# 4-D masks of each kind through a tiny Llama, against its built-in mask

torch.manual_seed(0)
ids = torch.randint(1, 32, (2, 6))
keep = torch.ones(2, 1, 6, 6, dtype=torch.bool).tril()  # True: the query sees the key
masks = {"bool keep": keep, "bool (1, 1, Q, K)": keep[:1],
         "additive, finfo.min": torch.zeros(keep.shape).masked_fill(
             ~keep, torch.finfo(torch.float32).min),
         "additive, -inf": torch.zeros(keep.shape).masked_fill(~keep, -torch.inf),
         "float 0/1 keep": keep.float(),
         "int64 0/1 keep": keep.long(),
         "bool (B, 1, Q, K + 1)": torch.ones(2, 1, 6, 7, dtype=torch.bool).tril(),
         "bool 3-D (B, Q, K)": keep[:, 0]}
found = {}
for impl in ["eager", "sdpa"]:
    model = transformers.LlamaForCausalLM(transformers.LlamaConfig(
        vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, attn_implementation=impl)).eval()
    with torch.no_grad():
        built_in = model(ids).logits
        for name, mask in masks.items():
            try:
                gap = (model(ids, attention_mask=mask).logits - built_in).abs().max()
                found[impl, name] = "same" if gap < 1e-6 else "differs"
            except RuntimeError as error:  # torch's shape and dtype checks
                found[impl, name] = type(error).__name__
for (impl, name), outcome in found.items():
    print(f"{impl:>5}, {name}: {outcome}")
