"""A value as a page shows it: numbers formatted (``fmt``), snippet values made plain Python
(``plain``), table cells and rows, code spans, an SVG's size. (What a number in text is, is
claimcheck's: ``claimcheck.numbers``.)"""

from __future__ import annotations

import math
import re
from typing import Any

def size(svg: str) -> tuple[int, int]:
    """An SVG's width and height in CSS pixels (matplotlib writes points: 3 px to 4)."""
    return tuple(round(float(re.search(rf'{a}="([\d.]+)pt"', svg)[1]) * 4 / 3) for a in ("width", "height"))


def flat(value: Any) -> list[Any]:
    return [x for v in value for x in flat(v)] if isinstance(value, list) else [value]


def fmt(x: Any, digits: int = 4) -> str:
    """One number as the pages show it.

    An integer-looking result (``0``, ``1``, ``-3``) is shown only when the value is exactly that
    integer, so a ``0`` on the site always means exactly zero, and ``-0`` a negative zero; a tiny
    non-zero value is shown in scientific notation instead of rounding to ``0``.
    """
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return str(x)
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if x == int(x):
        return "-0" if math.copysign(1, x) < 0 and x == 0 else str(int(x))
    if abs(x) < 0.5 * 10**-digits:
        return f"{x:.2e}"
    rounded = f"{x:.{digits}f}"
    trimmed = rounded.rstrip("0").rstrip(".")
    return rounded if "." not in trimmed else trimmed


def plain(value: Any) -> Any:
    """Tensors, arrays and sizes as plain Python lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (tuple, list)):  # torch.Size too, and lists of tensors
        return [plain(v) for v in value]
    return value


def cell(value: Any, digits: int) -> str:
    """A table cell: labels as they are, a row of numbers as ``1, 0.5, 0``."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join(cell(v, digits) for v in value)
    return fmt(value, digits)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span, however many backticks it holds."""
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def markdown_table(header: list[str], body: list[list[str]], aligns: list[str]) -> str:
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", r"\|") for c in cells) + " |"

    return "\n".join([row(header), "| " + " | ".join(aligns) + " |", *map(row, body)])


def twin(rows: Any, mask: Any, where: str) -> str:
    """The text twin of a mask figure, as a code block a reader copies into an issue or a test:
    ``rows``, the ■ (kept) and ⬚ (masked) lines a snippet made (a list of such lists for several
    grids; spaces between cells allowed), which must spell ``mask`` (2-D, or 3-D for several);
    ``where`` names them in the error."""
    grids, masks = (rows, mask) if rows and isinstance(rows[0], list) else ([rows], [mask])
    spelt = [["".join("■" if keep else "⬚" for keep in line) for line in grid] for grid in masks]
    if not all(isinstance(r, str) for g in grids for r in g) or [[r.replace(" ", "") for r in g] for g in grids] != spelt:
        raise ValueError(f"{where}: the rows do not spell the mask in ■ (kept) and ⬚ (masked), row for row")
    return "```{.text .twin}\n" + "\n\n".join("\n".join(g) for g in grids) + "\n```"
