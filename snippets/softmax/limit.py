import torch

rest = torch.tensor([2.0, 1.0, 0.5])
lasts = [0.0, -2.0, -5.0, -10.0, -20.0, -50.0, -100.0, -1e9, float("-inf")]
p = torch.stack([torch.softmax(torch.cat([rest, torch.tensor([s])]), dim=-1)
                 for s in lasts])
p_last = p[:, -1]
torch.set_printoptions(precision=4, sci_mode=False)
for s, row in zip(lasts, p):
    print(f"z_4 = {s:g}:", row, "p_4 =", row[-1].item())

# as z_4 -> -inf, the other three become the softmax of the three alone
alone = torch.softmax(rest, dim=-1)
gap_to_alone = (p[:, :3] - alone).abs().amax(dim=-1)
print("softmax of the three alone:", alone)
print("max |p[:3] - alone|:", gap_to_alone.tolist())
same_at_inf = torch.equal(p[-1, :3], alone)
print("identical at -inf:", same_at_inf)
