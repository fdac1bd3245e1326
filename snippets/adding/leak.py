import torch

dtypes = [torch.float32, torch.float16, torch.bfloat16]
names = [str(d).removeprefix("torch.") for d in dtypes]
gaps = torch.arange(0, 20001.0)  # [PAD] score minus the best real score
threshold, logit, weight = [], [], []

for dtype in dtypes:
    fill = torch.tensor(-1e4).to(dtype)
    g = gaps.to(dtype)
    # one real key at score 0 and one [PAD] key at score g, masked with -1e4
    x = torch.stack([torch.zeros_like(g), g + fill], dim=-1)
    w = torch.softmax(x, dim=-1)[:, 1]  # weight that leaks to [PAD]
    first = (w > 0).nonzero()[0, 0]  # the smallest gap with a nonzero leak
    threshold.append(g[first].item())
    logit.append(x[first, 1].item())
    weight.append(w[first].item())

for row in zip(names, threshold, logit, weight):
    print("{:>9}: leaks from gap {:g} (masked logit {:g}, weight {:.3g})".format(*row))
