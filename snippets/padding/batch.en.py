import torch

sentences = ["Spring arrived", "I walk slowly every day", "The cat sleeps"]
tokens = [s.split() for s in sentences]  # one token per word, to keep it readable
lengths = torch.tensor([len(t) for t in tokens])
L = int(lengths.max())
padded = [t + ["[PAD]"] * (L - len(t)) for t in tokens]  # fill up to the longest
for row in padded:
    print(row)

vocab = {"[PAD]": 0}  # id 0 is reserved for [PAD]
for w in [w for t in tokens for w in t]:
    vocab.setdefault(w, len(vocab))
ids = torch.tensor([[vocab[w] for w in row] for row in padded])
print("ids:", ids.shape)
print(ids)

keep = ids != vocab["[PAD]"]  # True = real token (from the ids)
from_lengths = torch.arange(L) < lengths[:, None]  # the same mask from the lengths
print("keep:", keep.shape)
print(keep)
same = torch.equal(keep, from_lengths)
print("ids != pad_id equals arange(L) < lengths:", same)
