import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

torch.manual_seed(0)
dks = [4, 16, 64, 256, 1024]
n_keys = 8  # one query against eight keys
keys = range(1, n_keys + 1)
for d_k in dks:  # one figure per d_k: the page's slider moves among them
    q = torch.randn(d_k, dtype=torch.float64)  # float64: same bars on every CPU
    k = torch.randn(n_keys, d_k, dtype=torch.float64)
    raw = torch.softmax(k @ q, dim=-1)
    scaled = torch.softmax(k @ q / d_k**0.5, dim=-1)
    print(f"d_k = {d_k:4d}: max weight {raw.max():.4f} raw, {scaled.max():.4f} scaled")
    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    x = torch.arange(float(n_keys))
    ax.bar(x - 0.2, raw.numpy(), 0.4, color="#D55E00", label="나누지 않음")
    ax.bar(x + 0.2, scaled.numpy(), 0.4, color="#0072B2", hatch="//",
           edgecolor="white", label=r"$\sqrt{d_k}$로 나눔")
    ax.set_xticks(x, [f"키 {j}" for j in keys])
    ax.set_ylim(0, 1.3)  # room above the bars for the legend
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.set_ylabel("어텐션 가중치")
    ax.set_title(rf"$d_k = {d_k}$")
    ax.legend(loc="upper center", ncol=2)
    plt.tight_layout()
    plt.show()
