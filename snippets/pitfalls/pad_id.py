import torch

eos = pad = 2  # no separate [PAD] token: the end-of-sentence id pads as well
lengths = torch.tensor([4, 2, 3])  # every sentence ends with its own EOS
ids = torch.tensor([
    [15, 27, 31, eos],
    [44, eos, pad, pad],
    [19, 52, eos, pad],
])
L = ids.shape[1]

wrong = ids != pad  # also hides the real EOS at the end of every sentence
fixed = torch.arange(L) < lengths[:, None]  # from the lengths (or the tokenizer)
print("ids != pad:", wrong.int(), sep="\n")
print("from lengths:", fixed.int(), sep="\n")
hidden_real = int((fixed & ~wrong).sum())  # real tokens the first mask hides
print("real tokens hidden by ids != pad:", hidden_real)
