import torch


def attend(q, k, v, grad_out, divisor):
    """Weights softmax(q k^T / divisor), and the gradient's norm on each query row."""
    if not 0 < divisor < float("inf"):  # 0/nan: nan weights, < 0: flips, inf: uniform
        raise ValueError(f"divisor must be a positive finite number, got {divisor}")
    q = q.clone().requires_grad_()
    w = torch.softmax(q @ k.transpose(-2, -1) / divisor, dim=-1)
    (w @ v).backward(grad_out)
    return w.detach(), q.grad.norm(dim=-1)  # weights, push on each query


# --- demo ---
torch.manual_seed(0)  # the scaling chapter's big tensor: (30, 1024), U(-3, 3)
length, d_k = 30, 1024
a = torch.empty(length, d_k).uniform_(-3, 3)  # queries
b = torch.empty(length, d_k).uniform_(-3, 3)  # keys
v = torch.randn(length, 16)  # values
g = torch.randn(length, 16)  # the gradient a loss would send back
wrong, wrong_push = attend(a, b, v, g, 1.0)  # forgot to scale
fixed, fixed_push = attend(a, b, v, g, d_k**0.5)
top = [w.max(dim=-1).values for w in (wrong, fixed)]  # largest weight per row
mean_top = [t.mean().item() for t in top]
sharp, still = 0.99, 1e-6  # sharp row: top weight above; frozen query: push below
sharp_rows = [int((t > sharp).sum()) for t in top]
frozen = [int((p < still).sum()) for p in (wrong_push, fixed_push)]
for i, name in enumerate(["QK^T", "QK^T / sqrt(d_k)"]):
    print(f"{name}: mean largest weight {mean_top[i]:.4f}, rows above {sharp}: "
          f"{sharp_rows[i]}, frozen queries: {frozen[i]} of {length}")
