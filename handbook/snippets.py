"""Running snippets: ``snippets/<chapter>/<name>.py`` executed, with what it printed, the figures it
showed and the names it left behind. The build runs them in a process of its own (``apart.py``), so
nothing of the build's process is patched while one runs; the tests run them in theirs, where they
call the functions a snippet defines.

A snippet is a plain script (it runs alone with ``python``). Here it may not warn, write to stderr
or log a warning: any of those fails it, as a raise does, with a one-line message naming the snippet
and the line. What counts is what the snippet's own thread does: another thread's output, warnings
and log lines meanwhile go where they would have gone (see ``capture.py``). Warnings are those Python
shows a script run as ``python snippet.py``: the default filters, deprecations from the snippet's own
lines included, each place warning afresh in every run. A snippet depends on nothing but its own text
and the installed libraries (tests/test_snippets.py runs each alone from an empty folder), and the
libraries cannot change inside one process; so while the text is the same, so is the result, and a
``Runner`` reuses it.
"""

from __future__ import annotations

import builtins
import contextlib
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from .apart import Apart  # noqa: E402
from .capture import MODULE, Capture, SnippetError  # noqa: E402
from .figures import phone_svg, svg  # noqa: E402

# Fixed SVG ids and no date stamp: the same snippet gives the same bytes in every build.
SVG_RC = {"svg.hashsalt": "attention-handbook", "svg.fonttype": "path"}


@dataclass
class Run:
    """What one execution of ``snippets/<name>`` left behind. The figures it showed are written out
    as SVG when first asked for, and their phone copies when those are: a claim or a test that
    reads only numbers draws nothing, and one that compares figures draws no phone copy (the 149
    snippets: 35 s to run, 7 s to write their 40 figures, 13.5 s their phone copies, measured)."""

    name: str
    source: str
    namespace: dict[str, Any]
    stdout: str
    shown: list[Shown] = field(default_factory=list, repr=False)
    _drawn: dict[str, list[Any] | SnippetError] = field(default_factory=dict, repr=False)
    # A run in the build's snippet process (handbook/apart.py) has its namespace there: these
    # name what it defined and ask that process for values and figures.
    _names: dict[str, bool] | None = field(default=None, repr=False)
    ask: Any = field(default=None, repr=False)
    generation: int = 0

    def names(self) -> dict[str, bool]:
        """Each name the snippet defined (not a dunder), with whether it is a module."""
        if self._names is None:
            self._names = {k: isinstance(v, types.ModuleType) for k, v in self.namespace.items() if not k.startswith("__")}
        return self._names

    def value(self, expr: str) -> Any:
        """Evaluate ``expr`` in the snippet's namespace."""
        if self.ask is not None:
            return self.ask("value", expr)
        try:
            return eval(expr, dict(self.namespace))  # noqa: S307  (the project's own snippets)
        except Exception as error:
            raise SnippetError(f"{self.name}: cannot evaluate {expr!r}: {error!r}") from error

    @property
    def figures(self) -> list[str]:
        """SVG documents, in the order shown."""
        return self._draw("figures", svg)

    @property
    def phones(self) -> list[str | None]:
        """Each figure's copy for a phone (figures.py), or None where it fits one."""
        self._draw("figures", svg)  # drawn first: a phone copy changes the figure
        return self._draw("phones", phone_svg)

    def _draw(self, kind: str, writer: Any) -> list[Any]:
        if kind not in self._drawn:
            try:
                self._drawn[kind] = self.ask(kind) if self.ask else draw(self.name, self.shown, writer)
            except SnippetError as error:
                self._drawn[kind] = error  # reported at each ask, as a failed run is
        drawn = self._drawn[kind]
        if isinstance(drawn, SnippetError):
            raise drawn
        return drawn


