import torch
import torch.nn.functional as F

z = torch.tensor([0.0, -50.0, -120.0])  # scores (logits); the target is entry 2
target = torch.tensor([2])
ways = {
    "log(softmax(z))": lambda x: torch.log(torch.softmax(x, dim=-1)),  # log(0)
    "log_softmax(z)": lambda x: torch.log_softmax(x, dim=-1),  # z - logsumexp(z)
}
logp, losses, grads = [], [], []
for name, f in ways.items():
    x = z.clone().requires_grad_()
    out = f(x)
    loss = -out[2]  # -log p[target]
    loss.backward()
    logp.append(out.tolist())
    losses.append(loss.item())
    grads.append(x.grad.tolist())
    print(f"{name}: {logp[-1]}, loss {losses[-1]}, gradient {grads[-1]}")

# F.cross_entropy applies log_softmax itself: give it scores, not probabilities
fixed_ce = F.cross_entropy(z[None], target).item()
wrong_ce = F.cross_entropy(torch.softmax(z, dim=-1)[None], target).item()
# probabilities lie in [0, 1]: even a perfect one-hot cannot push the loss lower
floor = F.cross_entropy(torch.tensor([[0.0, 0.0, 1.0]]), target).item()
print("cross_entropy(scores):       ", fixed_ce)
print("cross_entropy(probabilities):", wrong_ce, " lowest possible:", floor)
