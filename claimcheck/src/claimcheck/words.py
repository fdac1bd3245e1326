"""Numbers written as words, in Korean and English: what a claim in words states.

    키 <span data-claim="scaling/dk_frames.py: len(keys)">여덟</span> 개와 쿼리 하나로 …

A count or a ratio that states what a script computes (or the size it is run at) is a claim even
when the prose spells it out: ``여덟``, ``스물여덟``, ``십만``, ``두 배``, ``절반``, ``eight``,
``twenty-eight``, ``a hundred thousand``, ``twice``, ``half``. A count that only sets up the
sentence ("one row", "두 경우") is not a number of the script's and stays plain text. A bound is a
claim in words too: ``절반 넘게``, ``백 배 이상``, ``more than half``, ``under ten``.

``value`` reads exactly these forms and names what it cannot read: a claim in words is never
guessed. Another language's number words are its own reader and lexicon, added here.
"""

from __future__ import annotations

import re

# Korean native numbers, with the forms they take before a counter (한 개, 두 배, 스무 칸).
_NATIVE_UNITS = {"하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "석": 3, "넷": 4, "네": 4, "넉": 4,
                 "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_NATIVE_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70,
                "여든": 80, "아흔": 90}
# Sino-Korean numbers: 십만, 천이백, 백만.
_SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_SINO_SMALL = {"십": 10, "백": 100, "천": 1000}
_SINO_LARGE = {"만": 10**4, "억": 10**8, "조": 10**12}
_KOREAN_FRACTIONS = {"절반": 0.5, "반": 0.5}

_ENGLISH_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_ENGLISH_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_ENGLISH_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
_ENGLISH_FRACTIONS = {"half": 0.5, "a half": 0.5, "one half": 0.5, "a quarter": 0.25, "a third": 1 / 3}
_ENGLISH_TIMES = {"once": 1, "twice": 2, "thrice": 3}


# A bound in words: "절반 넘게", "백 배 이상", "more than half", "under a tenth" state which side
# of a number the value lies on, as a code claim's `> 0.5` does.
_KOREAN_BOUNDS = {"넘게": ">", "넘는": ">", "이상": ">=", "미만": "<", "이하": "<="}
_ENGLISH_BOUNDS = {"more than": ">", "over": ">", "at least": ">=", "less than": "<", "under": "<",
                   "at most": "<="}


def bound(text: str) -> tuple[str | None, int | float]:
    """``(op, number)`` of a word claim: ``(None, 8)`` for ``여덟``, ``(">", 0.5)`` for ``절반 넘게``
    or ``more than half``, ``(">=", 100)`` for ``백 배 이상``."""
    words = " ".join(text.split())
    for suffix, op in _KOREAN_BOUNDS.items():
        if words.endswith(f" {suffix}") or (words.endswith(suffix) and len(words) > len(suffix)):
            return op, value(words[: -len(suffix)].strip())
    lower = words.lower()
    for prefix, op in _ENGLISH_BOUNDS.items():
        if lower.startswith(prefix + " "):
            return op, value(words[len(prefix) + 1:])
    return None, value(words)


def value(text: str) -> int | float:
    """The number a word claim's text spells: ``여덟`` 8, ``십만`` 100000, ``두 배`` 2, ``절반``
    0.5, ``twenty-eight`` 28, ``a hundred thousand`` 100000, ``twice`` 2, ``half`` 0.5. Anything
    else raises ``ValueError`` naming the text."""
    words = " ".join(text.split())
    if not words:
        raise ValueError("a word claim has no text")
    if re.search(r"\d", words):
        raise ValueError(f"{text!r} has digits: write a number as a code-span claim, `{words}`{{ data-claim=… }}")
    for read in (_korean, _english):
        found = read(words)
        if found is not None:
            return found
    raise ValueError(f"cannot read {text!r} as a number in words (Korean 여덟, 스물여덟, 십만, 두 배, 절반; "
                     "English eight, twenty-eight, a hundred thousand, twice, half)")


def _korean(words: str) -> int | float | None:
    if words in _KOREAN_FRACTIONS:
        return _KOREAN_FRACTIONS[words]
    times = re.fullmatch(r"(.+?) ?배", words)  # 두 배, 열 배, 백 배: a ratio
    if times:
        return _korean(times[1])
    return _native(words) if _native(words) is not None else _sino(words)


