import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch
import transformers

# a tiny MiniMax, random weights: layer 0 lightning (linear), layer 1 softmax
config = transformers.MiniMaxConfig(
    vocab_size=32, hidden_size=16, intermediate_size=16, num_hidden_layers=2,
    num_attention_heads=2, num_key_value_heads=2, head_dim=8, num_local_experts=2,
    num_experts_per_tok=1, block_size=3, attn_implementation="eager",
    layer_types=["linear_attention", "full_attention"])
torch.manual_seed(0)
model = transformers.MiniMaxForCausalLM(config).eval()
ids = torch.randint(0, 32, (1, 10))
lightning, seen = model.model.layers[0].self_attn, {}
lightning.register_forward_hook(
    lambda m, args, kwargs, out: seen.update(h=kwargs["hidden_states"], out=out[0]),
    with_kwargs=True)
changed = ids.clone()
changed[0, 7] = (ids[0, 7] + 1) % 32  # a different token 7
with torch.no_grad():
    logits, after = model(ids).logits, model(changed).logits
    q, k, v = lightning.act_fn(lightning.qkv_proj(seen["h"])).view(1, 10, 2, 24) \
        .transpose(1, 2).split(8, -1)
    i = torch.arange(10)
    gap_ij = (i[:, None] - i[None, :]).clamp(min=0)  # exp(-s (i - j)), 0 for j > i
    decay = torch.exp(-lightning.slope_rate * gap_ij) * (i[:, None] >= i[None, :])
    dense = (q @ k.mT * decay) @ v  # the masked dense form: an L x L matrix
    dense = dense.transpose(1, 2).reshape(1, 10, 16)
    gate = torch.sigmoid(lightning.output_gate(seen["h"]))
    dense = lightning.out_proj(gate * lightning.norm(dense))
    layer_gap = (dense - seen["out"]).abs().max().item()
before = (logits[:, :7] - after[:, :7]).abs().max().item()
later = (logits[:, 7:] - after[:, 7:]).abs().max().item()
print(type(lightning).__name__, "blocks of", config.block_size)
print(f"lightning layer vs. masked dense form, gap < 1e-6: {layer_gap < 1e-6}")
print(f"token 7 changed: logits 0-6 unchanged (< 1e-6) {before < 1e-6},",
      f"7-9 changed (> 1e-3) {later > 1e-3}")
