import torch

torch.set_printoptions(precision=4)
scores = torch.tensor([[0.5, -1.0, 2.0],
                       [1.0, 3.0, -2.0]])  # two query rows, three keys
hide = torch.tensor([[False, True, False],
                     [True, True, True]])  # second row: every key hidden
fills = {"-inf": float("-inf"), "-1e9": -1e9,
         "finfo.min": torch.finfo(torch.float32).min}
rows = {}
for name, fill in fills.items():
    rows[name] = torch.softmax(scores.masked_fill(hide, fill), dim=-1)[1]
    print(f"{name:>9}:", rows[name])

# the NaN row flows on: out = w @ v, then the loss, then the gradients
v = torch.randn(3, 4, generator=torch.Generator().manual_seed(0), requires_grad=True)
w = torch.softmax(scores.masked_fill(hide, float("-inf")), dim=-1)
out = w @ v  # (2, 4): the second row is NaN
loss = out.mean()
loss.backward()
print("loss:", loss.item())
print("NaN in v.grad:", int(v.grad.isnan().sum()), "of", v.numel())

half_fill = torch.tensor(-1e9).half()  # -1e9 does not fit in float16
print("-1e9 in float16:", half_fill.item())
lowest = torch.tensor(torch.finfo(torch.float32).min)
print("finfo.min + finfo.min:", (lowest + lowest).item())  # two additive masks summed
