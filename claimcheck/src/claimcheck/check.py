"""Checking claims against a source, and bringing exact literals up to date."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .document import NOT_PROSE, Claim, prose_lines, read_claims
from .forms import FORMS, matches, show, stated
from .numbers import numbers_in
from .sources import Source, SourceError


@dataclass(frozen=True)
class Result:
    claim: Claim
    form: str | None  # the literal's form, None if it cannot be read
    actual: Any  # the source's value, None if it could not be had
    problem: str | None  # None when the claim holds

    @property
    def holds(self) -> bool:
        return self.problem is None


def check(claim: Claim, source: Source) -> Result:
    """Whether ``claim`` holds for ``source``'s value (or its form's own source's: a form written in
    a span of its own may bring one)."""
    form = FORMS.get(claim.form) if claim.form is not None else None
    head = f"{claim.where}: {form.noun if form else 'claim'} `{claim.literal}` ({claim.target}: {claim.expr})"
    try:
        parsed = stated(claim)
    except ValueError as error:
        return Result(claim, None, None, f"{head} cannot be checked: {error}")
    if form is not None and form.source is not None:
        source = form.source
    try:
        actual = source.value(claim)
    except SourceError as error:
        return Result(claim, parsed.form, None, f"{head} cannot be checked: {error}")
    if matches(parsed.value, actual):
        return Result(claim, parsed.form, actual, None)
    origin = source.describe(claim) if hasattr(source, "describe") else "the source"
    said = (parsed.value.explain(actual, origin) if hasattr(parsed.value, "explain")
            else f"the prose says {claim.literal}, {origin} gives {show(actual)}")
    return Result(claim, parsed.form, actual, f"{head} does not hold: {said}")


def bare_numbers(text: str, file: str) -> list[str]:
    """A problem for each line of prose with a number no claim, code span or math covers
    (``numbers.py`` says what a number is)."""
    return [f"{file}:{number}: number {found[0]!r} in prose is not a claim: {line.strip()}"
            for number, line in prose_lines(text, file) if (found := numbers_in(NOT_PROSE.sub(" ", line)))]


def check_text(text: str, file: str, source: Source, bare: bool = True) -> tuple[list[Result], list[str]]:
    """Every claim of one page checked, and the page's other problems (malformed claims, an
    unclosed fence, with ``bare`` numbers no claim covers)."""
    problems: list[str] = []
    results = [check(c, source) for c in read_claims(text, file, problems)]
    return results, problems + (bare_numbers(text, file) if bare else [])


def written_as(literal: str, value: Any) -> str | None:
    """``value`` written as ``literal`` is (an integer as an integer, a decimal to as many places,
    a number with an exponent to as many digits), or None where it cannot be."""
    match = re.fullmatch(r"(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", literal.strip().replace("\u2212", "-"))
    if match is None or isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    places = len(match[3] or "")
    if match[4] is not None:
        mantissa, exponent = f"{value:.{places}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if match[3] is None:
        return str(int(value)) if float(value).is_integer() else None
    return f"{value:.{places}f}"


def update_text(text: str, file: str, source: Source) -> tuple[str, list[str], list[str]]:
    """``text`` with each exact number literal that no longer holds rewritten to the source's value
    at its written precision; (new text, what changed, what was left for the author: a bound, a
    range, a tolerance or any other form is re-read by a person, never rewritten)."""
    results, _ = check_text(text, file, source, bare=False)
    lines = text.split("\n")
    changed, left = [], []
    for result in results:
        if result.holds or result.actual is None:
            continue
        claim = result.claim
        new = written_as(claim.literal, result.actual) if result.form == "number" else None
        if new is None:
            left.append(f"{claim.where}: `{claim.literal}` ({result.form or 'unreadable'}) does not hold, and only "
                        f"an exact number is rewritten: re-read it (the source gives {show(result.actual)})")
            continue
        old_span = f"`{claim.literal}`{{"
        line = lines[claim.line - 1]
        at = line.find(old_span + f' data-claim="{claim.target}: {claim.expr}"')
        at = line.find(old_span) if at < 0 else at
        lines[claim.line - 1] = line[:at] + f"`{new}`{{" + line[at + len(old_span):]
        changed.append(f"{claim.where}: `{claim.literal}` -> `{new}`")
    return "\n".join(lines), changed, left
