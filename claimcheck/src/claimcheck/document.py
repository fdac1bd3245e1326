"""Claims in a Markdown page: where they are, and what they say.

A claim is a code span with a ``data-claim`` attribute (Python-Markdown's ``attr_list``)::

    The second row is `[0.5, 0.5, 0, 0]`{ data-claim="causal/weights.py: weights[1]" }.

Its target names where the value comes from (here a snippet) and, after ``: ``, the expression
whose value the literal states. A form may be written in a span of its own (``forms.spans()``: a
number in words, ``<span data-claim="…">eight</span>``). Claims inside fenced code and display math
are examples, not claims. A span that looks like a claim and is not one (no ``: ``, an empty
expression, a misspelt attribute, a target Markdown would read as emphasis or a link) is a problem,
reported with its line: it would otherwise check nothing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .forms import spans

CLAIM = re.compile(r'`(?P<literal>[^`\n]+)`\{\s*data-claim="(?P<target>[^"\n]*)"\s*\}')
ATTRIBUTE = re.compile(r"`\{\s*(?P<attr>[^\s=}]*)")
# What in a line of prose is not running text, where a number needs no claim.
NOT_PROSE = re.compile(
    r"`[^`\n]*`(\{[^}\n]*\})?"  # code spans, claims included
    r"|\$\$.*?\$\$|\$[^$\n]+\$"  # math
    r"|<!--.*?-->|<[^>\n]+>"  # comments and tags
    r"|\]\([^)\n]*\)|\{[^}\n]*\}"  # link targets, attribute lists
    r"|^\s*(\d+\.|[-*+])\s"  # list markers
    r"|\[\^[^\]]+\]"  # footnote marks
)


@dataclass(frozen=True)
class Claim:
    file: str  # as messages name it: docs/softmax.md
    line: int
    literal: str  # as the reader sees it
    target: str  # where the value comes from: a snippet, a notebook, a key of a values file
    expr: str
    form: str | None = None  # the form its span fixes (forms.spans()); None: its literal's syntax decides

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def prose_lines(text: str, file: str, problems: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """(line number, line) for each line outside fenced code, display math and front matter. A
    fence left open is a problem: it would hide the rest of the page from every check."""
    lines = text.split("\n")
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i, ln in enumerate(lines[1:], 1) if ln.strip() == "---"), 0)
    fence, opened = None, 0
    for number, line in enumerate(lines[start:], start + 1):
        stripped = line.strip()
        if fence == "$$":
            if "$$" in stripped:
                fence = None
                yield number, stripped.split("$$", 1)[1]
            continue
        if fence:
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        opening = re.match(r"(`{3,}|~{3,})", stripped)
        if opening:
            fence, opened = opening[1], number
            continue
        if stripped.startswith("$$") and stripped.count("$$") % 2 == 1:
            fence, opened = "$$", number
            continue
        yield number, line
    if fence and problems is not None:
        problems.append(f"{file}:{opened}: {fence} opened here is never closed: the rest of the page "
                        "would be hidden from every check")


def read_claims(text: str, file: str, problems: list[str]) -> list[Claim]:
    """Every claim of one page, in order; each malformed one is added to ``problems``."""
    patterns = [(None, CLAIM, "data-claim")] + [(name, f.span, f.attribute) for name, f in spans().items()]
    attributes = {attribute for _, _, attribute in patterns}
    found = []
    for number, line in prose_lines(text, file, problems):
        matched = sorted(((m.start(), form, attribute, m) for form, pattern, attribute in patterns
                          for m in pattern.finditer(line)), key=lambda span: span[0])
        for attribute in sorted(attributes):
            if line.count(attribute) != sum(a == attribute for _, _, a, _ in matched):
                noun, shapes = _written(attribute)
                problems.append(f"{file}:{number}: malformed {noun} (want {' or '.join(shapes)})")
        for m in ATTRIBUTE.finditer(line):
            if m["attr"] not in attributes:
                near = difflib.get_close_matches(m["attr"], sorted(attributes), n=1, cutoff=0) or sorted(attributes)
                problems.append(f"{file}:{number}: a code span with the attribute {m['attr'] or '{}'!r}: "
                                f"did you mean {near[0]}?")
        for _, form, _, m in matched:
            target, sep, expr = m["target"].partition(": ")
            if not sep or not target.strip() or not expr.strip():
                problems.append(f'{file}:{number}: a claim\'s target reads "target: expression", not {m["target"]!r}')
            elif problem := markdown_problem(m["target"]):
                problems.append(f"{file}:{number}: the target {m['target']!r} {problem}")
            else:
                found.append(Claim(file, number, m["literal"], target.strip(), expr.strip(), form))
    return found


def _written(attribute: str) -> tuple[str, list[str]]:
    """What a span with ``attribute`` is called, and how each form that uses it is written."""
    forms = [f for f in spans().values() if f.attribute == attribute]
    shapes = [f.written for f in forms]
    if attribute == "data-claim":
        return "claim", ['`literal`{ data-claim="target: expression" }', *shapes]
    return forms[0].noun, shapes


def markdown_problem(target: str) -> str | None:
    """What Markdown would do to a claim's target written in an attribute (None: nothing): ``__``,
    or a run of ``*`` touching a word, is emphasis (``a * b`` and ``x ** 0.5`` are safe, ``x**0.5``
    is not); ``](`` makes a link."""
    padded = f" {target} "
    if "__" in target or any(not (padded[m.start() - 1].isspace() and padded[m.end()].isspace())
                             for m in re.finditer(r"\*+", padded)):
        return ("has __, or * touching a name, which Markdown reads as emphasis: write x ** 0.5 with spaces, "
                "or name the value in the script")
    if re.search(r"\]\s*\(", target):
        return "has ](, which Markdown reads as a link: name the value in the script, or call it another way"
    return None


def plain(text: str) -> str:
    """``text`` with each claim as the reader sees it and nothing that makes it one (a code span
    stays a code span, words stay words): for a copy no build checks, such as a notebook to download."""
    for pattern in [CLAIM] + [form.span for form in spans().values()]:
        text = pattern.sub(lambda m: f"`{m['literal']}`" if m[0].startswith("`") else m["literal"], text)
    return text
