"""Claim forms: what a literal written in prose means, and how it can be wrong.

A claim ties a literal the reader sees (``0.3333``, ``< 1e-6``, ``[0.5, 0.5]``) to an expression
whose value must agree with it. Each form is one ``Form`` in ``FORMS``: the spellings it reads (a
typographic spelling rewritten to a call the parser reads, such as ``0.5 … 0.6`` to
``_range(0.5, 0.6)``), how it reads its piece of the literal's syntax tree into a value that knows
what it ``matches``, the edits of a literal of its form that must make a claim fail (its
``mutants``: a checker that let them pass would check nothing), and examples (its own tests). A
new form is one ``register(Form(...))`` call.

Most claims are a code span's literal, and the literal's syntax decides its form. A form may instead
be written in a span of its own (a number in words, ``<span data-claim="…">eight</span>``): it then
brings the span, which part of the claim states what it claims, how that text is read, and, where
its values come from somewhere else than the page's source, that source.
"""

from __future__ import annotations

import ast
import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import words
from .sources import PythonSource


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


@dataclass(frozen=True)
class Approx:
    """A number, with the tolerance its written digits imply (0 for an integer: exact)."""

    value: float
    tol: float

    def matches(self, x: Any) -> bool:
        if not is_number(x):
            return False
        if math.isnan(self.value):
            return math.isnan(x)
        if math.isinf(self.value) or self.tol == 0:
            same_sign = math.copysign(1, self.value) == math.copysign(1, x)
            return x == self.value and (self.value != 0 or same_sign)
        # The written value is a decimal the float nearest to it only approximates: a tie that a
        # table rounded to even (123456.78125 shown as 123456.7812) sits on the edge, within an ulp.
        return abs(x - self.value) <= self.tol * (1 + 1e-9) + 2 * math.ulp(max(abs(x), abs(self.value)))


@dataclass(frozen=True)
class Bound:
    """``< x``, ``≤ x``, ``> x``, ``≥ x``: holds for every value it is compared with."""

    op: str
    limit: float

    def matches(self, x: Any) -> bool:
        if not is_number(x) or math.isnan(x):
            return False
        return {"<": x < self.limit, "<=": x <= self.limit, ">": x > self.limit, ">=": x >= self.limit}[self.op]


@dataclass(frozen=True)
class Range:
    """``a … b``: between a and b, both included."""

    low: float
    high: float

    def matches(self, x: Any) -> bool:
        return is_number(x) and self.low <= x <= self.high


@dataclass(frozen=True)
class Exactly:
    """``True``, ``False`` or a quoted string: the same value, of the same type (a string is
    compared as text: a version string that compares as a version, '2.13' == '2.13.0', is not)."""

    value: Any

    def matches(self, x: Any) -> bool:
        if isinstance(self.value, bool):
            return isinstance(x, bool) and x == self.value
        return isinstance(x, str) and str.__eq__(str(x), self.value)


@dataclass(frozen=True)
class Sequence:
    """``[a, b]`` or ``(a, b)``: as long as the value, element by element."""

    items: tuple[Any, ...]

    def matches(self, x: Any) -> bool:
        return isinstance(x, list) and len(x) == len(self.items) and all(matches(e, a) for e, a in zip(self.items, x))


def matches(expected: Any, actual: Any) -> bool:
    """Whether a value agrees with a parsed literal. A value is plain data (lists, numbers,
    bools, strings): a single number, bound or range against a list must hold for every element."""
    if isinstance(expected, (Approx, Bound, Range)) and isinstance(actual, list):
        return bool(actual) and all(matches(expected, a) for a in actual)
    return expected.matches(actual)


# -- the registry ------------------------------------------------------------------------

Reader = Callable[[ast.AST], Any]  # reads a sub-node (another form's, or its own)


