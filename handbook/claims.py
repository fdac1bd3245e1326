"""Claims: numbers in the prose that carry the snippet expression they assert.

    둘째 줄은 `[0.5, 0.5, 0, 0]`{ data-claim="causal/weights.py: weights[1]" } 입니다.

The reader sees plain code; the build evaluates the expression in the namespace the snippet leaves
and compares it with the literal *as written*:

* an integer (``0``, ``2``, ``-1``) must match exactly; ``0`` and ``-0`` are different (the sign of
  a float zero counts), as are ``inf``, ``-inf`` and ``nan``;
* a decimal matches after rounding to its digits (``0.3333`` allows +-0.00005, ``1e-9`` +-0.5e-9);
* a fraction ``1/3`` matches to a relative 1e-6, a percentage ``25%`` is the number 0.25;
* what rounding decides is stated as what holds on every machine: a bound (``< 1e-6``, ``≤ 0``,
  ``> 0.5``), a range (``0.50 … 0.56``, both ends included) or a tolerance (``0.514 ± 0.02``);
* ``True``, ``False`` and quoted strings match exactly; a list or tuple matches element by element,
  and a single number or bound against a tensor must hold for every element of it.

A number the prose spells out is a claim too, in plain text (handbook/words.py reads the words):

    키 <span data-claim="scaling/dk_frames.py: len(keys)">여덟</span> 개

In a lab's text, ``lab: expr`` names the lab itself: the expression is evaluated in the lab's kernel
right after the code cell that follows the text cell (handbook/runs.py), so an answer is checked
against the cell that checks it.

The expression must read a name the snippet (or the lab) defined: a constant proves nothing.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any

from . import words
from .render import plain
from .snippets import Runner, SnippetError

CLAIM = re.compile(r'`(?P<literal>[^`\n]+)`\{\s*data-claim="(?P<target>[^"\n]*)"\s*\}')
WORD_CLAIM = re.compile(r'<span data-claim="(?P<target>[^"\n]*)">(?P<literal>[^<>\n]+)</span>')
LAB = "lab"  # the target that names the lab a claim is written in, not a snippet


class LabValues:
    """What a lab's ``lab: expr`` claims read, by (line of the claim, expression): filled from a
    lab's executed notebook (handbook/labs.py). A ``Runner`` answers every other claim."""

    def __init__(self, values: dict[tuple[int, str], tuple[str, Any]]) -> None:
        self.values = values

    def value(self, line: int, expr: str) -> Any:
        kind, result = self.values.get((line, expr), ("missing", None))
        if kind == "value":
            return result
        if kind == "constant":
            raise SnippetError("the expression reads no name the lab defines")
        if kind == "error":
            raise SnippetError(f"the lab cannot evaluate {expr!r}: {result}")
        raise SnippetError(f"the lab never evaluated {expr!r} (a claim with no code cell after its text)")


@dataclass(frozen=True)
class Claim:
    file: str  # docs/causal.md
    line: int
    literal: str
    snippet: str
    expr: str
    form: str = "code"  # "code": `literal`{ data-claim }; "words": <span data-claim>literal</span>

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def expected(self) -> Any:
        """The literal as ``parse_literal`` reads it; a word claim as the exact number it spells."""
        if self.form == "words":
            op, number = words.bound(self.literal)
            if op is not None:
                return Bound(op, float(number))
            return Approx(float(number), 0.0 if float(number).is_integer() else 1e-6 * abs(number))
        return parse_literal(self.literal)

    def check(self, runner: Runner, lab: LabValues | None = None) -> str | None:
        """None when the claim holds, else a message naming file, line and both values. A
        ``lab:`` claim reads ``lab``: without it (no executed lab), the claim cannot be checked."""
        head = f"{self.where}: claim `{self.literal}` ({self.snippet}: {self.expr})"
        try:
            expected = self.expected()
        except ValueError as error:
            return f"{head} cannot be checked: {error}"
        try:
            if self.snippet == LAB:
                if lab is None:
                    return f"{head} cannot be checked: it names the lab, and no executed lab was given"
                actual = plain(lab.value(self.line, self.expr))
            else:
                run = runner.run(self.snippet)
                if unknown := _unknown_name(self.expr, run.namespace):
                    return f"{head} cannot be checked: {unknown}"
                if not _reads_the_snippet(self.expr, run.namespace):
                    return f"{head} cannot be checked: the expression reads no name the snippet defines"
                actual = plain(run.value(self.expr))
        except SnippetError as error:
            return f"{head} cannot be checked: {error}"
        if matches(expected, actual):
            return None
        source = "the lab" if self.snippet == LAB else "the snippet"
        return f"{head} does not hold: the prose says {self.literal}, {source} gives {show(actual)}"


def _unknown_name(expr: str, namespace: dict[str, Any]) -> str | None:
    """What is wrong with a name the expression reads that neither the snippet nor Python defines
    (a misspelling, most often), with the snippet's nearest names; None when every name is known."""
    import builtins
    import difflib

    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return None  # evaluating it reports the syntax error
    bound = {n.id for node in ast.walk(tree) if isinstance(node, ast.comprehension)
             for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    bound |= {a.arg for node in ast.walk(tree) if isinstance(node, ast.Lambda) for a in node.args.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in namespace and node.id not in bound \
                and not hasattr(builtins, node.id):
            own = [k for k in namespace if not k.startswith("__")]
            near = difflib.get_close_matches(node.id, own, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            return f"the snippet defines no name {node.id!r}{hint}"
    return None


def _reads_the_snippet(expr: str, namespace: dict[str, Any]) -> bool:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return True  # evaluating it reports the syntax error
    own = {k for k, v in namespace.items() if not k.startswith("__") and type(v).__name__ != "module"}
    return any(isinstance(n, ast.Name) and n.id in own for n in ast.walk(tree))


# --------------------------------------------------------------------------------------------
# Literals


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
