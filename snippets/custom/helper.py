import torch
import transformers
from transformers.masking_utils import create_causal_mask


def to_hf_mask(keep, impl, dtype=torch.float32):
    """keep (B, 1, Q, K) bool, True = the query sees the key, as impl's 4-D mask:
    bool for "sdpa", additive (0 or finfo(dtype).min) for "eager"."""
    if not isinstance(keep, torch.Tensor) or keep.dtype != torch.bool:
        raise ValueError(f"keep must be bool, got {getattr(keep, 'dtype', keep)}")
    if keep.dim() != 4 or keep.shape[1] != 1:
        raise ValueError(f"keep must be (B, 1, Q, K), got {tuple(keep.shape)}")
    if not keep.any(-1).all():
        raise ValueError("every query must see at least one key")
    if impl == "sdpa":
        return keep
    if impl == "eager":
        return torch.zeros(keep.shape, dtype=dtype).masked_fill(
            ~keep, torch.finfo(dtype).min)
    raise ValueError(f"impl must be 'sdpa' or 'eager', got {impl!r}")


# --- demo: a prefix-LM keep grid via to_hf_mask, against create_causal_mask ---
torch.manual_seed(0)
ids = torch.randint(1, 32, (2, 6))
q, kv = torch.arange(6)[:, None], torch.arange(6)
keep = ((kv <= q) | (kv < 3)).expand(2, 1, 6, 6)
gap = {}
for impl in ["eager", "sdpa"]:
    config = transformers.LlamaConfig(
        vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, attn_implementation=impl)
    model = transformers.LlamaForCausalLM(config).eval()
    built = create_causal_mask(config, torch.zeros(2, 6, 16), None, None,
                               or_mask_function=lambda b, h, q, kv: kv < 3)
    with torch.no_grad():
        out = [model(ids, attention_mask=m).logits
               for m in (to_hf_mask(keep, impl), built)]
    gap[impl] = (out[0] - out[1]).abs().max().item()
print({impl: g < 1e-6 for impl, g in gap.items()})
