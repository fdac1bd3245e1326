import koreanize_matplotlib  # noqa: F401  (registers the NanumGothic font)
import matplotlib.pyplot as plt
import torch

plt.rcParams["font.family"] = ["NanumGothic", "DejaVu Sans"]  # DejaVu: minus sign
plt.rcParams["axes.unicode_minus"] = True

S_real = torch.tensor([[2.0, 0.0, -1.0], [0.5, 1.0, -0.5], [-1.0, -2.5, -0.5]])
n_pad = 2  # two [PAD] keys, whose scores multiplied by 0 are 0
shifts = torch.arange(-40, 41) / 10  # add c = -4.0 ... 4.0 to every real score
# share of [PAD] after x0: n_pad * e^0 / (n_pad * e^0 + sum of e^(s + c))
real = torch.exp(S_real[None] + shifts[:, None, None]).sum(dim=-1)
share = n_pad / (n_pad + real)  # (shifts, rows)
at = {c: share[shifts == c][0] for c in (-2.0, 0.0, 2.0)}
for c, s in at.items():
    print(f"[PAD] share at c = {c:+.0f}:", [round(x, 4) for x in s.tolist()])

fig, ax = plt.subplots(figsize=(6, 3.8))
styles = [("#0072B2", "-", "o"), ("#D55E00", "--", "s"), ("#009E73", ":", "^")]
for row, name, (color, ls, marker) in zip(share.T, ["나는", "학교에", "간다"], styles):
    ax.plot(shifts, row, color=color, ls=ls, marker=marker, markevery=10,
            label=f"'{name}' 줄 (0 곱하기)")
ax.axhline(0, color="#000000", lw=1.5, label="−∞ 더하기 (언제나 0)")
ax.set_xlabel("진짜 토큰의 점수에 모두 더한 값 c")
ax.set_ylabel("[PAD] 두 칸의 가중치 합")
ax.set_title("0을 곱하면 [PAD]의 몫이 점수의 높낮이에 달린다")
ax.set_ylim(-0.03, 1.0)
ax.legend(fontsize=9)
plt.tight_layout()
plt.show()
