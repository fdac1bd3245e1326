import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

fig, (left, right) = plt.subplots(1, 2, figsize=(7.2, 3.6))
x = torch.linspace(-4, 2.2, 400, dtype=torch.float64)
left.plot(x, torch.exp(x), color="#0072B2", lw=2, label="$e^x$")
left.axhline(0, color="#000000", ls="--", lw=1, label="$y = 0$ (never reached)")
left.plot([0], [1], "o", color="#D55E00", ms=7)
left.annotate("$e^0 = 1$", (0, 1), xytext=(-3.6, 2.5), arrowprops={"arrowstyle": "->"})
left.set(title="Real numbers: always positive", xlabel="$x$", ylim=(-0.6, 9))
left.legend(loc="upper left", bbox_to_anchor=(0, 0.85))

z64 = torch.linspace(-120, 0, 4801, dtype=torch.float64)
right.semilogy(z64, torch.exp(z64), color="#000000", lw=1, label="float64 (reference)")
styles = {torch.float32: ("#0072B2", "-", "o"), torch.bfloat16: ("#E69F00", "--", "s"),
          torch.float16: ("#009E73", ":", "^")}
zero_from = {}
for dtype, (color, ls, marker) in styles.items():
    z = z64.to(dtype)  # the inputs as this dtype stores them
    e = torch.exp(z).double()
    zero_from[dtype] = z[e == 0].max().item()  # from here down, exp is exactly 0
    name = str(dtype).removeprefix("torch.")
    edge = f"{zero_from[dtype]:.1f}".replace("-", "\u2212")
    kept = e > 0
    right.semilogy(z[kept].double(), e[kept], color=color, ls=ls, lw=2.5, marker=marker,
                   markevery=[0], label=f"{name}: 0 from {edge} down")
    right.axvline(zero_from[dtype], color=color, ls=ls, lw=1)
right.set(title="Floating point: exact zeros", xlabel="$z$", ylim=(1e-48, 1e3))
ticks = [-45, -30, -15, 0]  # math text: real minus signs in the exponents
right.set_yticks([10.0**t for t in ticks], [f"$10^{{{t}}}$" for t in ticks])
right.minorticks_off()
right.legend(loc="lower right", fontsize=8)
plt.tight_layout()
print({str(d).removeprefix("torch."): z for d, z in zero_from.items()})
plt.show()
