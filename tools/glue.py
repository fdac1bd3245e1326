"""Build glue: how snippet files become page content, and how the prose is held to them.

This is the only place that knows about the build. It has three users:

* **MkDocs** loads it as a hook (``hooks:`` in ``mkdocs.yml``). While building, it checks every
  claim and every number of each page (a failure is a warning, so ``--strict`` stops), and turns
  TeX into MathML so formulas render with no script and no network at read time.
* **The pages** call it from ``markdown-exec`` blocks::

      ```python exec="on"
      import glue
      ex = glue.run("causal/weights.py")
      print(ex.example(ex.matrix("weights", rows=[...], cols=[...])))
      ```

  ``run`` executes ``snippets/causal/weights.py`` once per build, in this process, capturing what
  it prints and intercepting ``plt.show()`` (each shown figure becomes a deterministic SVG). The
  methods of the returned ``Run`` write Markdown: the code block, tables, figures, the output.
* **The tests** import it to run the same snippets and check the same claims.

Snippet files know nothing of this: they are plain scripts that print and call ``plt.show()``.

Claims
------
A claim is a code span in the prose that carries the expression it asserts::

    둘째 줄은 `[0.5, 0.5, 0, 0]`{ data-claim="causal/weights.py: weights[1]" } 입니다.

The expression is evaluated in the namespace the snippet leaves behind and compared with the
literal *to the precision the literal is written in*:

* an integer (``0``, ``2``, ``-1``) must match exactly, so ``0`` means exactly zero;
* a decimal matches after rounding to its digits (``0.3333`` allows +-0.00005, ``1e-9`` allows
  +-0.5e-9);
* a fraction ``1/3`` matches to a relative 1e-6, a percentage ``25%`` is the number 0.25;
* ``inf``, ``-inf``, ``nan``, ``True``, ``False`` and quoted strings match exactly;
* a list or tuple matches element by element; a single number against a tensor must match
  every element of it.

Numbers in prose
----------------
Every digit in running prose must sit inside a claim, a code span or math; ``prose_numbers``
reports the rest, so a number cannot enter a page without something that checks it. Digits inside
identifiers (``float32``, ``d_k``) are fine.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import hashlib
import html
import io
import logging
import math
import os
import re
import sys
import tempfile
import textwrap
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = ROOT / "snippets"
DOCS = ROOT / "docs"

# Fixed SVG ids and no date stamp: the same snippet gives the same bytes in every build.
SVG_RC = {"svg.hashsalt": "attention-handbook", "svg.fonttype": "path"}

log = logging.getLogger("mkdocs.hooks.glue")

FIGURES = "assets/figures/"  # in the built site
_figures: dict[str, str | bytes] = {}  # file name -> SVG text or PNG bytes, of the current build
_alts: dict[tuple[str, int], str] = {}  # (snippet, figure number) -> the alt text a chapter gave it
_page_url = ""  # the page being built ("causal/"): figure links are relative to it
_page: str | None = None  # its source ("causal.md"), while it is being built
_uses: dict[str, dict[str, str]] = {}  # page source -> {snippet: the source it was built with}


class SnippetError(RuntimeError):
    """A snippet is missing, raised, warned, or left a figure unshown."""


# --------------------------------------------------------------------------------------------
# Running snippets


@dataclass
class Run:
    """What one execution of ``snippets/<name>`` left behind."""

    name: str
    source: str
    namespace: dict[str, Any]
    stdout: str
    figures: list[str] = field(default_factory=list)  # SVG documents, in the order shown

    def value(self, expr: str) -> Any:
        """Evaluate ``expr`` in the snippet's namespace."""
        try:
            return eval(expr, dict(self.namespace))  # noqa: S307  (our own snippets)
        except Exception as error:
            raise SnippetError(f"{self.name}: cannot evaluate {expr!r}: {error!r}") from error

    def labels(self, spec: list[str] | str) -> list[Any]:
        """A list of labels as given, or the value of an expression."""
        return list(spec) if isinstance(spec, list) else _plain(self.value(spec))

    # -- Markdown writers -------------------------------------------------------------------

    def code(self) -> str:
        """The snippet as a titled, copyable code block."""
        return f'```python title="snippets/{self.name}"\n{self.source.rstrip()}\n```'

    def output(self) -> str:
        """What ``python snippets/<name>`` prints, as a code block."""
        if not self.stdout:
            raise SnippetError(f"{self.name} prints nothing")
        return f"```text\n{self.stdout.rstrip()}\n```"

    def matrix(
        self,
        expr: str,
        rows: list[str] | str,
        cols: list[str] | str,
        corner: str = "",
        digits: int = 4,
    ) -> str:
        """A 2-D tensor (or list of lists) as a table. Labels are lists, or expressions that give
        them (``rows="chars"``)."""
        data = _plain(self.value(expr))
        rows, cols = ([str(x) for x in self.labels(v)] for v in (rows, cols))
        if not (isinstance(data, list) and data and all(isinstance(r, list) for r in data)):
            raise SnippetError(f"{self.name}: {expr!r} is not a 2-D tensor")
        if len(data) != len(rows) or any(len(r) != len(cols) for r in data):
            shape = (len(data), len(data[0]))
            raise SnippetError(
                f"{self.name}: {expr!r} has shape {shape}, labels are {len(rows)} x {len(cols)}"
            )
        header = [corner, *cols]
        body = [[label, *(fmt(x, digits) for x in row)] for label, row in zip(rows, data)]
        return _markdown_table(header, body, ["---", *["---:"] * len(cols)])

    def table(self, columns: dict[str, str | list[str]], digits: int = 4) -> str:
        """A table with one row per item: a list gives labels, a string is an expression whose
        items fill the column (a row of a tensor shows as ``1, 0.5, 0``)."""
        cells = {title: self.labels(spec) for title, spec in columns.items()}
        lengths = {title: len(col) for title, col in cells.items()}
        if len(set(lengths.values())) != 1:
            raise SnippetError(f"{self.name}: columns differ in length: {lengths}")
        body = [[_cell(cell, digits) for cell in row] for row in zip(*cells.values())]
        aligns = ["---" if all(isinstance(c, str) for c in col) else "---:" for col in cells.values()]
        return _markdown_table(list(columns), body, aligns)

    def figure(self, index: int = 0, *, alt: str, caption: str = "") -> str:
        """The ``index``-th figure the snippet showed, with Korean alt text.

        The SVG becomes a file of the site (``assets/figures/<hash>.svg``, named by its content,
        written after the build), loaded lazily, so long pages stay light.
        """
        if not alt.strip():
            raise SnippetError(f"{self.name}: figure {index} needs alt text")
        if index >= len(self.figures):
            raise SnippetError(f"{self.name} showed {len(self.figures)} figure(s), not {index + 1}")
        svg = self.figures[index]
        width, height = (
            round(float(re.search(rf'{attr}="([\d.]+)pt"', svg)[1]) * 4 / 3)
            for attr in ("width", "height")
        )
        name = hashlib.sha256(svg.encode()).hexdigest()[:16] + ".svg"
        _figures[name] = svg
        _alts[(self.name, index)] = alt  # the lab showing this snippet reuses it
        src = "../" * _page_url.count("/") + FIGURES + name
        image = (
            f'<img class="snippet-figure" src="{src}" alt="{html.escape(alt)}" '
            f'width="{width}" height="{height}" loading="lazy" decoding="async">'
        )
        return f"{image}\n\n/// caption\n{caption}\n///" if caption else image

    def example(self, *views: str, output: bool = True) -> str:
        """The code block, then tabs: what the page shows from it, and what it prints."""
        tabs = [("결과", "\n\n".join(views))] if views else []
        if output:
            tabs.append(("터미널 출력", self.output()))
        return "\n\n".join([self.code(), *(_tab(title, body) for title, body in tabs)])


