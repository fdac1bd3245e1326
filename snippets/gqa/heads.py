def kv_head_of(query_head, h_q, h_kv):
    """The KV head that query head `query_head` reads when h_q query heads share h_kv
    key/value heads: each run of h_q // h_kv consecutive query heads shares one."""
    for name, n in (("h_q", h_q), ("h_kv", h_kv)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{name} must be an int >= 1, got {n!r}")
    if h_q % h_kv:
        raise ValueError(f"h_q={h_q} query heads is not a multiple of h_kv={h_kv}")
    if isinstance(query_head, bool) or not isinstance(query_head, int) or not (
            0 <= query_head < h_q):
        raise ValueError(f"query_head must be in 0..{h_q - 1}, got {query_head!r}")
    return query_head // (h_q // h_kv)


# --- demo: 8 query heads over 8 (MHA), 2 (GQA) and 1 (MQA) KV heads ---
H_q = 8
designs = {"MHA": 8, "GQA": 2, "MQA": 1}  # the design -> its number of KV heads
heads = list(range(H_q))
reads = {name: [kv_head_of(h, H_q, n) for h in heads] for name, n in designs.items()}
group = {name: H_q // n for name, n in designs.items()}  # query heads per KV head
marks = {d: ["".join("⬚■"[r == j] for j in range(n)) for r in reads[d]]  # ■: read
         for d, n in designs.items()}  # per design, a string per query head
width = {d: max(n, 3) + 2 for d, n in designs.items()}  # print columns
print("   " + "".join(d.ljust(width[d]) for d in designs).rstrip())
for h in heads:  # a row per query head; in each design, a column per KV head
    print(f"q{h} " + "".join(marks[d][h].ljust(width[d]) for d in designs).rstrip())
