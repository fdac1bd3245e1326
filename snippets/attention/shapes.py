import torch


def heads(t, h):  # (B, L, d) -> (B, h, L, d // h): each head gets a slice of d
    return t.unflatten(-1, (h, -1)).transpose(1, 2)


def shapes(q, k, v):
    scores = q @ k.transpose(-2, -1)  # (..., L_Q, L_K)
    weights = torch.softmax(scores / q.shape[-1] ** 0.5, dim=-1)
    output = weights @ v  # (..., L_Q, d_v)
    return [tuple(t.shape) for t in (q, k, v, scores, weights, output)]


# --- demo ---
torch.manual_seed(0)
B, d_model, d_k, d_v, H = 2, 16, 8, 12, 2
x = torch.randn(B, 4, d_model)  # a sentence of 4 tokens: it asks (queries)
memory = torch.randn(B, 5, d_model)  # another sequence, 5 tokens (e.g. the encoder's)
w_q, w_k = torch.randn(d_model, d_k), torch.randn(d_model, d_k)  # learned in a model
w_v = torch.randn(d_model, d_v)
q, k, v = x @ w_q, x @ w_k, x @ w_v  # self-attention: Q, K, V from the same x
k_mem, v_mem = memory @ w_k, memory @ w_v  # cross-attention: K, V from memory
cases = {
    "self": shapes(q, k, v),
    "cross": shapes(q, k_mem, v_mem),
    "self, heads": shapes(heads(q, H), heads(k, H), heads(v, H)),
    "cross, heads": shapes(heads(q, H), heads(k_mem, H), heads(v_mem, H)),
}
names = ["Q", "K", "V", "scores", "weights", "output"]
shown = {case: [str(shape) for shape in shapes] for case, shapes in cases.items()}
print(f"{'':8}" + "".join(f"{case:>16}" for case in cases))
for i, name in enumerate(names):
    print(f"{name:8}" + "".join(f"{str(shape[i]):>16}" for shape in cases.values()))
