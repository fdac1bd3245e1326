import warnings
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import flex_attention

g = torch.Generator().manual_seed(0)
q = torch.randn(1, 6, 4, 8, generator=g)  # 6 query heads
kv = {n: torch.randn(1, n, 4, 8, generator=g) for n in (2, 4)}  # 6 = 3 x 2, not 4 x n
paths = {"SDPA": F.scaled_dot_product_attention, "flex": flex_attention}
cases = [(path, H_kv, gqa) for path in paths for H_kv, gqa in [(2, False), (2, True),
                                                                (4, True)]]
said = {}  # (path, H_kv, enable_gqa) -> the error's type and message, or —
with warnings.catch_warnings():  # eager flex_attention on CPU warns once: see flex
    warnings.filterwarnings("ignore", "flex_attention called without torch.compile")
    for path, H_kv, gqa in cases:
        try:
            paths[path](q, kv[H_kv], kv[H_kv], enable_gqa=gqa)
            said[path, H_kv, gqa] = "—"  # no error
        except (RuntimeError, ValueError) as error:
            said[path, H_kv, gqa] = f"{type(error).__name__}: {error}"
kind = [message.split(":")[0] for message in said.values()]  # the error's type
for (path, H_kv, gqa), message in said.items():
    print(f"{path}, H_kv={H_kv}, enable_gqa={gqa}: {message}")
