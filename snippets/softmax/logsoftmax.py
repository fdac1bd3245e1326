import torch
import torch.nn.functional as F

z = torch.tensor([0.0, -50.0, -120.0])
log_of_softmax = torch.log(torch.softmax(z, dim=-1))  # exp(-120) underflowed: log(0)
log_softmax = torch.log_softmax(z, dim=-1)
by_hand = z - torch.logsumexp(z, dim=-1)  # log softmax(z) = z - LSE(z)
print("log(softmax(z)): ", log_of_softmax.tolist())
print("log_softmax(z):  ", log_softmax.tolist())
print("z - logsumexp(z):", by_hand.tolist())

# the loss -log p[2] (the target is the third entry) and its gradient
target = 2
ways = {
    "log(softmax)": lambda x: torch.log(torch.softmax(x, dim=-1)),
    "log_softmax": lambda x: torch.log_softmax(x, dim=-1),
}
losses, grads = [], []
for name, f in ways.items():
    x = z.clone().requires_grad_()
    loss = -f(x)[target]
    loss.backward()
    losses.append(loss.item())
    grads.append(x.grad.tolist())
    print(f"{name}: loss {losses[-1]}, gradient {grads[-1]}")

ce = F.cross_entropy(z[None], torch.tensor([target]))  # takes scores, not softmax
print("F.cross_entropy:", ce.item())