# The last run of each snippet, with the source it ran. A snippet depends on nothing but its own
# text and the installed libraries (tests/test_snippets.py runs each one alone from an empty folder),
# and the libraries cannot change inside one process; so while the text is the same, so is the
# result. `mkdocs serve` therefore re-runs only the snippets that changed, and a new process (every
# `mkdocs build`, every deployment) starts empty and runs everything.
_runs: dict[str, Run] = {}


def run(name: str) -> Run:
    """Run ``snippets/<name>``, or reuse the last run if the file has not changed since."""
    path = SNIPPETS / name
    if not path.is_file():
        raise SnippetError(f"no snippet snippets/{name}")
    source = path.read_text(encoding="utf-8")
    last = _runs.get(name)
    if last is None or last.source != source:
        _runs[name] = last = _execute(name, source)
    if _page is not None:
        _uses.setdefault(_page, {})[name] = source
    return last


def _execute(name: str, source: str) -> Run:
    figures: list[str] = []

    def show(*_args: Any, **_kwargs: Any) -> None:
        for number in plt.get_fignums():
            buffer = io.StringIO()
            plt.figure(number).savefig(buffer, format="svg", metadata={"Date": None})
            figures.append(buffer.getvalue())
        plt.close("all")

    stdout = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "snippet", "__builtins__": builtins}
    plt.close("all")
    with (
        contextlib.redirect_stdout(stdout),
        warnings.catch_warnings(record=True) as caught,
        plt.rc_context(SVG_RC),
        _replaced(plt, "show", show),
    ):
        warnings.simplefilter("always")
        exec(compile(source, str(SNIPPETS / name), "exec"), namespace)  # noqa: S102  (our own snippets)
    if plt.get_fignums():
        plt.close("all")
        raise SnippetError(f"snippets/{name} draws a figure but never calls plt.show()")
    problems = [w for w in caught if not issubclass(w.category, DeprecationWarning)]
    if problems:
        raise SnippetError(f"snippets/{name} warned: {problems[0].message}")
    return Run(name, source, namespace, stdout.getvalue(), figures)


