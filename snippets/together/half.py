import torch
import torch.nn.functional as F


def weights(q, k, scale_first):  # softmax(q k^T / sqrt(d_k)), computed in q's dtype
    scale = q.shape[-1] ** -0.5
    kt = k.transpose(-2, -1)
    s = (q * scale) @ kt if scale_first else (q @ kt) * scale
    return torch.softmax(s, dim=-1)


# --- demo ---
torch.manual_seed(0)
q = torch.full((1, 2, 64), 40.0, dtype=torch.float16)  # d_k = 64, every entry 40
k, v = torch.full((1, 3, 64), 40.0).half(), torch.randn(1, 3, 64).half()
raw = (q @ k.transpose(-2, -1))[0, 0, 0].item()  # 40 * 40 * 64 = 102400 > 65504
late, early = weights(q, k, False)[0, 0], weights(q, k, True)[0, 0]
sdpa_finite = F.scaled_dot_product_attention(q, k, v).isfinite().all().item()
print(f"q @ k^T in float16: {raw}; scaled after: {late.tolist()}; "
      f"scaled first: {early.tolist()}; SDPA finite: {sdpa_finite}")

# SDPA's float mask: float32 or q's dtype. Row 1 "hides" every key with -1e9
qs, ks = torch.randn(1, 2, 64).half(), torch.randn(1, 3, 64).half()
mask = torch.tensor([[0.0, 0.0, 0.0], [-1e9, -1e9, -1e9]])  # float32
rows = {}
masks = {"float32": mask, "float16": mask.half(), "float64": mask.double()}
for name, m in masks.items():
    try:
        rows[name] = F.scaled_dot_product_attention(qs, ks, v, attn_mask=m)[0, 1]
        print(f"{name} mask: -1e9 stored as {m[1, 0].item()}, row 1 starts "
              f"{rows[name][:3].tolist()}")
    except RuntimeError as error:
        refused = str(error)
        print(f"{name} mask: {refused}")
uniform = torch.allclose(rows["float32"].float(), v[0].float().mean(0), atol=1e-3)
print("float32 mask: row 1 is the mean of v (uniform weights):", uniform)
