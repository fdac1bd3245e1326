import torch

z = torch.tensor([0.3, -1.2, 2.5, 0.9])
p = torch.softmax(z, dim=-1)
shifts = [-50.0, -3.0, 0.0, 3.0, 50.0, 1000.0]
shifted = torch.stack([torch.softmax(z + c, dim=-1) for c in shifts])
max_diff = (shifted - p).abs().amax(dim=-1)  # 0 in exact arithmetic

torch.set_printoptions(precision=4, sci_mode=False)
for c, q, d in zip(shifts, shifted, max_diff):
    print(f"c = {c:7.1f}:", q, f"max |diff| = {d:.1e}")

# z + 1000 is rounded to float32: the low bits of z are lost
lost = ((z + 1000.0) - 1000.0 - z).abs().max()
print("rounding of z + 1000:", lost.item())

doubled = torch.softmax(2 * z, dim=-1)  # scaling is NOT harmless
print("softmax(2z):", doubled)
