import torch
from torch.autograd.functional import jacobian


def softmax_jacobian(p):
    """d p_i / d z_j = p_i (delta_ij - p_j), i.e. diag(p) - p p^T, on the last axis."""
    return torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)


# --- demo ---
z = torch.tensor([2.0, 1.0, 0.1], dtype=torch.float64)
p = torch.softmax(z, dim=-1)
J_auto = jacobian(lambda x: torch.softmax(x, dim=-1), z)  # autograd, column by column
J_formula = softmax_jacobian(p)
max_diff = (J_auto - J_formula).abs().max().item()
torch.set_printoptions(precision=4)
print("p:", p)
print(J_auto)
print("max |autograd - formula|:", max_diff)

symmetric = torch.equal(J_formula, J_formula.T)
row_sums = J_formula.sum(dim=-1)  # 0: shifting every z_j together changes nothing
print("symmetric:", symmetric, " row sums:", row_sums.tolist())

# backward never builds J: the gradient is p * (g - <g, p>)
g = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)  # upstream gradient
x = z.clone().requires_grad_()
torch.softmax(x, dim=-1).backward(g)
vjp = p * (g - (g * p).sum())
vjp_matches = torch.allclose(x.grad, vjp) and torch.allclose(x.grad, J_formula.T @ g)
print("backward:", x.grad.tolist(), " p * (g - <g, p>) matches:", vjp_matches)