@dataclass(frozen=True)
class Form:
    name: str
    meaning: str  # one line: what it says (the README's table)
    # What it reads from the syntax tree: the value of a node of this form, or None if the node is
    # not its. ``read(node, source, convert)``: ``source`` the rewritten text, ``convert`` for sub-nodes.
    # None for a form written in a span of its own.
    read: Callable[[ast.AST, str, Reader], Any] | None
    mutants: Callable[[str, Any], list[tuple[str, str]]]  # (kind, edit) of what it states that must break a claim
    examples: tuple[tuple[str, Any], ...]  # (what it states, a value it holds for): its mutants must not
    spellings: tuple[tuple[str, Any], ...] = ()  # (regex, replacement) into a call ``read`` knows
    calls: tuple[str, ...] = field(default=())  # the pseudo-calls its spellings make
    # A form written in a span of its own: the span (groups ``literal`` and ``target``), the
    # attribute that marks it, the part of the claim that states what it claims ("literal" or
    # "expr"), the reading of that text, what a message calls such a claim, and the source of its
    # values where they do not come from the page's source.
    span: re.Pattern | None = None
    attribute: str = "data-claim"
    states: str = "literal"
    reading: Callable[[str], Any] | None = None
    noun: str = "claim"
    written: str = ""  # how it is written, for messages
    source: Any = None

    def value(self, written: str) -> Any:
        """What ``written`` (a literal, or the part of a claim this form says states it) claims."""
        return self.reading(written) if self.reading is not None else parse(written).value


FORMS: dict[str, Form] = {}


def register(form: Form) -> Form:
    if form.name in FORMS:
        raise ValueError(f"a form named {form.name!r} is registered already")
    if (form.read is None) == (form.span is None) or (form.span is None) != (form.reading is None):
        raise ValueError(f"form {form.name!r}: a form reads a literal's syntax (read) or a span of its own "
                         "(span and reading), one of the two")
    if form.span is not None and not {"literal", "target"} <= set(form.span.groupindex):
        raise ValueError(f"form {form.name!r}: its span needs the groups literal and target")
    FORMS[form.name] = form
    return form


def spans() -> dict[str, Form]:
    """The forms written in spans of their own, by name."""
    return {name: form for name, form in FORMS.items() if form.span is not None}


@dataclass(frozen=True)
class Parsed:
    value: Any
    form: str  # the form of the whole literal


TYPOGRAPHY = {"\u2212": "-", "∞": "inf", "≤": "<=", "≥": ">="}
_QUOTED = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


def parse(text: str) -> Parsed:
    """A claim's literal as its value and form; a literal no form reads is a ``ValueError``."""
    # Typography and spellings are read outside quoted strings: 'cache overflow: 6 + 1 > 6 rows' is text.
    pieces = _QUOTED.split(text.strip())
    pieces = [p if i % 2 else re.sub("[\u2212∞≤≥]", lambda m: TYPOGRAPHY[m[0]], p) for i, p in enumerate(pieces)]
    literal_forms = [form for form in FORMS.values() if form.read is not None]
    for form in literal_forms:
        for pattern, replacement in form.spellings:
            pieces = [p if i % 2 else re.sub(pattern, replacement, p) for i, p in enumerate(pieces)]
    source = "".join(pieces)
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"cannot read the literal {text!r}") from error
    found: dict[int, str] = {}

    def convert(node: ast.AST) -> Any:
        for form in literal_forms:
            try:
                value = form.read(node, source, convert)
            except ValueError as error:
                if str(error).startswith("cannot read"):
                    raise
                raise ValueError(f"cannot read the literal {text!r}: {error}") from None
            if value is not None:
                found.setdefault(id(node), form.name)
                return value
        raise ValueError(f"cannot read the literal {text!r}")

    value = convert(tree)
    return Parsed(value, found[id(tree)])


def parse_literal(text: str) -> Any:
    return parse(text).value


def stated(claim: Any) -> Parsed:
    """What a claim states: its literal as ``parse`` reads it, or, for a claim of a form written in
    a span of its own, that form's reading of the part that states it."""
    if claim.form is None:
        return parse(claim.literal)
    form = FORMS.get(claim.form)
    if form is None or form.span is None:
        raise ValueError(f"no form named {claim.form!r} is written in a span of its own")
    return Parsed(form.reading(getattr(claim, form.states)), form.name)


def show(value: Any) -> str:
    """A value as a message shows it (a long list cut after eight elements)."""
    if isinstance(value, list):
        items = [show(v) for v in value[:8]]
        return "[" + ", ".join(items) + (", …" if len(value) > 8 else "") + "]"
    return repr(value)


