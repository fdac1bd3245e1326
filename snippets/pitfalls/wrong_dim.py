import torch

T = 4
mask = torch.tril(torch.ones(T, T))  # 1 = may look
masked = torch.zeros(T, T).masked_fill(mask == 0, float("-inf"))

wrong = torch.softmax(masked, dim=0)  # columns sum to 1
fixed = torch.softmax(masked, dim=-1)  # rows (one query each) sum to 1
torch.set_printoptions(precision=4)
print("dim=0 :", wrong, "row sums:", wrong.sum(dim=-1), sep="\n")
print("dim=-1:", fixed, "row sums:", fixed.sum(dim=-1), sep="\n")

# with batch and head axes in front, dim=1 is the heads: NaN, and no error
torch.manual_seed(0)
scores = torch.randn(2, 3, T, T).masked_fill(mask == 0, float("-inf"))  # (B, H, T, T)
wrong_nans = int(torch.softmax(scores, dim=1).isnan().sum())
fixed_nans = int(torch.softmax(scores, dim=-1).isnan().sum())
print("(B, H, T, T) with dim=1 : NaN in", wrong_nans, "of", scores.numel())
print("(B, H, T, T) with dim=-1: NaN in", fixed_nans)