@contextlib.contextmanager
def _replaced(owner: Any, attr: str, value: Any):
    original = getattr(owner, attr)
    setattr(owner, attr, value)
    try:
        yield
    finally:
        setattr(owner, attr, original)


# --------------------------------------------------------------------------------------------
# Formatting


def fmt(x: Any, digits: int = 4) -> str:
    """One number as the pages show it.

    An integer-looking result (``0``, ``1``, ``-3``) is shown only when the value is exactly that
    integer, so a ``0`` on the site always means exactly zero; a tiny non-zero value is shown in
    scientific notation instead of rounding to ``0``.
    """
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return str(x)
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if x == int(x):
        return str(int(x))
    if abs(x) < 0.5 * 10**-digits:
        return f"{x:.2e}"
    rounded = f"{x:.{digits}f}"
    trimmed = rounded.rstrip("0").rstrip(".")
    return rounded if "." not in trimmed else trimmed


def _plain(value: Any) -> Any:
    """Tensors, arrays and sizes as plain Python lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, tuple):  # torch.Size too
        return [_plain(v) for v in value]
    return value


def _cell(value: Any, digits: int) -> str:
    """A table cell: labels as they are, a row of numbers as ``1, 0.5, 0``."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join(_cell(v, digits) for v in value)
    return fmt(value, digits)


def _markdown_table(header: list[str], body: list[list[str]], aligns: list[str]) -> str:
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", r"\|") for c in cells) + " |"

    return "\n".join([row(header), "| " + " | ".join(aligns) + " |", *map(row, body)])


def _tab(title: str, body: str) -> str:
    return f'=== "{title}"\n\n' + textwrap.indent(body, "    ")


# --------------------------------------------------------------------------------------------
# Claims


CLAIM = re.compile(r'`(?P<literal>[^`\n]+)`\{\s*data-claim="(?P<target>[^"\n]*)"\s*\}')


