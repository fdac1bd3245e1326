import warnings
import torch


def kv_cache_bytes(layers, h_kv, d_head, seq_len, dtype=torch.bfloat16, batch=1):
    """Bytes a KV cache holds: K and V (2), per layer, KV head, channel and position."""
    sizes = dict(layers=layers, h_kv=h_kv, d_head=d_head, seq_len=seq_len, batch=batch)
    for name, n in sizes.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{name} must be an int >= 1, got {n!r}")
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"dtype must be a torch.dtype, got {dtype!r}")
    return 2 * layers * h_kv * d_head * seq_len * batch * dtype.itemsize


# --- demo: 8 query heads as MHA, GQA and MQA; then transformers' LlamaConfig() ---
small = dict(layers=4, d_head=64, seq_len=4096)  # bfloat16, one sequence
designs = {"MHA": 8, "GQA": 2, "MQA": 1}  # KV heads for 8 query heads
small_bytes = {name: kv_cache_bytes(h_kv=n, **small) for name, n in designs.items()}
with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers
    config = transformers.LlamaConfig()  # the library's defaults, no model built
layers, heads = config.num_hidden_layers, config.num_attention_heads
d_head, seq_len = config.head_dim, config.max_position_embeddings
element = torch.bfloat16.itemsize  # bytes per element, kv_cache_bytes' default dtype
large = {"MHA": heads, "GQA": 8, "MQA": 1}  # KV heads for its query heads
large_bytes = {name: kv_cache_bytes(layers, n, d_head, seq_len) for name, n in
               large.items()}  # bfloat16, one sequence as long as the config allows
ratio = {name: small_bytes["MHA"] / b for name, b in small_bytes.items()}  # vs MHA
mib = {name: b / 2**20 for name, b in small_bytes.items()}
gib = {name: b / 2**30 for name, b in large_bytes.items()}
print("MiB:", mib, "GiB:", gib, sep="\n")
