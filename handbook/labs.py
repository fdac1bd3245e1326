"""Labs: ``labs/<chapter>.py`` (jupytext percent, no outputs) becomes a notebook readers download,
is executed top to bottom in a new Jupyter kernel (handbook/runs.py), and its executed cells become a
Markdown page that goes through the same pipeline as the chapters (math, claims, figures, headings).

One source serves every edition: its code cells are written once, and each text cell is in one
language, named in its header (``# %% [markdown] lang="ko"``). An edition's notebook is the code
cells and its language's text cells; between two code cells, every language has as many text
cells as the others (``editions.lab_pair_problems``), so each edition's text sits beside the same code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import nbformat
from claimcheck import document

from .claims import LAB, LabValues

SNIPPET_CELL = re.compile(r"# snippet: (\S+\.py)")
# The two cell headers a lab source may use: code, or text in one language.
HEADER = re.compile(r'# %%(?: \[markdown\] lang="(?P<lang>[a-z]{2,3}(?:-[A-Za-z0-9]+)?)")?')
SETUP = """\
# Colab has torch and matplotlib; install the Korean font package if missing.
import importlib.util, subprocess, sys
if importlib.util.find_spec("koreanize_matplotlib") is None:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "koreanize-matplotlib"], check=True)"""
class LabError(Exception):
    """A lab is broken: a missing snippet, a cell that raised or wrote to stderr."""


def notebook(source: Path, snippets: Path, lang: str, site_url: str = "", download: bool = True,
             shows: Callable[[str], str | None] | None = None, made: dict[tuple, Any] | None = None) -> Any:
    """The notebook readers of the ``lang`` edition download: its text cells and the code cells.
    Each ``# snippet: chapter/x.py`` cell becomes that snippet's code as the edition shows it
    (``shows(name)``: an edition's runner gives its variant where one exists; by default the file
    under ``snippets``), a setup cell comes first, claims are
    plain code, links point at the site, and cell ids are fixed, so the same sources always give
    the same bytes. With ``download=False``, the text cells stay as the page renders them (claims,
    links to the chapters' Markdown files).

    With ``made`` (kept from one call to the next: the build's), made once for the same inputs (the
    lab's text, and the name and text of every snippet it may include): a `serve` rebuild asks for
    every edition's notebooks twice, and jupytext's parse and nbformat's validation took 2.1 of a
    prose edit's 7.7 profiled seconds. ``made`` holds the latest notebook of each kind."""
    import copy

    text = source.read_text(encoding="utf-8")
    if shows is None:
        def shows(name: str) -> str | None:
            return (snippets / name).read_text(encoding="utf-8") if (snippets / name).is_file() else None
    included = []
    for name in sorted(set(SNIPPET_CELL.findall(text))):  # every line that looks like one: a superset
        included.append((name, shows(name) if (snippets / name).is_file() else None))
    which, inputs = (str(source), str(snippets), lang, site_url, download), (text, tuple(included))
    made = {} if made is None else made
    if made.get(which, (None,))[0] != inputs:
        made[which] = (inputs, _notebook(source, snippets, lang, site_url, download, dict(included)))
    return copy.deepcopy(made[which][1])


def _notebook(source: Path, snippets: Path, lang: str, site_url: str, download: bool,
              included: dict[str, str | None]) -> Any:
    import jupytext

    name = source.stem
    languages = [c.lang for c in cells_of(source) if c.lang]  # the headers checked first
    if lang not in languages:
        raise LabError(f"{shown(source)} has no text in {lang!r} (its text cells are in {sorted(set(languages))})")
    book = jupytext.read(source, fmt="py:percent")
    book.cells = [c for c in book.cells if c.cell_type == "code" or c.metadata.get("lang") == lang]
    for cell in book.cells:
        if cell.cell_type == "code" and (m := SNIPPET_CELL.fullmatch(cell.source.strip())):
            if included.get(m[1]) is None:
                raise LabError(f"{shown(source)} includes a missing snippet snippets/{m[1]}")
            cell.source = included[m[1]].rstrip()
        elif cell.cell_type == "markdown" and download:
            cell.source = document.plain(cell.source)
            cell.source = re.sub(r"\]\(\.\./([\w/-]+)\.md(#[\w-]+)?\)",
                                 lambda l: f"]({site_url or '../../'}{l[1]}/{l[2] or ''})", cell.source)
    first_code = next(i for i, c in enumerate(book.cells) if c.cell_type == "code")
    book.cells.insert(first_code, nbformat.v4.new_code_cell(SETUP))
    for number, cell in enumerate(book.cells):
        cell.id, cell.metadata = f"{name}-{number}", {}
    book.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                     "language_info": {"name": "python"}}
    nbformat.validate(book)
    return book


def shown(source: Path) -> str:
    """How messages name a lab source: ``labs/causal.py``."""
    return f"{source.parent.name}/{source.name}"


class Cell(NamedTuple):
    line: int  # of its header, from one
    lang: str | None  # a text cell's language; None for code


def cells_of(source: Path) -> list[Cell]:
    """The cells of a lab source, by their headers; a header of any other form is a ``LabError``
    naming its line (a text cell with no language would be shown in none, or in every edition)."""
    found = []
    for number, line in enumerate(source.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("# %%"):
            if not (header := HEADER.fullmatch(line.rstrip())):
                raise LabError(f"{shown(source)}:{number}: a cell header is '# %%' (code) or "
                               f'\'# %% [markdown] lang="ko"\' (text in one language), not {line!r}')
            found.append(Cell(number, header["lang"]))
    return found


def prose(source: Path, lang: str | None) -> str:
    """The ``lang`` text cells of a lab source (every language's, for None) with their ``# ``
    removed, every other line blank, so the prose checks report the source file's own line numbers."""
    starts = {c.line: c.lang is not None and lang in (None, c.lang) for c in cells_of(source)}
    lines, ours = [], False
    for number, line in enumerate(source.read_text(encoding="utf-8").split("\n"), 1):
        if number in starts:
            ours = starts[number]
            lines.append("")
        else:
            lines.append(re.sub(r"^# ?", "", line) if ours else "")
    return "\n".join(lines)


def lab_claims(source: Path, lang: str) -> list[tuple[int, int, str]]:
    """(line, code cell, expression) of each ``lab: expr`` claim in a lab source's ``lang`` text: the
    code cell is the first one after the claim's text (0 for the source's first code cell)."""
    from .prose import read_claims

    starts = [c.line for c in cells_of(source) if c.lang is None]
    problems: list[str] = []
    found = []
    for claim in read_claims(prose(source, lang), str(source), problems):
        if claim.snippet == LAB:
            cell = next((i for i, start in enumerate(starts) if start > claim.line), None)
            if cell is None:
                raise LabError(f"{claim.where}: a lab claim with no code cell after its text to evaluate it in")
            found.append((claim.line, cell, claim.expr))
    return found


def lab_values(source: Path, lang: str, book: Any) -> LabValues:
    """What the lab claims of ``source``'s ``lang`` text read, from its executed notebook ``book``."""
    found = book.metadata.get("handbook", {}).get("claims", {})
    values = {}
    for line, cell, expr in lab_claims(source, lang):
        kind, value = found.get(str(cell), {}).get(expr, ("missing", None))
        values[(line, expr)] = (kind, value)
    return LabValues(values)


def markdown(book: Any, text: Any, add_figure: Callable[[bytes, str], str], output: str = "출력") -> str:
    """An executed notebook as a Markdown page: text cells as ``text`` (the same notebook with
    ``download=False``) has them, code as code blocks, printed text as output blocks, figures as
    files (``add_figure(png, code)`` gives the image tag). The code cell right after a folded
    answer (a text cell ending in ``</details>``) checks that answer: on the page it is folded with
    it, so its output does not give the answer away."""
    parts: list[str] = []
    folded = False
    for cell, page_cell in zip(book.cells, text.cells, strict=True):
        if cell.cell_type == "markdown":
            folded = page_cell.source.rstrip().endswith("</details>")
            parts.append(page_cell.source.rstrip().removesuffix("</details>") if folded else page_cell.source)
            continue
        parts += _code(cell, page_cell.source, add_figure, output)
        if folded:
            parts.append("</details>")
            folded = False
    return "\n\n".join(parts) + "\n"


def _code(cell: Any, source: str, add_figure: Callable[[bytes, str], str], title: str) -> list[str]:
    """An executed cell's outputs under ``source``, its code as the sources have it now (a comment
    edited since the run changes no output)."""
    import base64

    parts = [f"```python\n{source}\n```"]
    for output in cell.outputs:
        data = output.get("data", {})
        if output.output_type == "stream":
            parts.append(f'```{{.text .output title="{title}"}}\n{output.text.rstrip()}\n```')
        elif "image/png" in data:
            parts.append(add_figure(base64.b64decode(data["image/png"]), source))
        elif "text/plain" in data:
            parts.append(f'```{{.text .output title="{title}"}}\n{data["text/plain"].rstrip()}\n```')
    return parts