@dataclass(frozen=True)
class Claim:
    file: str  # e.g. docs/causal.md
    line: int
    literal: str
    snippet: str
    expr: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def check(self) -> str | None:
        """None when the claim holds, else a message naming file, line and both values."""
        head = f"{self.where}: claim `{self.literal}` ({self.snippet}: {self.expr})"
        try:
            expected = parse_literal(self.literal)
            actual = _plain(run(self.snippet).value(self.expr))
        except (SnippetError, ValueError) as error:
            return f"{head} cannot be checked: {error}"
        if matches(expected, actual):
            return None
        return f"{head} does not hold: the prose says {self.literal}, the snippet gives {_show(actual)}"


def _prose_lines(text: str):
    """(line number, line) for each line outside fenced code, display math and front matter."""
    fence = None
    lines = text.split("\n")
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i, ln in enumerate(lines[1:], 1) if ln.strip() == "---"), 0)
    for number, line in enumerate(lines[start:], start + 1):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        opening = re.match(r"(`{3,}|~{3,}|\$\$)", stripped)
        if opening and not (opening[1] == "$$" and stripped.endswith("$$") and len(stripped) > 2):
            fence = opening[1]
            continue
        yield number, line


def claims(text: str, file: str) -> list[Claim]:
    """Every claim in one Markdown page. A malformed ``data-claim`` is an error, never skipped."""
    found = []
    for number, line in _prose_lines(text):
        spans = list(CLAIM.finditer(line))
        if line.count("data-claim") != len(spans):
            raise ValueError(f"{file}:{number}: malformed claim (want `literal`{{ data-claim=\"snippet.py: expr\" }})")
        for m in spans:
            snippet, sep, expr = m["target"].partition(": ")
            if not sep or not snippet.endswith(".py") or not expr.strip():
                raise ValueError(f'{file}:{number}: claim target must read "chapter/snippet.py: expression"')
            if _emphasis(expr):  # Markdown would read it as bold or italic and break the span
                raise ValueError(f"{file}:{number}: claim expression {expr!r} has __, or * touching "
                                 "a name: write x ** 0.5 with spaces, or name the value in the snippet")
            found.append(Claim(file, number, m["literal"], snippet.strip(), expr.strip()))
    return found


def _emphasis(expr: str) -> bool:
    """Whether Markdown could take part of an expression for emphasis: ``__`` anywhere, or a run
    of ``*`` with a non-space on either side (``a * b`` and ``x ** 0.5`` are safe, ``x**0.5`` not)."""
    padded = f" {expr} "
    return "__" in expr or any(
        not (padded[m.start() - 1].isspace() and padded[m.end()].isspace())
        for m in re.finditer(r"\*+", padded)
    )


@dataclass(frozen=True)
class Approx:
    """A number from the prose, with the tolerance its written digits imply."""

    value: float
    tol: float

    def matches(self, x: Any) -> bool:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return False
        if math.isnan(self.value):
            return math.isnan(x)
        if math.isinf(self.value) or self.tol == 0:
            return x == self.value
        return abs(x - self.value) <= self.tol * (1 + 1e-9)


_NUMBER = re.compile(r"(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")


