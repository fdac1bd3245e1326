import torch
import torch.nn.functional as F

# the bad calls of together/attention.py, given to PyTorch's own function
sdpa = F.scaled_dot_product_attention
q, k, v, keep = torch.ones(3, 4), torch.ones(5, 4), torch.ones(5, 6), torch.ones(5) > 0
calls = {  # the call as the table shows it -> that call
    "q, k[:, :3], v": lambda: sdpa(q, k[:, :3], v),
    "q, k, v[:4]": lambda: sdpa(q, k, v[:4]),
    "q.long(), k.long(), v.long()": lambda: sdpa(q.long(), k.long(), v.long()),
    "q, k.double(), v": lambda: sdpa(q, k.double(), v),
    "q, k, v, keep.long()": lambda: sdpa(q, k, v, keep.long()),
    "q, k, v, keep[:4]": lambda: sdpa(q, k, v, keep[:4]),
    # attention() takes mask and causal together; SDPA refuses
    "q, k, v, keep, is_causal=True": lambda: sdpa(q, k, v, keep, is_causal=True),
}
shown, errors = list(calls), []  # the calls as written, and what each raised
for call in calls.values():
    try:
        call()
    except RuntimeError as error:
        errors.append(f"{type(error).__name__}: {error}")
        print(errors[-1])