# -- the forms ------------------------------------------------------------------------------

_NUM = r"(?:_percent\([^()]*\)|(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|inf))"
_SIGNED = rf"-?{_NUM}"
_DIGITS = re.compile(r"(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")


def _same_units(call: str) -> Callable[[re.Match], str]:
    """A range or tolerance whose two numbers are both percentages or both not: ``40% … 60``
    mixes units, and reading it as 0.4 to 60 would let nearly anything pass."""

    def sub(m: re.Match) -> str:
        if ("_percent" in m[1]) != ("_percent" in m[2]):
            raise ValueError(f"mixes a percentage and a plain number: {m[0].replace('_percent(', '').replace(')', '%')}")
        return f"{call}({m[1]}, {m[2]})"

    return sub


def _call(node: ast.AST, name: str) -> list[ast.AST] | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
        return node.args
    return None


def _number(convert: Reader, node: ast.AST) -> Approx:
    value = convert(node)
    if not isinstance(value, Approx):
        raise ValueError("a number is expected here")
    return value


def _nonzero(number: str) -> bool:
    try:
        return float(number.rstrip("%")) != 0
    except ValueError:  # a version inside a string
        return False


def edits(literal: str) -> list[tuple[str, str]]:
    """(kind, literal) for the edits of a literal's own numbers and words that must break a claim:
    its last digit; the sign of each number; a zero made negative (or a negative zero positive);
    inf and nan, True and False swapped."""
    found = []
    digits = list(re.finditer(r"\d", literal))
    if digits:
        last = digits[-1]
        found.append(("last digit", literal[: last.start()] + str((int(last[0]) + 1) % 10) + literal[last.end():]))
    for m in re.finditer(r"(?<![\w.])(-?)(\d[\d.e+-]*%?|inf)(?![\w.])", literal):
        sign, number = m[1], m[2]
        if number in ("0", "inf") or _nonzero(number):
            if number == "0":
                found.append(("signed zero", literal[: m.start()] + ("0" if sign else "-0") + literal[m.end():]))
            else:
                found.append(("sign", literal[: m.start()] + ("" if sign else "-") + number + literal[m.end():]))
    for word, other in (("inf", "nan"), ("nan", "inf"), ("True", "False"), ("False", "True")):
        for m in re.finditer(rf"\b{word}\b", literal):
            found.append(("inf/nan/bool", literal[: m.start()] + other + literal[m.end():]))
    return found


def _read_number(node: ast.AST, source: str, convert: Reader) -> Approx | None:
    if isinstance(node, ast.Constant) and is_number(node.value):
        digits = _DIGITS.fullmatch(ast.get_source_segment(source, node) or "")
        if not digits:
            raise ValueError("cannot read the number")
        decimals, exponent = len(digits[2] or ""), int(digits[3] or 0)
        exact = digits[2] is None and digits[3] is None
        return Approx(float(node.value), 0.0 if exact else 0.5 * 10.0 ** (exponent - decimals))
    if isinstance(node, ast.Name) and node.id in ("inf", "nan"):
        return Approx(float(node.id), 0.0)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _number(convert, node.operand)
        return Approx(-inner.value, inner.tol) if isinstance(node.op, ast.USub) else inner
    return None


def _read_fraction(node: ast.AST, source: str, convert: Reader) -> Approx | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        top, bottom = _number(convert, node.left), _number(convert, node.right)
        if top.tol == bottom.tol == 0 and bottom.value != 0:
            return Approx(top.value / bottom.value, 1e-6 * abs(top.value / bottom.value))
        raise ValueError("a fraction is two integers")
    return None


def _read_percent(node: ast.AST, source: str, convert: Reader) -> Approx | None:
    if (args := _call(node, "_percent")) is not None:
        number = _number(convert, args[0])
        return Approx(number.value / 100, number.tol / 100)
    return None


def _read_bound(node: ast.AST, source: str, convert: Reader) -> Bound | None:
    if (args := _call(node, "_bound")) is not None:
        return Bound(args[0].value, _number(convert, args[1]).value)
    return None