def parse_literal(text: str) -> Any:
    """The literal of a claim as a tree of lists, ``Approx`` numbers, bools and strings."""
    source = re.sub(r"(\d+(?:\.\d+)?)%", r"_percent(\1)", text.replace("\u2212", "-").replace("∞", "inf"))
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"cannot read the literal {text!r}") from error

    def number(node: ast.Constant) -> Approx:
        digits = _NUMBER.fullmatch(ast.get_source_segment(source.strip(), node) or "")
        if not digits:
            raise ValueError(f"cannot read the number in {text!r}")
        decimals, exponent = len(digits[2] or ""), int(digits[3] or 0)
        exact = digits[2] is None and digits[3] is None
        return Approx(float(node.value), 0.0 if exact else 0.5 * 10.0 ** (exponent - decimals))

    def convert(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (bool, str)) or (
            isinstance(node, ast.Constant) and node.value is None
        ):
            return node.value
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return number(node)
        if isinstance(node, ast.Name) and node.id in ("inf", "nan"):
            return Approx(float(node.id), 0.0)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = convert(node.operand)
            if isinstance(inner, Approx):
                return Approx(-inner.value, inner.tol) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            top, bottom = convert(node.left), convert(node.right)
            if isinstance(top, Approx) and isinstance(bottom, Approx) and top.tol == bottom.tol == 0:
                value = top.value / bottom.value
                return Approx(value, 1e-6 * abs(value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_percent":
            inner = convert(node.args[0])
            return Approx(inner.value / 100, inner.tol / 100)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [convert(item) for item in node.elts]
        raise ValueError(f"cannot read the literal {text!r}")

    return convert(tree)


def matches(expected: Any, actual: Any) -> bool:
    """Whether a value from a snippet agrees with a parsed literal (see the module docstring)."""
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(matches(e, a) for e, a in zip(expected, actual))
        )
    if isinstance(expected, Approx) and isinstance(actual, list):
        return bool(actual) and all(matches(expected, a) for a in actual)
    if isinstance(expected, Approx):
        return expected.matches(actual)
    if isinstance(expected, bool):
        return isinstance(actual, bool) and actual == expected
    return actual == expected


def _show(value: Any) -> str:
    if isinstance(value, list):
        items = [_show(v) for v in value[:8]]
        return "[" + ", ".join(items) + (", …" if len(value) > 8 else "") + "]"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    return repr(value)


# --------------------------------------------------------------------------------------------
# Numbers in prose

_NOT_PROSE = re.compile(
    r"`[^`\n]*`(\{[^}\n]*\})?"  # code spans, claims included
    r"|\$[^$\n]+\$"  # inline math
    r"|<!--.*?-->|<[^>\n]+>"  # comments and tags
    r"|\]\([^)\n]*\)|\{[^}\n]*\}"  # link targets, attribute lists
    r"|^\s*(\d+\.|[-*+])\s"  # list markers
    r"|\[\^[^\]]+\]"  # footnote marks
)
_TOKEN = re.compile(r"[0-9A-Za-z_]*\d[0-9A-Za-z_]*")


def prose_numbers(text: str, file: str) -> list[str]:
    """Digits in running prose that no claim, code span or math covers, as ``file:line: …``."""
    problems = []
    for number, line in _prose_lines(text):
        prose = _NOT_PROSE.sub(" ", line)
        bare = [t for t in _TOKEN.findall(prose) if not re.search(r"[A-Za-z]", t)]
        if bare:
            problems.append(f"{file}:{number}: number {bare[0]!r} in prose is not a claim: {line.strip()}")
    return problems


# --------------------------------------------------------------------------------------------
# Math: TeX from pymdownx.arithmatex (generic mode) to MathML, at build time

_MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>', re.S
)


def mathml(page_html: str) -> str:
    """Replace arithmatex's TeX spans with MathML, which browsers render natively."""
    from latex2mathml.converter import convert

    def replace(m: re.Match) -> str:
        display = "block" if m["open"] == "[" else "inline"
        mathml_text = convert(html.unescape(m["tex"]).strip(), display=display)
        return mathml_text.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")  # ∞ is a symbol, not an operator

    return _MATH.sub(replace, page_html)


# --------------------------------------------------------------------------------------------
# Labs: docs/labs/<chapter>.py (jupytext percent, no outputs) -> an executed notebook page

LAB_CELL = re.compile(r"# snippet: (\S+\.py)")
LAB_BUILD = ROOT / ".cache" / "labs"  # generated notebooks (git-ignored); MkDocs reads them here
LAB_SETUP = """\
# Colab has torch and matplotlib; install the Korean font package if missing.
import importlib.util, subprocess, sys
if importlib.util.find_spec("koreanize_matplotlib") is None:
    pip = [sys.executable, "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "koreanize-matplotlib"], check=True)"""


