"""What a number in text is: one definition, for the bare-number rule, a table's labels and a
figure's alt text alike.

A number is a run of digits with an optional decimal part and exponent (``3``, ``0.94``, ``1e9``,
``3.4028e+38``, the ``1e9`` of ``-1e9``), optionally followed at once by a unit of size, time or
ratio (``16GB``, ``2.5ms``, ``2.7×``): a measured quantity written with its unit is still a
measured quantity. Digits inside an identifier are not a number (``float16``, ``fp16``, ``x2``,
``d_k``, ``2D``, ``h100``), nor are digits joined to other letters.

Numbers spelled as words (``half``, ``twice``, ``절반``, ``두 배``) are a language's business: a
checker that knows a language's number words reads them (the handbook's ``words.py`` does, for
Korean and English); this module reads digits only.
"""

from __future__ import annotations

import re

# Units a quantity is written with, glued to its digits. Case matters: 2D is not a unit.
UNITS = ("GiB", "MiB", "KiB", "TiB", "GB", "MB", "KB", "kB", "TB", "B", "ms", "us", "µs", "ns", "s",
         "×", "x", "%")
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# A run of letters, digits, underscores and dots that holds a digit (an exponent's sign kept inside).
_TOKEN = re.compile(r"[0-9A-Za-z_µ×%]*\d(?:[0-9A-Za-z_.µ×%]|(?<=\d[eE])[+-](?=\d))*")
_NUMBER = re.compile(rf"(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\.?(?:{_UNIT})?")


def numbers_in(text: str) -> list[str]:
    """The numbers a reader sees in ``text``, as written (units kept): ``numbers_in("16GB at
    float16, -1e9")`` is ``["16GB", "1e9"]``."""
    found = []
    for token in _TOKEN.findall(text):
        token = token.rstrip(".")
        if _NUMBER.fullmatch(token):
            found.append(token)
    return found


def value_of(number: str) -> float:
    """The number a token of ``numbers_in`` writes, without its unit."""
    match = _NUMBER.fullmatch(number)
    if match is None:
        raise ValueError(f"{number!r} is not a number as numbers_in reads one")
    return float(match["number"])
