import torch
import transformers
from transformers.masking_utils import and_masks, create_causal_mask, or_masks


def prefix(n):  # mask function: the first n keys, seen by every query
    return lambda b, h, q, kv: kv < n


def same_document(doc):  # mask function: query and key in one document; doc (B, L)
    return lambda b, h, q, kv: doc[b, q] == doc[b, kv]


def rows(keep):  # a keep grid (Q, K) as text: ■ the key takes part, ⬚ masked
    return ["".join("■" if x else "⬚" for x in row) for row in keep.tolist()]


# --- demo: prefix-LM and two documents, through create_causal_mask ---
doc = torch.tensor([[0, 0, 0, 1, 1, 1]])
config = transformers.LlamaConfig(attn_implementation="sdpa")
masks = {name: create_causal_mask(config, torch.zeros(1, 6, 8), None, None, **kw)[0, 0]
         for name, kw in {
             "or: prefix 3": {"or_mask_function": prefix(3)},
             "and: documents": {"and_mask_function": same_document(doc)},
             "or and and": {"or_mask_function": prefix(3),
                            "and_mask_function": same_document(doc)}}.items()}
q, kv = torch.arange(6)[:, None], torch.arange(6)
causal = kv <= q  # the dense references, written out
dense = {"or: prefix 3": causal | (kv < 3),
         "and: documents": causal & (doc[0, q] == doc[0, kv]),
         "or and and": (causal | (kv < 3)) & (doc[0, q] == doc[0, kv])}
equal = {name: bool(masks[name].equal(dense[name])) for name in masks}
and_first = (causal & (doc[0, q] == doc[0, kv])) | (kv < 3)  # the other order
order_matters = not and_first.equal(masks["or and and"])
for name, keep in masks.items():
    print(name, keep.dtype, "equals the dense reference:", equal[name])
    print(*rows(keep), sep="\n")
print("and first, then or:", *rows(and_first), sep="\n")