def lab_notebook(name: str) -> Any:
    """The notebook of ``docs/labs/<name>.py``: each ``# snippet: chapter/x.py`` cell becomes that
    snippet's code (one source of truth), a setup cell comes first, and cell ids are fixed, so the
    same sources always give the same bytes."""
    import jupytext
    import nbformat

    notebook = jupytext.read(DOCS / "labs" / f"{name}.py", fmt="py:percent")
    for cell in notebook.cells:
        if cell.cell_type == "code" and (m := LAB_CELL.fullmatch(cell.source.strip())):
            path = SNIPPETS / m[1]
            if not path.is_file():
                raise SnippetError(f"docs/labs/{name}.py includes a missing snippet snippets/{m[1]}")
            cell.source = path.read_text(encoding="utf-8").rstrip()
    first_code = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
    notebook.cells.insert(first_code, nbformat.v4.new_code_cell(LAB_SETUP))
    for number, cell in enumerate(notebook.cells):
        cell.id = f"{name}-{number}"
        cell.metadata = {}
    notebook.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        # The installed versions are part of the notebook, so neither the reuse of a run's outputs
        # (lab_is_current) nor mkdocs-jupyter's cache can serve a result of other libraries.
        "handbook": {"requirements": hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()},
    }
    nbformat.validate(notebook)
    return notebook


class LabError(Exception):
    """A lab notebook failed to run: the build stops and names the lab and the cell."""