class Runner:
    """Runs the snippets under ``folder``, each again only when its text has changed: in this
    process (tests, which call the functions a snippet defines), or ``apart``, each in a process
    of its own (the build: handbook/apart.py)."""

    def __init__(self, folder: Path, apart: bool = False) -> None:
        self.folder = Path(folder)
        self.apart = Apart() if apart else None  # the build's snippet process
        self._runs: dict[str, Run | SnippetError] = {}
        self._sources: dict[str, str] = {}
        self.executed: list[str] = []  # names, in the order they ran (tests and serve read it)

    def source(self, name: str) -> str | None:
        path = self.folder / name
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def run(self, name: str) -> Run:
        """The run of ``snippets/<name>``; a failure raises ``SnippetError`` (and is remembered,
        so a page showing the snippet five times reports it once)."""
        source = self.source(name)
        if source is None:
            raise SnippetError(f"no snippet snippets/{name}")
        gone = isinstance(self._runs.get(name), Run) and self.apart and self._runs[name].generation != self.apart.generation
        if self._sources.get(name) != source or gone:
            self.executed.append(name)
            try:
                run = self.apart.run if self.apart else execute
                self._runs[name] = run(name, source, self.folder / name)
            except SnippetError as error:
                self._runs[name] = error
            self._sources[name] = source
        result = self._runs[name]
        if isinstance(result, SnippetError):
            raise result
        return result

    def ran(self, source: str) -> str | None:
        """The name of the snippet whose last run had this text (a lab cell that shows it)."""
        return next((n for n, s in self._sources.items() if s.rstrip() == source.rstrip()), None)

    def all(self) -> list[str]:
        """Every snippet's name (``chapter/x.py``), sorted."""
        return sorted(p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*.py"))


def execute(name: str, source: str, path: Path) -> Run:
    """Run one snippet's text as ``path`` and collect what it leaves (see the module docstring)."""
    shown: list[Shown] = []

    def show(*_args: Any, **_kwargs: Any) -> None:
        figures = [plt.figure(number) for number in plt.get_fignums()]
        rc = dict(matplotlib.rcParams.copy())  # the settings they were drawn under, for drawing them out
        plt.close("all")
        for figure in figures:  # closed, each lost pyplot's canvas: phone_svg measures text with Agg's
            FigureCanvasAgg(figure)
            shown.append(Shown(figure, path, rc))

    capture = Capture(path)
    namespace: dict[str, Any] = {"__name__": MODULE, "__builtins__": builtins}
    plt.close("all")
    try:
        with capture, plt.rc_context(SVG_RC), _replaced(plt, "show", show):
            exec(compile(source, str(path), "exec"), namespace)  # noqa: S102  (the project's own)
    except Exception as error:  # noqa: BLE001  (reported in one line, with the snippet's line)
        plt.close("all")
        raise SnippetError(f"snippets/{name} raised {_one_line(error)}{_line_in(error, path)}") from None
    if plt.get_fignums():
        plt.close("all")
        raise SnippetError(f"snippets/{name} draws a figure but never calls plt.show()")
    capture.raise_what_it_caught(f"snippets/{name}")
    return Run(name, source, namespace, capture.stdout.getvalue(), shown)


@dataclass
class Shown:
    """A figure a snippet showed, not yet written out: the figure, the snippet's file, and the
    matplotlib settings in force when it was shown (a snippet may change them; what it drew is
    written out under the same ones)."""

    figure: Any
    path: Path
    rc: Any


def draw(name: str, shown: list[Shown], writer: Any) -> list[Any]:
    """``writer(figure)`` (``svg``, ``phone_svg``) for each figure, as the snippet showed it: a
    warning, stderr write or log line while it draws fails the snippet, as one while it ran does."""
    drawn = []
    for figure in shown:
        capture = Capture(figure.path)
        try:
            with capture, plt.rc_context(), _rc(figure.rc):
                drawn.append(writer(figure.figure))
        except Exception as error:  # noqa: BLE001  (reported in one line, as a raise in the snippet is)
            raise SnippetError(f"snippets/{name} raised {_one_line(error)} while its figure was drawn") from None
        capture.raise_what_it_caught(f"snippets/{name}", " while its figure was drawn")
    return drawn


@contextlib.contextmanager
def _rc(settings: Any):
    """matplotlib's settings exactly as ``settings`` holds them, set as ``rc_context`` puts them back
    (without validating each again); inside one, which restores the settings after."""
    dict.update(matplotlib.rcParams, settings)
    yield


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _line_in(error: BaseException, path: Path) -> str:
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == str(path)]
    return f" at line {lines[-1]}" if lines else ""


@contextlib.contextmanager
def _replaced(owner: Any, attr: str, value: Any):
    original = getattr(owner, attr)
    setattr(owner, attr, value)
    try:
        yield
    finally:
        setattr(owner, attr, original)
