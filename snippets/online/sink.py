from types import SimpleNamespace
import torch
from transformers.models.gpt_oss.modeling_gpt_oss import eager_attention_forward

# gpt-oss's sink logit, one per head, against a merge with a virtual key
torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, n, 4) for n in (3, 5, 5))
sink = torch.tensor([0.5, -1.0])  # a learned logit per head, in the denominator only
mask = torch.zeros(3, 5).masked_fill(torch.ones(3, 5, dtype=torch.bool).triu(1),
                                     -torch.inf)  # causal, as an additive mask
layer = SimpleNamespace(num_key_value_groups=1, sinks=sink, training=False)
hf, _ = eager_attention_forward(layer, q, k, v, mask, scaling=4**-0.5)  # (B, L, H, d)
flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu  # -> (out, lse)
out, lse = flash(q, k, v, attn_mask=mask)
# the virtual key: output 0 (its value is 0), lse = the sink logit; merge the two
sink_lse = sink[None, :, None].expand_as(lse)
total = torch.logaddexp(lse, sink_lse)
w_real = torch.exp(lse - total)[..., None]  # the real keys' share of the sum
w_sink = torch.exp(sink_lse - total)[..., None]  # the sink's share
merged = w_real * out + w_sink * torch.zeros_like(out)  # the sink's share goes nowhere
gap = (merged.transpose(1, 2) - hf).abs().max().item()
print(f"max |merge with a virtual key - gpt-oss eager|: {gap:.1e}")
print("the real keys' share, head 0:", [f"{x:.4f}" for x in w_real[0, 0, :, 0]])
