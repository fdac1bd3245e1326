"""What a page shows of a snippet's run, as Markdown: the code, tables, figures, the output.

Pages call ``handbook.run("chapter/x.py")`` in a ``markdown-exec`` block and print what the methods
of the returned ``Example`` write. Table labels are lists of words, names of snippet values
(``rows="queries"``), or templates numbered from one (``rows="{}번 줄"``), never typed numbers.
"""

from __future__ import annotations

import hashlib
import html
import re
import textwrap
from typing import Any

from claimcheck.numbers import numbers_in

from .figures import PAGE_MARGINS
from .snippets import Run, SnippetError
from .values import cell, code_span, flat, fmt, markdown_table, plain, size, twin

FIGURE_SRC = "@figures/"  # the plugin rewrites it to the page's relative path to assets/figures/

# A template's field: ``{}`` (the row's number from one) or ``{name}``, ``{name:.4g}`` (a snippet value).
FIELD = re.compile(r"\{(\w*)(?::[^{}]*)?\}")


def is_template(spec: Any) -> bool:
    return isinstance(spec, str) and FIELD.search(spec) is not None


class Printed(list):
    """Lines a snippet printed: read from the snippet, not typed in the page."""


class Figures:
    """The figure files of one build (name by content -> SVG text or PNG bytes) and the alt text
    each snippet's figure was given, so a lab showing the same snippet can reuse it."""

    def __init__(self) -> None:
        self.files: dict[str, str | bytes] = {}
        self.alts: dict[tuple[str, int], str] = {}

    def add(self, content: str | bytes, suffix: str) -> str:
        data = content.encode() if isinstance(content, str) else content
        name = hashlib.sha256(data).hexdigest()[:16] + suffix
        self.files[name] = content
        return name