def _native(words: str) -> int | None:
    for ten, tens in sorted(_NATIVE_TENS.items(), key=lambda item: -len(item[0])):
        if words.startswith(ten):
            rest = words[len(ten):]
            if not rest:
                return tens
            if rest in _NATIVE_UNITS and not (ten == "스무"):  # 스무 stands alone: 스물여덟, not 스무여덟
                return tens + _NATIVE_UNITS[rest]
            return None
    return _NATIVE_UNITS.get(words)


def _sino(words: str) -> int | None:
    if not words or any(ch not in _SINO_DIGITS and ch not in _SINO_SMALL and ch not in _SINO_LARGE for ch in words):
        return None
    total, group, digit = 0, 0, None
    for ch in words:
        if ch in _SINO_DIGITS:
            if digit is not None:  # 이삼: two digits in a row spell nothing
                return None
            digit = _SINO_DIGITS[ch]
        elif ch in _SINO_SMALL:
            group += (digit or 1) * _SINO_SMALL[ch]
            digit = None
        else:
            group += digit or 0
            total += (group or 1) * _SINO_LARGE[ch]
            group, digit = 0, None
    total += group + (digit or 0)
    return total if len(words) > 1 or words in _SINO_SMALL or words in _SINO_LARGE else None


def _english(words: str) -> int | float | None:
    lower = words.lower()
    if lower in _ENGLISH_FRACTIONS:
        return _ENGLISH_FRACTIONS[lower]
    if lower in _ENGLISH_TIMES:
        return _ENGLISH_TIMES[lower]
    times = re.fullmatch(r"(.+) times", lower)  # three times, ten times: a ratio
    if times:
        return _english_count(times[1])
    return _english_count(lower)


def _english_count(words: str) -> int | None:
    parts = words.replace("-", " ").replace(" and ", " ").split()
    if parts and parts[0] == "a":  # a hundred, a thousand
        parts = ["one", *parts[1:]] if len(parts) > 1 and parts[1] in _ENGLISH_SCALES else parts
    if not parts:
        return None
    total, group, seen = 0, 0, False
    for word in parts:
        if word in _ENGLISH_UNITS:
            group += _ENGLISH_UNITS[word]
        elif word in _ENGLISH_TENS:
            group += _ENGLISH_TENS[word]
        elif word == "hundred":
            group = (group or 1) * 100
        elif word in _ENGLISH_SCALES:
            total += (group or 1) * _ENGLISH_SCALES[word]
            group = 0
        else:
            return None
        seen = True
    return total + group if seen else None


def lexicon(language: str) -> dict[str, int | float]:
    """The single words of one language's numbers with their values (for the checker's mutants)."""
    if language == "ko":
        return _NATIVE_UNITS | _NATIVE_TENS | _KOREAN_FRACTIONS | {"십만": 10**5, "백만": 10**6, "천": 1000}
    if language == "en":
        return _ENGLISH_UNITS | _ENGLISH_TENS | _ENGLISH_FRACTIONS | _ENGLISH_TIMES | {"a hundred thousand": 10**5}
    raise ValueError(f"no number words for the language {language!r} (ko, en)")


_FLIPPED = {"넘게": "이하", "넘는": "이하", "이상": "미만", "미만": "이상", "이하": "넘게", "more than": "at most",
            "over": "at most", "at least": "less than", "less than": "at least", "under": "at least",
            "at most": "more than"}


def mutants(text: str) -> list[tuple[str, str]]:
    """The edits of a claim in words that must break it: the number words nearest to its value, one
    above and one below, in its language; a bound in words with its direction turned."""
    if bound(text)[0] is not None:
        said = next(w for w in sorted(_FLIPPED, key=len, reverse=True) if w in text)
        return [("bound direction in words", text.replace(said, _FLIPPED[said]))]
    number = value(text)
    words = lexicon("ko" if re.search("[가-힣]", text) else "en")
    above = min((w for w, v in words.items() if v > number), key=lambda w: words[w], default=None)
    below = max((w for w, v in words.items() if v < number), key=lambda w: words[w], default=None)
    return [("number word", w) for w in (above, below) if w is not None]