def execute_lab(name: str, text: str) -> Any:
    """Run a lab notebook (its JSON text) top to bottom in a new kernel, as Jupyter would, in an
    empty working folder; return it with its outputs, marked with the hash of ``text``. A cell that
    raises stops the run with ``LabError``."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.reads(text, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        client = NotebookClient(notebook, timeout=300, kernel_name="python3", record_timing=False,
                                resources={"metadata": {"path": folder}})
        try:
            client.execute()
        except CellExecutionError as error:
            report = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # the kernel colours its traceback
            raise LabError(f"docs/labs/{name}.py: a cell raised while the notebook ran\n{report}") from None
    for cell in (c for c in notebook.cells if c.cell_type == "code"):
        outputs = []  # the kernel sends printed text in chunks timed by chance: join them
        for output in cell.outputs:
            if outputs and output.output_type == outputs[-1].output_type == "stream" and output.name == outputs[-1].name:
                outputs[-1].text += output.text
            else:
                outputs.append(output)
        cell.outputs = outputs
    notebook.metadata["handbook"]["source"] = _digest(text)
    return notebook


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def lab_is_current(text: str, executed: Path) -> bool:
    """Whether ``executed`` holds the outputs of exactly this notebook text (the text carries the
    snippets' code and the hash of requirements.txt, so any change to either runs it again)."""
    import nbformat

    if not executed.is_file():
        return False
    ran = nbformat.read(executed, as_version=4).metadata.get("handbook", {}).get("source")
    return ran == _digest(text)


_labs: dict[str, str] = {}  # lab name -> its notebook with no outputs, as readers download it
_lab_runs: dict[str, Any] = {}  # lab name -> the running execution (a Future) the page waits for
_lab_pool: ThreadPoolExecutor | None = None  # made at the first run: kernels run side by side


def _lab_file(file: Any, config: Any, cache: bool) -> Any:
    """Make the notebook of a lab source and start running it in the background (unless ``cache``
    and its outputs are current); return the executed notebook's page file."""
    import nbformat
    from mkdocs.structure.files import File

    global _lab_pool
    name = Path(file.src_uri).stem
    text = _labs[name] = nbformat.writes(lab_notebook(name))
    target = LAB_BUILD / "labs" / f"{name}.ipynb"
    if not (cache and lab_is_current(text, target)):

        def run() -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(nbformat.writes(execute_lab(name, text)), encoding="utf-8")

        if _lab_pool is None:  # a kernel is a process of its own: one per core
            _lab_pool = ThreadPoolExecutor(os.cpu_count() or 2, thread_name_prefix="lab")
        _lab_runs[name] = _lab_pool.submit(run)
    return File(f"labs/{name}.ipynb", str(LAB_BUILD), config["site_dir"], config["use_directory_urls"])


# --------------------------------------------------------------------------------------------
# MkDocs hook events


def on_pre_build(config: Any) -> None:
    _figures.clear()


@event_priority(50)  # before mkdocs-jupyter looks for notebooks among the files
def on_files(files: Any, config: Any) -> Any:
    """Labs: each ``docs/labs/<chapter>.py`` is replaced by its generated notebook, executed here
    (all labs at once, in the background, while the chapters build), which mkdocs-jupyter then
    renders.

    Under ``mkdocs serve --dirty`` only pages whose Markdown changed are rebuilt; a page must
    also be rebuilt when a snippet it shows has changed. Removing its built HTML makes MkDocs see
    it as modified. (A full build starts from an empty site, so this does nothing there.)"""
    cache = config.plugins["mkdocs-jupyter"].config["cache"]  # off for `make build`: every lab runs
    for file in [f for f in files if f.src_uri.startswith("labs/") and f.src_uri.endswith(".py")]:
        files.remove(file)
        files.append(_lab_file(file, config, cache))
    for file in files.documentation_pages():
        shown = _uses.get(file.src_uri, {})
        if any(_current_source(name) != source for name, source in shown.items()):
            Path(file.abs_dest_path).unlink(missing_ok=True)
    return files


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    """Under ``mkdocs serve --dirty``, a lab that runs again must be rebuilt, though its notebook
    is rewritten only when the run ends: remove its page (here, where mkdocs-jupyter has given the
    notebook its page address)."""
    for file in files.documentation_pages():
        if file.src_uri.startswith("labs/") and Path(file.src_uri).stem in _lab_runs:
            Path(file.abs_dest_path).unlink(missing_ok=True)
    return nav


@event_priority(50)  # before mkdocs-jupyter reads the notebook
def on_pre_page(page: Any, **_: Any) -> Any:
    """A lab page waits for its notebook to finish running; a failed cell stops the build."""
    name = Path(page.file.src_uri).stem
    if page.file.src_uri.startswith("labs/") and (run_ := _lab_runs.pop(name, None)):
        try:
            run_.result()
        except LabError as error:
            raise PluginError(str(error)) from None
    return page


def _current_source(name: str) -> str | None:
    path = SNIPPETS / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    global _page_url, _page
    _page_url, _page = page.url, page.file.src_uri
    _uses[_page] = {}
    if not page.file.src_uri.endswith(".md"):
        return markdown  # a lab notebook: its numbers are its own printed outputs
    # Read the file itself, front matter included, so line numbers match the editor's and the tests'.
    source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    file = f"docs/{page.file.src_path}"
    try:
        problems = [p for c in claims(source, file) if (p := c.check())]
    except ValueError as error:
        problems = [str(error)]
    for problem in problems + prose_numbers(source, file):
        log.warning(problem)
    return markdown


def on_page_content(html_text: str, **_: Any) -> str:
    global _page
    _page = None
    return mathml(html_text)


_lab_css: dict[str, str] = {}  # stylesheet name -> CSS shared by the lab pages
_TEX = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)


