# 2 sinks and a ring of 4 slots, when the token at position 11 is decoded
S, W, t = 2, 4, 11
held = [-1] * (S + W)
for p in range(t + 1):  # tokens 0 .. t written, the newest too (ring_slot: slots.py)
    held[p if p < S else S + (p - S) % W] = p
in_time = sorted(held)  # the cached tokens in the order they came
in_cache = [in_time.index(p) for p in held]  # StreamingLLM: by place in the cache
query = {"text": t, "cache": len(held) - 1}  # the newest token's position, each way
distance = {"text": [t - p for p in held],
            "cache": [query["cache"] - c for c in in_cache]}
print(f"{held=}", f"{in_cache=}", f"{query=}", f"{distance=}", sep="\n")
