"""A claim's literal, read as written (handbook/claims.py says what each form means): integers exact,
decimals to their digits, fractions and percentages, bounds, ranges and tolerances, booleans and
strings, lists and tuples element by element; and how a value is shown in a message."""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any

def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


@dataclass(frozen=True)
class Approx:
    """A number from the prose, with the tolerance its written digits imply."""

    value: float
    tol: float

    def matches(self, x: Any) -> bool:
        if not _number(x):
            return False
        if math.isnan(self.value):
            return math.isnan(x)
        if math.isinf(self.value) or self.tol == 0:
            same_sign = math.copysign(1, self.value) == math.copysign(1, x)
            return x == self.value and (self.value != 0 or same_sign)
        # The written value is a decimal the float nearest to it only approximates: a tie that the
        # table rounded to even (123456.78125 shown as 123456.7812) sits on the edge, within an ulp.
        return abs(x - self.value) <= self.tol * (1 + 1e-9) + 2 * math.ulp(max(abs(x), abs(self.value)))


@dataclass(frozen=True)
class Bound:
    """``< x``, ``≤ x``, ``> x``, ``≥ x``: holds for every value it is compared with."""

    op: str
    limit: float

    def matches(self, x: Any) -> bool:
        if not _number(x) or math.isnan(x):
            return False
        return {"<": x < self.limit, "<=": x <= self.limit, ">": x > self.limit, ">=": x >= self.limit}[self.op]


@dataclass(frozen=True)
class Range:
    """``a … b``: between a and b, both included."""

    low: float
    high: float

    def matches(self, x: Any) -> bool:
        return _number(x) and self.low <= x <= self.high


_NUM = r"(?:_percent\([^()]*\)|(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|inf))"
_SIGNED = rf"-?{_NUM}"


def _same_units(call: str):
    """A range or tolerance whose two numbers are both percentages or both not: ``40% … 60``
    mixes units, and reading it as 0.4 to 60 would let nearly anything pass."""

    def sub(m: re.Match) -> str:
        if ("_percent" in m[1]) != ("_percent" in m[2]):
            raise ValueError(f"mixes a percentage and a plain number: {m[0].replace('_percent(', '').replace(')', '%')}")
        return f"{call}({m[1]}, {m[2]})"

    return sub


_FORMS = [  # typographic spelling -> calls parse_literal reads
    (re.compile(rf"({_SIGNED})\s*(?:…|\.\.\.)\s*({_SIGNED})"), _same_units("_range")),
    (re.compile(rf"({_SIGNED})\s*±\s*({_NUM})"), _same_units("_pm")),
    (re.compile(rf"(<=|>=|<|>)\s*({_SIGNED})"), lambda m: f"_bound('{m[1]}', {m[2]})"),
]
_NUMBER = re.compile(r"(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")


def parse_literal(text: str) -> Any:
    """The literal of a claim as a tree of lists, ``Approx``, ``Bound`` and ``Range`` numbers,
    bools and strings."""
    # Typography and forms are read outside quoted strings: 'cache overflow: 6 + 1 > 6 rows' is text.
    pieces = re.split(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""", text.strip())
    typography = {"\u2212": "-", "∞": "inf", "≤": "<=", "≥": ">="}
    pieces = [p if i % 2 else re.sub(r"(\d+(?:\.\d+)?)%", r"_percent(\1)", re.sub("[\u2212∞≤≥]", lambda m: typography[m[0]], p))
              for i, p in enumerate(pieces)]
    for pattern, call in _FORMS:
        pieces = [piece if i % 2 else pattern.sub(call, piece) for i, piece in enumerate(pieces)]
    source = "".join(pieces)
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"cannot read the literal {text!r}") from error

    def number(node: ast.AST) -> Approx:
        value = convert(node)
        if not isinstance(value, Approx):
            raise ValueError(f"cannot read the number in {text!r}")
        return value

    def convert(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (bool, str))):
            return node.value
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            digits = _NUMBER.fullmatch(ast.get_source_segment(source, node) or "")
            if not digits:
                raise ValueError(f"cannot read the number in {text!r}")
            decimals, exponent = len(digits[2] or ""), int(digits[3] or 0)
            exact = digits[2] is None and digits[3] is None
            return Approx(float(node.value), 0.0 if exact else 0.5 * 10.0 ** (exponent - decimals))
        if isinstance(node, ast.Name) and node.id in ("inf", "nan"):
            return Approx(float(node.id), 0.0)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = number(node.operand)
            return Approx(-inner.value, inner.tol) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            top, bottom = number(node.left), number(node.right)
            if top.tol == bottom.tol == 0:
                return Approx(top.value / bottom.value, 1e-6 * abs(top.value / bottom.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [number(a) if not isinstance(a, ast.Constant) or not isinstance(a.value, str) else a.value
                    for a in node.args]
            if node.func.id == "_percent":
                return Approx(args[0].value / 100, args[0].tol / 100)
            if node.func.id == "_bound":
                return Bound(args[0], args[1].value)
            if node.func.id == "_range" and args[0].value < args[1].value:
                return Range(args[0].value, args[1].value)
            if node.func.id == "_pm" and args[1].value > 0:
                return Approx(args[0].value, args[1].value)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [convert(item) for item in node.elts]
        raise ValueError(f"cannot read the literal {text!r}")

    return convert(tree)


def matches(expected: Any, actual: Any) -> bool:
    """Whether a value from a snippet agrees with a parsed literal (see the module docstring)."""
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(matches(e, a) for e, a in zip(expected, actual)))
    if isinstance(expected, (Approx, Bound, Range)):
        if isinstance(actual, list):
            return bool(actual) and all(matches(expected, a) for a in actual)
        return expected.matches(actual)
    if isinstance(expected, bool):
        return isinstance(actual, bool) and actual == expected
    if isinstance(expected, str):  # as text: torch's version string compares as a version ('v2.13' == '2.13.0')
        return isinstance(actual, str) and str.__eq__(str(actual), expected)
    return actual == expected


def show(value: Any) -> str:
    if isinstance(value, list):
        items = [show(v) for v in value[:8]]
        return "[" + ", ".join(items) + (", …" if len(value) > 8 else "") + "]"
    return repr(value)
