import torch

z = torch.tensor([1000.0, 999.0, 998.0])
naive_lse = torch.log(torch.exp(z).sum())  # exp(1000) = inf, so log(inf) = inf
m = z.max()
by_hand = m + torch.log(torch.exp(z - m).sum())  # m + log(sum of numbers <= 1)
lse = torch.logsumexp(z, dim=-1)
print("log(sum(exp(z))):", naive_lse.item())
print("m + log(sum(exp(z - m))):", by_hand.item())
print("torch.logsumexp:", lse.item())

# log-sum-exp is a smooth maximum: max(z) <= LSE(z) <= max(z) + log(n)
gap_to_max = (lse - m).item()
print("LSE - max:", gap_to_max, " log(n):", torch.log(torch.tensor(3.0)).item())

# and its gradient is softmax: the name "soft(arg)max"
x = torch.tensor([3.0, 2.0, 1.0], requires_grad=True)
torch.logsumexp(x, dim=-1).backward()
grad_is_softmax = torch.allclose(x.grad, torch.softmax(x.detach(), dim=-1))
print("d LSE / dz:", x.grad.tolist(), " equals softmax:", grad_is_softmax)
