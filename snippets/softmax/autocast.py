import torch

torch.manual_seed(0)
q, k = torch.randn(4, 8), torch.randn(6, 8)  # float32 inputs
with torch.autocast("cpu", dtype=torch.bfloat16):  # mixed precision on the CPU
    scores = q @ k.T  # matmul is on autocast's lower-precision list
    weights = torch.softmax(scores, dim=-1)  # softmax is on no CPU list: keeps bf16
    weights32 = torch.softmax(scores.float(), dim=-1)  # a float32 input stays float32
dtypes = [str(t.dtype).removeprefix("torch.") for t in (scores, weights, weights32)]
print("CPU autocast, bfloat16: scores", dtypes[0], "| softmax(scores)", dtypes[1],
      "| softmax(scores.float())", dtypes[2])
