import torch
import transformers  # the model is built from a config: nothing is downloaded
from transformers.masking_utils import eager_mask
from transformers.models.diffllama import modeling_diffllama


def spy(module, q, k, v, mask, scaling, **kwargs):  # records, then runs eager
    module.calls = getattr(module, "calls", []) + [(q, k, v)]  # q, k after RoPE
    return modeling_diffllama.eager_attention_forward(module, q, k, v, mask, scaling)


# --- demo: a tiny DiffLlama, random weights; 4 heads = 2 pairs of maps, 7 tokens ---
transformers.AttentionInterface.register("spy", spy)
transformers.AttentionMaskInterface.register("spy", eager_mask)
config = transformers.DiffLlamaConfig(
    vocab_size=32, hidden_size=32, intermediate_size=32, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=4, head_dim=8, attn_implementation="spy")
torch.manual_seed(0)
model = transformers.DiffLlamaForCausalLM(config).eval()
ids, attn = torch.randint(0, 32, (1, 7)), model.model.layers[0].self_attn
out = {}
attn.register_forward_hook(lambda m, args, o: out.update(layer=o[0]))
with torch.no_grad():
    model(ids)
    (q, k, v1), (_, _, v2) = attn.calls  # two calls: the same q, k; v's two halves
    keep = torch.ones(7, 7, dtype=torch.bool).tril()
    a1, a2 = ((q[:, h] @ k[:, h].mT * attn.scaling).masked_fill(~keep, -torch.inf)
              .softmax(-1) for h in (slice(0, 2), slice(2, 4)))
    lam = (attn.lambda_q1 @ attn.lambda_k1).exp() - (attn.lambda_q2 @ attn.lambda_k2) \
        .exp() + attn.lambda_init
    mine = (a1 - lam * a2) @ torch.cat([v1[:, :2], v2[:, :2]], -1)  # (1, 2, 7, 16)
    mine = attn.o_proj((1 - attn.lambda_init) * attn.groupnorm(mine.transpose(1, 2))
                       .reshape(1, 7, 32))
    gap = (mine - out["layer"]).abs().max().item()
print(f"layer 0, formula vs. DiffLlamaAttention: gap < 1e-6 {gap < 1e-6}")
