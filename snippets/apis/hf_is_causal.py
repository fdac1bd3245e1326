import os

os.environ["HF_HUB_OFFLINE"] = "1"  # the masks need only a config: no download
import torch
import torch.nn.functional as F
import transformers
from torch.nn.attention import SDPBackend
from transformers.cache_utils import StaticCache
from transformers.masking_utils import create_causal_mask, sdpa_mask

config = transformers.LlamaConfig(hidden_size=16, num_attention_heads=2,
                                  num_hidden_layers=1, attn_implementation="sdpa")
ones, embeds = torch.ones(1, 3, dtype=torch.long), torch.zeros(1, 3, 16)
build = lambda mask_2d, cache=None: create_causal_mask(  # noqa: E731
    config=config, inputs_embeds=embeds, attention_mask=mask_2d,
    past_key_values=cache, position_ids=torch.arange(3)[None])
returned = {"no [PAD]": build(ones), "a left [PAD]": build(torch.tensor([[0, 1, 1]])),
            "static cache, prefill": build(ones, StaticCache(config, max_cache_len=8))}
none = {name: mask is None for name, mask in returned.items()}
# the static-cache prefill: 3 queries, 8 key slots of which the last 5 are empty
slots = torch.tensor([[True] * 3 + [False] * 5])
spelled = sdpa_mask(batch_size=1, q_length=3, kv_length=8, attention_mask=slots,
                    allow_is_causal_skip=False)[0, 0]  # the mask None stands for
top_left = bool(spelled.equal(torch.ones(3, 8, dtype=torch.bool).tril()))
g = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(1, 2, n, 8, generator=g) for n in (3, 8, 8))
by_flag = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # top-left
gap = (by_flag - F.scaled_dot_product_attention(q, k, v, attn_mask=spelled)).abs().max()
kernel = {how: SDPBackend(torch._fused_sdp_choice(q, k, v, **kw)).name
          for how, kw in (("is_causal", {"is_causal": True}),
                          ("attn_mask", {"attn_mask": spelled}))}  # on this CPU
print(*(f"{name}: mask is None: {n}" for name, n in none.items()), sep="\n")
print("None stands for the top-left causal mask:", top_left,
      f"| is_causal vs that mask: {gap.item():.1e}")
print("CPU kernel:", kernel)