def on_post_page(output: str, page: Any, **_: Any) -> str:
    """Lab pages as mkdocs-jupyter writes them need mending to meet the rest of the site:

    * JupyterLab's stylesheets (about 590 KB) are inlined in every lab: move them to one shared file;
    * MathJax and Mermaid loaders point at nothing or at a CDN: drop them, and render the TeX of
      markdown cells as MathML at build time, like the chapters;
    * Korean headings get empty ids that do not match the table of contents: give each heading the
      id its table-of-contents entry links to;
    * the copy buttons carry an aria-label without a role: they are buttons;
    * figures are inline base64 PNGs: make them files, loaded lazily, like the chapters' figures.
    """
    if not page.file.src_uri.startswith("labs/"):
        return output
    from bs4 import BeautifulSoup
    from latex2mathml.converter import convert

    head, _, rest = output.partition('<article class="md-content__inner md-typeset">')
    body, _, tail = rest.partition("</article>")
    article = BeautifulSoup(body, "html.parser")
    css = "\n".join(style.extract().string or "" for style in article.find_all("style"))
    name = f"labs-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
    _lab_css[name] = css
    for script in article.find_all("script"):
        if script.get("src") == "" or script.get("type") in ("text/x-mathjax-config", "module"):
            script.decompose()
    for cell in article.select(".jp-RenderedMarkdown"):
        for text in cell.find_all(string=_TEX):
            if text.find_parent(["code", "pre"]) is None:
                math = _TEX.sub(lambda m: convert((m[1] or m[2]).strip(), display="block" if m[1] else "inline"), text)
                text.replace_with(BeautifulSoup(math, "html.parser"))
    frame = BeautifulSoup(head + tail, "html.parser")
    anchors = list(dict.fromkeys(a["href"][1:] for a in frame.select(".md-nav--secondary a[href^='#']")))
    headings = article.find_all(["h2", "h3", "h4", "h5", "h6"])  # the contents list these, twice
    skip = frame.select_one("a.md-skip[href^='#']")  # "skip to content" points at the title
    if skip and article.h1:
        article.h1["id"] = skip["href"][1:]
    if len(anchors) != len(headings):
        log.warning(f"docs/{page.file.src_uri}: {len(headings)} headings but {len(anchors)} contents entries")
    for heading, anchor in zip(headings, anchors):
        heading["id"] = anchor
        for link in heading.select("a.anchor-link"):
            link["href"] = f"#{anchor}"
    for heading in article.find_all(id=""):
        del heading["id"]
    for button in article.find_all("clipboard-copy"):
        button["role"] = "button"
    for image in article.find_all("img", src=re.compile(r"^data:image/png;base64,")):
        image["alt"] = _lab_alt(image)
        png = base64.b64decode(image["src"].split(",", 1)[1])
        figure = hashlib.sha256(png).hexdigest()[:16] + ".png"  # a file, named by its content
        _figures[figure] = png
        image["src"] = "../" * page.url.count("/") + FIGURES + figure
        image["loading"], image["decoding"] = "lazy", "async"
    link = f'<link rel="stylesheet" href="{"../" * page.url.count("/")}assets/{name}">'
    head = head.replace("</head>", f"{link}\n</head>", 1)
    return f'{head}<article class="md-content__inner md-typeset">{article}</article>{tail}'


def _lab_alt(image: Any) -> str:
    """Korean alt text for a figure in a lab: the chapter's own alt text when the cell is a
    chapter snippet (same code, same figure), else a description of where it comes from."""
    cell = image.find_parent(class_="jp-Cell")
    code = cell.select_one(".jp-InputArea pre").get_text().rstrip() if cell else ""
    shown = cell.select(".jp-OutputArea img") if cell else [image]
    for name, run_ in _runs.items():
        if run_.source.rstrip() == code and (name, shown.index(image)) in _alts:
            return _alts[(name, shown.index(image))]
    heading = image.find_previous(["h2", "h3"])
    return f"실습 셀이 그린 그림 ({heading.get_text(strip=True).rstrip('¶')} 절)" if heading else "실습 셀이 그린 그림"


def on_post_build(config: Any) -> None:
    site = Path(config["site_dir"])
    (site / FIGURES).mkdir(parents=True, exist_ok=True)
    for name, content in _figures.items():
        path = site / FIGURES / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
    for name, css in _lab_css.items():
        (site / "assets" / name).write_text(css, encoding="utf-8")
    for name, text in _labs.items():  # the download: the notebook without outputs (they are on the page)
        (site / "labs" / name).mkdir(parents=True, exist_ok=True)
        (site / "labs" / name / f"{name}.ipynb").write_text(text, encoding="utf-8")


# MkDocs registers this hook under the name "tools/glue.py"; the pages' exec blocks `import glue`
# and must get this same module (and its cache of runs), not a second copy.
sys.modules.setdefault("glue", sys.modules[__name__])