def _read_range(node: ast.AST, source: str, convert: Reader) -> Range | None:
    if (args := _call(node, "_range")) is not None:
        low, high = (_number(convert, a).value for a in args)
        if low < high:
            return Range(low, high)
        raise ValueError("a range goes from the lower end to the higher")
    return None


def _read_tolerance(node: ast.AST, source: str, convert: Reader) -> Approx | None:
    if (args := _call(node, "_pm")) is not None:
        centre, tol = (_number(convert, a) for a in args)
        if tol.value > 0:
            return Approx(centre.value, tol.value)
        raise ValueError("a tolerance is more than 0")
    return None


def _read_exact(kind: type) -> Callable[[ast.AST, str, Reader], Exactly | None]:
    def read(node: ast.AST, source: str, convert: Reader) -> Exactly | None:
        if isinstance(node, ast.Constant) and type(node.value) is kind:
            return Exactly(node.value)
        return None

    return read


def _read_sequence(node: ast.AST, source: str, convert: Reader) -> Sequence | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        return Sequence(tuple(convert(item) for item in node.elts))
    return None


_FLIP = {"<": ">=", "<=": ">", "≤": ">", ">": "<=", ">=": "<", "≥": "<"}


def _bound_mutants(literal: str, value: Bound) -> list[tuple[str, str]]:
    op = re.match(r"\s*(<=|>=|[<>≤≥])", literal)[1]
    return [("bound direction", _FLIP[op] + literal.strip()[len(op):])]


def _range_mutants(literal: str, value: Range) -> list[tuple[str, str]]:
    width = value.high - value.low
    return [("range moved", f"{value.high + width / 2} … {value.high + width}"),
            ("range moved", f"{value.low - width} … {value.low - width / 2}")]


def _tolerance_mutants(literal: str, value: Approx) -> list[tuple[str, str]]:
    return [("tolerance centre moved", f"{value.value + 2.5 * value.tol} ± {value.tol}")]


def _sequence_mutants(literal: str, value: Sequence) -> list[tuple[str, str]]:
    return edits(literal) + [("element added", re.sub(r"([\])])\s*$", r", 7\1", literal))]


def _string_mutants(literal: str, value: Exactly) -> list[tuple[str, str]]:
    return edits(literal) or [("string", "'?'")]


register(Form("percent", "``25%``: the number 0.25, to the written digits", _read_percent,
              lambda lit, v: edits(lit), (("25%", 0.25), ("12.5%", 0.125)),
              spellings=((r"(\d+(?:\.\d+)?)%", r"_percent(\1)"),), calls=("_percent",)))
register(Form("range", "``0.50 … 0.56``: between the two, both included", _read_range, _range_mutants,
              (("0.50 … 0.56", 0.53), ("-1 ... 1", 0.0)),
              spellings=((rf"({_SIGNED})\s*(?:…|\.\.\.)\s*({_SIGNED})", _same_units("_range")),), calls=("_range",)))
register(Form("tolerance", "``0.514 ± 0.02``: within the tolerance of the centre", _read_tolerance,
              _tolerance_mutants, (("0.514 ± 0.02", 0.5), ("50% ± 1%", 0.505)),
              spellings=((rf"({_SIGNED})\s*±\s*({_NUM})", _same_units("_pm")),), calls=("_pm",)))
register(Form("bound", "``< 1e-6``, ``≤ 0``, ``> 0.5``: holds for the value, or every element", _read_bound,
              _bound_mutants, (("< 1e-6", 3e-7), ("≥ 0", 0.0), ("> 0.5", [0.6, 0.9])),
              spellings=((rf"(<=|>=|<|>)\s*({_SIGNED})", r"_bound('\1', \2)"),), calls=("_bound",)))
register(Form("number", "``2``, ``-0.5``, ``1e-9``, ``inf``: an integer exactly (the sign of a zero too), "
              "a decimal to its written digits", _read_number, lambda lit, v: edits(lit),
              (("2", 2), ("0.3333", 1 / 3), ("-0", -0.0), ("0", 0.0), ("1e-9", 1.2e-9), ("-inf", float("-inf")),
               ("nan", float("nan")))))
