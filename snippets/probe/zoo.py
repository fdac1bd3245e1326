import torch
import transformers


@torch.no_grad()
def first_leak(model, ids, tol=1e-6, last_only=False):
    """(i, j): the first output i < j that moved by more than tol when token j was
    replaced (by 0; by 1 where it was 0), or None. model: ids (1, L) -> (1, L, ...)."""
    if ids.dim() != 2 or ids.shape[0] != 1 or ids.shape[1] < 2 or not tol > 0:
        raise ValueError(f"need ids (1, L >= 2), tol > 0; got {list(ids.shape)}, {tol}")
    L, leaks, base = ids.shape[1], [], model(ids)
    if tuple(getattr(base, "shape", ()))[:2] != (1, L) or not (
            base.isfinite().all() and base.equal(model(ids))):
        raise ValueError(f"need finite outputs (1, {L}, ...), equal on a second call")
    for j in [L - 1] if last_only else range(1, L):  # last_only: the cheap check
        other = ids.clone()
        other[0, j] = int(ids[0, j] == 0)
        gap = (model(other) - base).abs().reshape(L, -1).amax(-1)
        leaks += [(i, j) for i in range(j) if not gap[i] <= tol]  # nan: moved
    return min(leaks, default=None)


# --- demo: tiny random decoders, two attention implementations each ---
torch.manual_seed(0)
ids, found = torch.randint(1, 32, (1, 8)), {}
for family in ["llama", "mistral", "qwen2", "gpt2"]:
    config = transformers.AutoConfig.for_model(
        family, vocab_size=32, hidden_size=16, intermediate_size=32, n_inner=32,
        num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
        bos_token_id=0, eos_token_id=0)
    for impl in ["eager", "sdpa"]:
        model = transformers.AutoModelForCausalLM.from_config(
            config, attn_implementation=impl).eval()  # eval: dropout off
        name = type(model).__name__
        found[name, impl] = first_leak(lambda x: model(x).logits, ids)
        print(f"{name} ({impl}): {found[name, impl]}")
