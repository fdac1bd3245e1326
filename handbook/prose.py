"""Reading a page's prose: its claims (quotes of library source among them), and the numbers no claim covers.

Every digit in running prose must sit inside a claim, a code span or math; digits inside identifiers
(``float32``, ``d_k``) are fine. A measured value must not hide in math either: ``\\approx`` followed
by a number is reported, since math is not checked. One page reports every problem at once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from claimcheck import document
from claimcheck.document import NOT_PROSE, prose_lines
from claimcheck.numbers import numbers_in

from .claims import LAB, Claim, LabValues
from .snippets import Runner


def read_claims(text: str, file: str, problems: list[str]) -> list[Claim]:
    """Every claim and quote of one page (claimcheck's reading: malformed spans, and targets Markdown
    would change, are added to ``problems``), with the handbook's rule for a claim's target: a
    snippet, ``chapter/x.py``, or in a lab, ``lab``, the lab itself."""
    found = []
    in_lab = Path(file).parent.name == "labs"  # labs/<chapter>.py
    for c in document.read_claims(text, file, problems):
        if c.form != "quote" and c.target == LAB and not in_lab:
            problems.append(f'{c.where}: a claim names "{LAB}", and this page is not a lab: '
                            'name the snippet, "chapter/snippet.py: expression"')
        elif c.form != "quote" and not (c.target.endswith(".py") or c.target == LAB):
            problems.append(f'{c.where}: claim target must read "chapter/snippet.py: expression"'
                            + (f' or "{LAB}: expression"' if in_lab else ""))
        else:
            found.append(Claim(c.file, c.line, c.literal, c.target, c.expr, c.form))
    return found


_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$")
_TAG_DATA = re.compile(r"<\w+\s[^>]*?\b(?P<attr>data-[\w-]*)")  # <span data-clam="…">: as silent as a code span's
# A measured value hidden in math: after \approx, \sim, \simeq, ≈ or ≃ (thin spaces and braces
# between them and the number change nothing), or a math span that is only "= number" / "≈ number".
_SPACING = r"(?:\s|\\[,;:!>]|\\ |\{|\\quad|\\qquad|~)*"
_APPROX = re.compile(rf"(?:\\approx|\\simeq|\\sim(?![a-z])|≈|≃){_SPACING}[-−]?{_SPACING}\d"
                     rf"|^\$+{_SPACING}(?:=|\\approx|≈){_SPACING}[-−]?{_SPACING}\d")
# Digits hidden from the bare-number rule: a character reference (&#x31; is "1") or a raw tag's text
# attribute (title, alt, aria-label), which the reader sees or hears as prose.
_ENTITY = re.compile(r"&#(?:[xX][0-9a-fA-F]+|\d+);")
_TEXT_ATTRIBUTE = re.compile(r"""\b(?:title|alt|aria-label)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


# A code span that reads no name is a value, not code: a number in code font looks exactly like a
# checked one, so it must be a claim (or a quote) unless it is one of these. Literals a reader passes
# to the API (mask values, fills, the last axis) are code; so are references to a source: an issue
# (#131863), a section (§3.1.1), a commit (0251105a), a date (2024-08), a year (1900 to 2026), a
# three-part version (2.13.0). A two-part version names its product inside the span: `torch 2.1`.
API_LITERALS = frozenset({"0", "1", "-1", "0.0", "1.0", "inf", "-inf", "nan", "-1e9", "1e9", "-1e4"})
_REFERENCE = re.compile(r"#\d+|§[\d.]+|(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}|\d{4}-\d{2}(?:-\d{2})?|\d+\.\d+\.\d+"
                        r"|(?:19\d\d|20[01]\d|202[0-6])")
_NUMBER_TOKEN = re.compile(r"(?<![\w.])[-−]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])")
_PLAIN_SPAN = re.compile(r"(?<!`)`(?P<code>[^`\n]+)`(?!`)(?P<attrs>\{[^}\n]*\})?")


def span_values(line: str) -> list[str]:
    """The code spans of one line that are values (see API_LITERALS) and carry no claim or quote."""
    found = []
    for m in _PLAIN_SPAN.finditer(line):
        code = m["code"].strip()
        if m["attrs"] or not re.search(r"\d", code) or _REFERENCE.fullmatch(code):
            continue
        if re.search(r"[^\W\d]\w*", _NUMBER_TOKEN.sub(" ", code)):
            continue  # it reads a name: code
        if any(t.replace("−", "-") not in API_LITERALS for t in _NUMBER_TOKEN.findall(code)):
            found.append(code)
    return found


def prose_numbers(text: str, file: str) -> list[str]:
    """Digits in running prose that no claim, code span or math covers, and measured values in
    math, as ``file:line: …`` (a misspelt attribute and a fence left open are ``read_claims``'s)."""
    found = []
    for number, line in prose_lines(text, file):
        line = _ENTITY.sub(lambda m: html.unescape(m[0]), line)
        attributes = " ".join(a or b for a, b in _TEXT_ATTRIBUTE.findall(line))
        bare = numbers_in(NOT_PROSE.sub(" ", line)) or numbers_in(attributes)
        if bare:
            found.append(f"{file}:{number}: number {bare[0]!r} in prose is not a claim: {line.strip()}")
        for value in span_values(line):
            found.append(f"{file}:{number}: the value `{value}` in code font is not a claim: make it a claim "
                         "(or a quote of the source); code reads a name, `torch 2.1`, `window(2.5)`")
        for m in _TAG_DATA.finditer(line):
            if m["attr"] != "data-claim":
                found.append(f"{file}:{number}: a tag with the attribute {m['attr']!r}: the prose's tags take only "
                             'data-claim (<span data-claim="snippet.py: expr">words</span>)')
        if any(_APPROX.search(m[0]) for m in _MATH.finditer(line)):
            found.append(f"{file}:{number}: a measured value (\\approx) in math is not checked: make it a claim")
    return found + front_matter_numbers(text, file)


def front_matter_numbers(text: str, file: str) -> list[str]:
    """Numbers in a page's title and description (what a search result and a link preview show),
    which no claim can carry: only the API's literals (0, 1, -1) and a product's version (Keras 3)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return []
    found = []
    for number, line in enumerate(lines[1:], 2):
        if line.strip() == "---":
            break
        key, _, value = line.partition(":")
        if key.strip() in ("title", "description"):
            value = re.sub(r"\b[A-Z][\w.+-]* \d+(?:\.\d+)*\b", " ", value)  # Keras 3, Python 3.11
            bare = [n for n in numbers_in(value.replace("−", "-")) if n not in API_LITERALS and f"-{n}" not in API_LITERALS]
            if bare:
                found.append(f"{file}:{number}: number {bare[0]!r} in the page's {key.strip()}: no claim can check it there: "
                             "leave the number to the page's prose, where a claim checks it")
    return found


def check_page(text: str, file: str, runner: Runner, lab: LabValues | None = None,
               later: Callable[[str], bool] | None = None) -> list[str]:
    """Every problem of one page: malformed or failing claims and quotes, bare numbers, open fences.
    ``lab``: what a lab's own claims read (its executed notebook's values). ``later(snippet)``: the
    claims of a snippet for which it is true are left for a later check (``mkdocs serve``: its run
    goes on, and its end makes the page again)."""
    problems: list[str] = []
    claims = [c for c in read_claims(text, file, problems)
              if later is None or c.form == "quote" or c.snippet == LAB or not later(c.snippet)]
    problems += [p for c in claims if (p := c.check(runner, lab))]
    return problems + prose_numbers(text, file)
