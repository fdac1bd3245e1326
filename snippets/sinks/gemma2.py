import torch
import transformers  # the models are built from configs: nothing is downloaded
from transformers.masking_utils import eager_mask


def capped(module, q, k, v, mask, scaling, softcap=None, cap_last=False, **kwargs):
    """Cap, then mask (additive: 0 or min), as Gemma 2; cap_last: the wrong order."""
    k = k.repeat_interleave(module.num_key_value_groups, 1)  # grouped heads
    v = v.repeat_interleave(module.num_key_value_groups, 1)
    scores = q @ k.mT * scaling + (mask if cap_last else 0)
    if softcap is not None:  # None: no cap, as in Gemma2Config
        scores = softcap * torch.tanh(scores / softcap)
    scores = scores if cap_last else scores.masked_fill(mask < 0, -torch.inf)
    return (scores.softmax(-1) @ v).transpose(1, 2), None  # (B, L, H, d)


# --- demo: a tiny Gemma 2, random weights, 2 layers, 7 tokens; cap 1 or None ---
for name, fn in {"capped": capped,
                 "cap_last": lambda *a, **kw: capped(*a, **kw, cap_last=True)}.items():
    transformers.AttentionInterface.register(name, fn)
    transformers.AttentionMaskInterface.register(name, eager_mask)  # never None
torch.manual_seed(0)
config = dict(vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
              num_attention_heads=2, num_key_value_heads=1, head_dim=8,
              initializer_range=1.0, attn_implementation="eager")  # large scores
models = {cap: transformers.Gemma2ForCausalLM(transformers.Gemma2Config(
    **config, attn_logit_softcapping=cap)).eval() for cap in (1.0, None)}
models[None].load_state_dict(models[1.0].state_dict())  # the same weights
ids, logits = torch.randint(0, 32, (1, 7)), {}
names = ("eager", "capped", "cap_last")
for (cap, model), name in [(m, n) for m in models.items() for n in names]:
    model.set_attn_implementation(name)
    logits[name, cap] = model(ids).logits.detach()
gap = {(name, cap): (logits[name, cap] - logits["eager", cap]).abs().max().item()
       for name, cap in logits if name != "eager"}  # against eager, the same cap
cap_acts = (logits["eager", 1.0] - logits["eager", None]).abs().max().item()
print(*(f"{n}, cap {c}: < 1e-6 {g < 1e-6}" for (n, c), g in gap.items()), sep="\n")
print(f"cap 1 against None (no cap), gap > 1e-3: {cap_acts > 1e-3}")
