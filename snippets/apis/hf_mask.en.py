import os

os.environ["HF_HUB_OFFLINE"] = "1"  # nothing to download: the masks need only a config
import torch
import torch.nn.functional as F
import transformers
from transformers.masking_utils import create_causal_mask, sdpa_mask

S = torch.tensor([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
S4 = S[[2, 2, 0, 1]]  # probe rows; the two left-padded queries get the all-masked row
mask_2d = torch.tensor([[1, 1, 2, 0], [0, 0, 1, 1]])  # a 2, and two left [PAD]s
build = lambda impl, m, dtype=torch.float32: create_causal_mask(  # (B, 1, L, L)
    config=transformers.LlamaConfig(hidden_size=16, num_attention_heads=2,
                                    attn_implementation=impl),
    inputs_embeds=torch.zeros(2, 4, 16, dtype=dtype), attention_mask=m,
    past_key_values=None)[:, 0]
sdpa, eager = build("sdpa", mask_2d), build("eager", mask_2d)
eager16 = build("eager", mask_2d, torch.float16)  # 0 = attend, finfo(float16).min = not
as_int = {"int": mask_2d, "bool": mask_2d > 0, "float": mask_2d * 0.5}
kinds = [k for k, m in as_int.items() if build("eager", m).equal(eager)]
w_sdpa = F.scaled_dot_product_attention(S4, 2 * torch.eye(4), torch.eye(4), sdpa[1])
w_eager = torch.softmax(S4.half() + eager16[1], -1, dtype=torch.float32)  # as Llama
kind = lambda r: "0" if r.eq(0).all() else "uniform" if r.std() < 1e-3 else "?"  # a row
offsets = (0, 1, 2)  # queries start at this position: tokens already in the cache
corner = [sdpa_mask(batch_size=1, q_length=2, kv_length=4, q_offset=offset,
                    allow_is_causal_skip=False)[0, 0] for offset in offsets]
names = {"top-left": torch.ones(2, 4).tril(), "bottom-right": torch.ones(2, 4).tril(2)}
align = [next((n for n, t in names.items() if t.equal(c.float())), "neither")
         for c in corner]
rows = [("HF `attention_mask` (2-D)",
         "nonzero = attend" if eager[0, 2, 2] == 0 else "?", "/".join(kinds),
         "read as bool" if "float" in kinds else "?",
         f"sdpa {kind(w_sdpa[0])}, eager {kind(w_eager[0])}",
         "; ".join(f"q_offset={o}: {a}" for o, a in zip(offsets, align)),
         f"{eager16.min().item():g}")]
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*rows[0], sep=" | ")
print("transformers", version := transformers.__version__)
