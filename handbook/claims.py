"""Claims: numbers in the prose that carry the snippet expression they assert.

    둘째 줄은 `[0.5, 0.5, 0, 0]`{ data-claim="causal/weights.py: weights[1]" } 입니다.

The reader sees plain code; the build evaluates the expression in the namespace the snippet leaves
and compares it with the literal *as written* (claimcheck's forms, ``claimcheck/src/claimcheck/forms.py``,
one object a form):

* an integer (``0``, ``2``, ``-1``) must match exactly; ``0`` and ``-0`` are different (the sign of
  a float zero counts), as are ``inf``, ``-inf`` and ``nan``;
* a decimal matches after rounding to its digits (``0.3333`` allows +-0.00005, ``1e-9`` +-0.5e-9);
* a fraction ``1/3`` matches to a relative 1e-6, a percentage ``25%`` is the number 0.25;
* what rounding decides is stated as what holds on every machine: a bound (``< 1e-6``, ``≤ 0``,
  ``> 0.5``), a range (``0.50 … 0.56``, both ends included) or a tolerance (``0.514 ± 0.02``);
* ``True``, ``False`` and quoted strings match exactly; a list or tuple matches element by element,
  and a single number or bound against a tensor must hold for every element of it.

A number the prose spells out is a claim too, in plain text (claimcheck's ``words`` form reads it):

    키 <span data-claim="scaling/dk_frames.py: len(keys)">여덟</span> 개

In a lab's text, ``lab: expr`` names the lab itself: the expression is evaluated in the lab's kernel
right after the code cell that follows the text cell (handbook/runs.py), so an answer is checked
against the cell that checks it.

The expression must read a name the snippet (or the lab) defined: a constant proves nothing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from claimcheck import document
from claimcheck.check import check
from claimcheck.sources import SourceError

from .values import plain
from .snippets import Runner, SnippetError

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
class Claim(document.Claim):
    """A claim of one of the handbook's pages: its target is a snippet (``chapter/x.py``), the lab
    it is written in (``lab``), or, for a quote, the installed code it quotes; its ``form`` is
    claimcheck's (None, ``words``, ``quote``)."""

    @property
    def snippet(self) -> str:
        return self.target

    def check(self, runner: Runner, lab: LabValues | None = None) -> str | None:
        """None when the claim holds, else a message naming file, line and both values
        (claimcheck's check, with this page's values: ``PageValues``). A ``lab:`` claim reads
        ``lab``: without it (no executed lab), the claim cannot be checked."""
        return check(self, PageValues(runner, lab)).problem


class PageValues:
    """claimcheck's source for a page: a snippet's run (``runner``), or the page's lab (``lab``)."""

    def __init__(self, runner: Runner, lab: LabValues | None) -> None:
        self.runner, self.lab = runner, lab

    def describe(self, claim: Any) -> str:
        return "the lab" if claim.target == LAB else "the snippet"

    def value(self, claim: Any) -> Any:
        try:
            if claim.target == LAB:
                if self.lab is None:
                    raise SourceError("it names the lab, and no executed lab was given")
                return plain(self.lab.value(claim.line, claim.expr))
            run = self.runner.run(claim.target)
            if unknown := _unknown_name(claim.expr, run.names()):
                raise SourceError(unknown)
            if not _reads_the_snippet(claim.expr, run.names()):
                raise SourceError("the expression reads no name the snippet defines")
            return plain(run.value(claim.expr))
        except SnippetError as error:
            raise SourceError(str(error)) from None


def _unknown_name(expr: str, names: dict[str, bool]) -> str | None:
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
        if isinstance(node, ast.Name) and node.id not in names and node.id not in bound \
                and not hasattr(builtins, node.id):
            own = list(names)
            near = difflib.get_close_matches(node.id, own, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            return f"the snippet defines no name {node.id!r}{hint}"
    return None


def _reads_the_snippet(expr: str, names: dict[str, bool]) -> bool:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return True  # evaluating it reports the syntax error
    own = {k for k, module in names.items() if not module}
    return any(isinstance(n, ast.Name) and n.id in own for n in ast.walk(tree))