register(Form("fraction", "``1/3``: the quotient, to a relative 1e-6", _read_fraction, lambda lit, v: edits(lit),
              (("1/3", 1 / 3), ("-2/7", -2 / 7))))
register(Form("bool", "``True``, ``False``: that bool", _read_exact(bool), lambda lit, v: edits(lit),
              (("True", True), ("False", False))))
register(Form("string", "``'top-left'``: that text, exactly", _read_exact(str), _string_mutants,
              (("'top-left'", "top-left"), ("'2.13.0+cpu'", "2.13.0+cpu"))))
register(Form("sequence", "``[0.5, 0.5, 0]``, ``(2, 4)``: as long, element by element (a shape is a tuple)",
              _read_sequence, _sequence_mutants, (("[0.5, 0.5, 0]", [0.5, 0.5, 0]), ("(2, 4)", [2, 4]))))


def _read_words(text: str) -> Approx | Bound:
    op, number = words.bound(text)
    if op is not None:
        return Bound(op, float(number))
    return Approx(float(number), 0.0 if float(number).is_integer() else 1e-6 * abs(number))


register(Form("words", "``<span data-claim=…>eight</span>``, ``절반 넘게``: a number in words (Korean or English, "
              "``claimcheck.words``) exactly, or a bound in words", None, lambda text, v: words.mutants(text),
              (("eight", 8), ("스물여덟", 28), ("절반", 0.5), ("두 배", 2), ("절반 넘게", 0.7), ("under ten", [3, 9])),
              span=re.compile(r'<span data-claim="(?P<target>[^"\n]*)">(?P<literal>[^<>\n]+)</span>'),
              reading=_read_words, written='<span data-claim="target: expression">eight</span>'))


# A quote of installed source code: a sentence about what a library's code does carries the passage
# that says it, and a version that changes the code fails the check.

_GAP = re.compile(r"\s…(?=\s)")  # " … " between two pieces (three dots are Python's Ellipsis, a piece's own)


@dataclass(frozen=True)
class Passage:
    """Pieces of source text that must appear in a text in this order, runs of whitespace made one space."""

    pieces: tuple[str, ...]

    def missing(self, text: Any) -> str | None:
        """The first piece the text lacks (after the piece before it), or None."""
        where, at = " ".join(str(text).split()), 0
        for number, piece in enumerate(self.pieces):
            found = where.find(piece, at)
            if found < 0:
                return f"{piece!r}" + (f" after {self.pieces[number - 1]!r}" if number else "")
            at = found + len(piece)
        return None

    def matches(self, text: Any) -> bool:
        return isinstance(text, str) and self.missing(text) is None

    def explain(self, text: Any, origin: str) -> str:
        return (f"{origin} has no {self.missing(text)}; read the installed source: a typo, or a version that "
                "changed what the sentence says")


def _read_passage(text: str) -> Passage:
    pieces = tuple(" ".join(html.unescape(p).split()) for p in _GAP.split(f" {text} "))
    if not all(pieces):
        raise ValueError("a piece of the passage is empty (' … ' at an end, or twice in a row)")
    return Passage(pieces)


def _passage_mutants(text: str, value: Passage) -> list[tuple[str, str]]:
    first, *rest = text.split(" ")
    edits = [" ".join([first, *rest[:-1], rest[-1] + "_changed"]) if rest else first + "_changed",
             " ".join([first + "_changed", *rest])]
    return [("source changed", edit) for edit in dict.fromkeys(edits)]


register(Form("quote", "``code``{ data-quote=\"module.Class.function: passage\" }: the passage is in that installed "
              "Python source, whitespace aside (`` … `` between pieces that come in this order)", None, _passage_mutants,
              (("def f(x): … return x", "def f(x):\n    return  x"), ("is_causal=True,", "f(q, is_causal=True, scale=s)")),
              span=re.compile(r'`(?P<literal>[^`\n]+)`\{\s*data-quote="(?P<target>[^"\n]*)"\s*\}'),
              attribute="data-quote", states="expr", reading=_read_passage, noun="quote",
              written='`code`{ data-quote="module.name: passage" }', source=PythonSource()))