class Example:
    """One snippet's run, as a page shows it."""

    def __init__(self, run: Run, figures: Figures, words: dict[str, str]) -> None:
        self.run, self._figures = run, figures
        self._words = words  # the edition's (its config's handbook: words)

    @property
    def stdout(self) -> str:
        return self.run.stdout

    def value(self, expr: str) -> Any:
        return self.run.value(expr)

    def labels(self, spec: list[str] | str, count: int) -> list[str]:
        """Labels as given (a list of words), a template (see ``template``), or the value of a
        snippet expression (a list, a tensor, a string of characters)."""
        if isinstance(spec, list):
            return self.typed(spec)
        if is_template(spec):
            return self.template(spec, count)
        return [str(x) for x in self.items(spec)]

    def items(self, expr: str) -> list[Any]:
        """The items of a snippet value (a list, a tensor, a string of characters), as plain values."""
        items = plain(self.value(expr))
        if not isinstance(items, (list, str)):
            raise SnippetError(f"{self.run.name}: labels {expr!r} are not a list")
        return list(items)

    def template(self, spec: str, count: int | None = None) -> list[str]:
        """One label per row: ``{}`` is the row's number from one, ``{name}`` (or ``{name:.4g}``)
        the row's item of the snippet value ``name``: ``"{}번 줄"``, ``"`sdpa({calls})`"``; a
        snippet value that is one number (``{n_keys}``) is the same in every row."""
        if numbers := numbers_in(FIELD.sub(" ", spec)):
            raise SnippetError(f"{self.run.name}: label {spec!r} is typed by hand: number {numbers[0]!r} "
                               "in it is not read from the snippet")
        names = list(dict.fromkeys(m[1] for m in FIELD.finditer(spec) if m[1]))
        one = {n: v for n in names if isinstance(v := plain(self.value(n)), (int, float)) and not isinstance(v, bool)}
        values = {n: self.items(n) for n in names if n not in one}
        count = count if count is not None else len(next(iter(values.values()), []))
        values |= {n: [v] * count for n, v in one.items()}
        for name, items in values.items():
            if len(items) != count:
                raise SnippetError(f"{self.run.name}: {name!r} has {len(items)} items, the table {count} rows")
        return [spec.format(i, **{n: v[i - 1] for n, v in values.items()}) for i in range(1, count + 1)]

    def typed(self, labels: list[str]) -> list[str]:
        """Labels typed in the page: words only. A number the reader sees is measured or counted,
        so it comes from the snippet (a name of its values, or a template numbered from one)."""
        if isinstance(labels, Printed):
            return list(labels)
        for label in labels:
            if numbers_in(str(label)):
                raise SnippetError(f"{self.run.name}: label {label!r} is typed by hand: read it from the "
                                   "snippet (a name, or a template such as '{}번 줄')")
        return list(labels)

    def printed(self) -> list[str]:
        """The lines the snippet printed, as labels of a table: set as code, as the terminal shows
        them (a message's ``(..., L_Q, d_k)`` is the program's text)."""
        return Printed(code_span(line) for line in self.output().splitlines()[1:-1])

    def code(self) -> str:
        """The snippet as a titled, copyable code block."""
        return f'```python title="snippets/{self.run.name}"\n{self.run.source.rstrip()}\n```'

    def output(self) -> str:
        """What ``python snippets/<name>`` prints, as a code block."""
        if not self.run.stdout:
            raise SnippetError(f"{self.run.name} prints nothing")
        return f"```{{.text .output}}\n{self.run.stdout.rstrip()}\n```"

    def twin(self, expr: str, of: str) -> str:
        """The snippet's ■/⬚ rows ``expr`` as a copyable block, checked to spell the mask ``of``."""
        return twin(plain(self.value(expr)), plain(self.value(of)), f"{self.run.name}: {expr!r}, {of!r}")

    def matrix(self, expr: str, rows: list[str] | str, cols: list[str] | str, corner: str = "",
               digits: int = 4) -> str:
        """A 2-D tensor (or list of lists) as a table."""
        data = plain(self.value(expr))
        if not (isinstance(data, list) and data and all(isinstance(r, list) for r in data)):
            raise SnippetError(f"{self.run.name}: {expr!r} is not a 2-D tensor")
        rows, cols = self.labels(rows, len(data)), self.labels(cols, len(data[0]))
        if len(data) != len(rows) or any(len(r) != len(cols) for r in data):
            raise SnippetError(f"{self.run.name}: {expr!r} has shape {(len(data), len(data[0]))}, "
                               f"labels are {len(rows)} x {len(cols)}")
        self.words_only(corner, "corner")
        body = [[label, *(fmt(x, digits) for x in row)] for label, row in zip(rows, data)]
        return markdown_table([corner, *cols], body, ["---", *["---:"] * len(cols)])

    def title(self, spec: str) -> str:
        """A column title (or alt text) with ``{expr}`` fields filled from snippet values that are one
        number or string (``"최대 가중치 > {threshold}인 줄"``, ``"앞 {len(alone)} 칸"``), so a
        count or a threshold in a title is read, not typed."""
        def fill(m: re.Match) -> str:
            if m["math"]:
                return m["math"]  # $p_{ij}$: TeX's braces, not a field
            value = plain(self.value(m[2]))
            if isinstance(value, list) or isinstance(value, bool):
                raise SnippetError(f"{self.run.name}: the title field {{{m[2]}}} is not one value")
            return format(value, m[3] or "")
        return re.sub(r"(?P<math>\$[^$]*\$)|\{([^{}:$]+)(?::([^{}]*))?\}", fill, spec)

    def words_only(self, text: str, what: str, column: list[Any] | None = None) -> None:
        """Text the page types (a corner, a caption, a column title) holds words, math and code: a
        number outside them is typed by hand, and so is a value in code font that reads no name. A
        bound in code font in a column's title (`` `< 1e-6` ``) is a claim about that column: every
        number in it must hold it."""
        from claimcheck.forms import Approx, Bound, Range, matches, parse_literal
        from .prose import API_LITERALS, span_values

        words = re.sub(r"`[^`]*`|\$[^$]*\$", " ", text)
        if numbers := [n for n in numbers_in(words) if n not in API_LITERALS]:
            raise SnippetError(f"{self.run.name}: number {numbers[0]!r} in the {what} {text!r} is typed by hand: "
                               "read it from the snippet, or write code that names it")
        for span in re.findall(r"`([^`]*)`", text):
            try:
                literal = parse_literal(span) if re.match(r"\s*[<>≤≥]|.*…", span) else None
            except ValueError:
                literal = None
            if isinstance(literal, (Bound, Range)) and column is not None:
                if all(isinstance(v, bool) for v in flat(column)):
                    continue  # a column of answers to the title's question ("difference < 1e-6": True)
                numbers = [v for v in flat(column) if isinstance(v, (int, float)) and not isinstance(v, bool)]
                if not numbers or not all(matches(literal, v) for v in numbers):
                    wrong = next((v for v in numbers if not matches(literal, v)), None)
                    raise SnippetError(f"{self.run.name}: the {what} {text!r} says {span}, and the column holds "
                                       f"{fmt(wrong)}" if numbers else f"{self.run.name}: the {what} {text!r} bounds no number")
            elif span_values(f"`{span}`") and not isinstance(literal, Approx):
                raise SnippetError(f"{self.run.name}: the value `{span}` in the {what} {text!r} is typed by hand")

    def table(self, columns: dict[str, str | list[str]], digits: int = 4) -> str:
        """One row per item: a list gives labels, a template fills one label per row (``"{}번 줄"``,
        ``"{taus:g}"``), any other string is an expression whose items fill the column (a row of a
        tensor shows as ``1, 0.5, 0``)."""
        spec_titles = {self.title(t): t for t in columns}  # the title as typed: its numbers are checked, not the filled ones
        columns = {self.title(t): spec for t, spec in columns.items()}
        templates = {t for t, s in columns.items() if is_template(s)}
        cells = {t: (self.typed(s) if isinstance(s, list) else plain(self.value(s)))
                 for t, s in columns.items() if t not in templates}
        count = len(next((c for c in cells.values() if isinstance(c, list)), [])) if cells else None
        cells = {t: self.template(columns[t], count) if t in templates else cells[t] for t in columns}
        for title, col in cells.items():
            if title in spec_titles:
                self.words_only(spec_titles[title], "column title", col if isinstance(col, list) else None)
        lengths = {title: len(col) if isinstance(col, list) else None for title, col in cells.items()}
        if None in lengths.values() or len(set(lengths.values())) != 1:
            raise SnippetError(f"{self.run.name}: columns differ in length: {lengths}")
        body = [[cell(c, digits) for c in row] for row in zip(*cells.values())]
        aligns = ["---" if all(isinstance(c, str) for c in col) else "---:" for col in cells.values()]
        return markdown_table(list(columns), body, aligns)

    def figure(self, index: int = 0, *, alt: str, caption: str = "") -> str:
        """The ``index``-th figure the snippet showed, as a lazily loaded file named by content."""
        if not alt.strip():
            raise SnippetError(f"{self.run.name}: figure {index} needs alt text")
        if numbers := numbers_in(FIELD.sub(" ", alt)):
            raise SnippetError(f"{self.run.name}: number {numbers[0]!r} in alt text is not checked: "
                               "describe the figure in words, or read the number: {name}")
        self.words_only(caption, "caption")
        return self._figure(index, self.title(alt), caption)  # {n_rows}: a count the snippet has

    def frames(self, name: str, label: str, alt: str) -> str:
        """Every figure the snippet showed, one per item of a snippet value, as tabs that the site's
        script turns into a slider called ``name``: ``label`` and ``alt`` are templates of that
        value (``"τ = {taus:g}"``), so each frame's number is read from the snippet."""
        labels, alts = self.template(label), self.template(alt)
        for text in (name, *(FIELD.sub(" ", t) for t in (label, alt))):
            if numbers := numbers_in(text):
                raise SnippetError(f"{self.run.name}: number {numbers[0]!r} in {text!r} is typed by hand")
        if len(labels) != len(self.run.figures):
            raise SnippetError(f"{self.run.name} showed {len(self.run.figures)} figure(s) for {len(labels)} frames")
        tabs = [f'=== "{t}"\n\n    ' + self._figure(i, a) for i, (t, a) in enumerate(zip(labels, alts))]
        return f'<div class="frames" data-name="{html.escape(name)}" markdown>\n\n' + "\n\n".join(tabs) + "\n\n</div>"

    def _figure(self, index: int, alt: str, caption: str = "") -> str:
        if index >= len(self.run.figures):
            raise SnippetError(f"{self.run.name} showed {len(self.run.figures)} figure(s), not {index + 1}")
        svg, phone = self.run.figures[index], self.run.phones[index]
        width, height = size(svg)
        name = self._figures.add(svg, ".svg")
        self._figures.alts[(self.run.name, index)] = alt
        image = (f'<img class="snippet-figure" src="{FIGURE_SRC}{name}" alt="{html.escape(alt)}" '
                 f'width="{width}" height="{height}" loading="lazy" decoding="async">')
        if phone is not None:  # where the page is too narrow for the figure, its phone copy
            narrow, (phone_width, phone_height) = self._figures.add(phone, ".svg"), size(phone)
            image = (f'<picture><source media="(max-width: {width + PAGE_MARGINS - 1}px)" '
                     f'srcset="{FIGURE_SRC}{narrow}" width="{phone_width}" height="{phone_height}">'
                     f"{image}</picture>")
        return f"{image}\n\n/// caption\n{caption}\n///" if caption else image

    def example(self, *views: str, output: bool = True) -> str:
        """The code block, then tabs: what the page shows from it, and what it prints."""
        tabs = [(self._words["result"], "\n\n".join(views))] if views else []
        if output:
            tabs.append((self._words["terminal"], self.output()))
        return "\n\n".join([self.code(), *(f'=== "{t}"\n\n' + textwrap.indent(b, "    ") for t, b in tabs)])
