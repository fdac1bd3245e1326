import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch
from torch.autograd.functional import jacobian

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

base = torch.tensor([1.0, 0.5, 0.0, -0.5], dtype=torch.float64)
scales = [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]  # larger: more peaked
p_max, norms, formula_gap = [], [], []
for s in scales:
    z = s * base
    p = torch.softmax(z, dim=-1)
    J = jacobian(lambda x: torch.softmax(x, dim=-1), z)
    formula = torch.diag(p) - torch.outer(p, p)
    p_max.append(p.max().item())
    norms.append(torch.linalg.matrix_norm(J, ord=2).item())  # largest gain
    formula_gap.append((J - formula).abs().max().item())
    print(f"scale {s:4g}: max p = {p_max[-1]:.6f}, ||J||_2 = {norms[-1]:.3e}")
print("max |autograd - formula| over all scales:", max(formula_gap))

fig, ax = plt.subplots(figsize=(6.0, 3.8))
away = [1 - m for m in p_max]  # how far the largest weight is from 1
ax.plot(scales[1:], norms[1:], color="#0072B2", marker="o", label="‖J‖ (Jacobian size)")
ax.plot(scales[1:], away[1:], color="#D55E00", linestyle="--",
        marker="s", label="1 − largest probability")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
powers = range(-14, 1, 2)
sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")  # plain text: DejaVu superscripts
ax.set_yticks([10.0**k for k in powers], [f"10{str(k).translate(sup)}" for k in powers],
              fontfamily="DejaVu Sans")
ax.set_xticks(scales[1:], [f"{s:g}" for s in scales[1:]])
ax.set_xlabel("scale applied to the scores (size of the gaps)")
ax.set_ylabel("value (log scale)")
ax.set_title("The more peaked the softmax, the smaller the Jacobian")
ax.legend()
plt.tight_layout()
plt.show()
