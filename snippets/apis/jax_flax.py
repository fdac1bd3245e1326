import flax
import jax
import jax.numpy as jnp
from flax import linen as nn
from jax._src.nn.functions import _get_large_negative  # the fill jax.nn uses

S = jnp.array([[0.3, 1.2, -0.4, 0.8], [-1.0, 0.5, 0.9, -0.2], [1.1, -0.7, 0.2, 0.4]])
keep = jnp.array([[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]], bool)  # row 3: no key
ref = jax.nn.softmax(jnp.where(keep, S, -jnp.inf))  # softmax(S + M); row 3 is nan
q, k, v = S[None, :, None], 2 * jnp.eye(4)[None, :, None], jnp.eye(4)[None, :, None]
run = lambda n=3, **kw: jax.nn.dot_product_attention(q[:, :n], k, v, **kw)[0, :, 0]
same = lambda w: bool(jnp.allclose(w[:2], ref[:2], atol=1e-6))
kinds = []
for name, m in {"bool": keep, "int": keep.astype(int), "float": keep * 1.0}.items():
    try:
        kinds += [name] if same(run(mask=m[None, None])) else []
    except ValueError as error:  # mask dtype should be bool
        rejected = str(error)
bias = jnp.where(keep, 0.0, -jnp.inf)[None, None]  # the same mask, added instead
kind = lambda r: "nan" if jnp.isnan(r).all() else "0" if (r == 0).all() else (
    "균등" if r.std() < 1e-3 else "?")
as_mask, as_bias = kind(run(mask=keep[None, None])[2]), kind(run(bias=bias)[2])
causal = run(2, is_causal=True)
corner = "왼쪽 위" if jnp.array_equal(causal != 0, jnp.tri(2, 4, dtype=bool)) else "?"
pad_q, pad_k = jnp.array([[1, 1, 0]]), jnp.array([[1, 1, 1, 0]])  # 1 = token
flax_mask = nn.make_attention_mask(pad_q, pad_k)[0, 0]  # float32, 1 = attend
attend = lambda m: nn.dot_product_attention_weights(q, k, None, m[None, None])[0, 0]
fw, w03 = attend(flax_mask), attend((nonzero := 0.3) * flax_mask)  # does 0.3 attend?
flax_square = nn.make_causal_mask(pad_k)[0, 0].shape  # (L, L): one length only
polarity = "True = 참여" if same(run(mask=keep[None, None])) else "?"
rows = [("`jax.nn.dot_product_attention`", polarity, "/".join(kinds), "`bias`로 더함",
         f"mask {as_mask}, bias {as_bias}",
         corner, f"{_get_large_negative(jnp.float16).item():g}"),
        ("Flax `make_attention_mask`", "1 = 참여" if same(fw) else "?",
         str(flax_mask.dtype), "0 아닌 값 = 참여" if same(w03) else "?", kind(fw[2]),
         "정사각형만" if flax_square[0] == flax_square[1] else "?",
         f"{jnp.finfo(jnp.float16).min.item():g}")]  # flax/linen/attention.py
api, polarity, kinds, floats, fully, causal, fill16 = zip(*rows)
print(*(" | ".join(r) for r in rows), rejected, sep="\n")
print("jax", version := jax.__version__, "flax", flax_version := flax.__version__)
