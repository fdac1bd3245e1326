import torch

z = torch.tensor([2.0, 1.0, -0.5, -1.0])
by_sum = z / z.sum()  # "divide by the total" gives negative shares and shares above 1
p = torch.softmax(z, dim=-1)
print("z / z.sum():", by_sum.tolist())
print("softmax(z): ", p.tolist())

# the sign of a score does not matter, only its gap to the others
all_negative = torch.softmax(z - 10, dim=-1)
all_positive = torch.softmax(z + 10, dim=-1)
print("z - 10 and z + 10 give the same:", all_negative.tolist(), all_positive.tolist())

# p_i / p_j = exp(z_i - z_j): each unit of gap multiplies the ratio by e
gaps = torch.tensor([0.0, 1.0, 2.0, 5.0, 10.0])
ratios = torch.exp(gaps)
two = torch.stack([torch.softmax(torch.tensor([g, 0.0]), dim=-1)[0] for g in gaps])
print("gap:", gaps.tolist())
print("p_i / p_j:", ratios.tolist())
print("larger share of two scores:", two.tolist())
