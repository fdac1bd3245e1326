"""Running snippets: ``snippets/<chapter>/<name>.py`` executed, with what it printed, the figures it
showed and the names it left behind. The build runs them in processes of their own (``apart.py``), so
nothing of the build's process is patched while one runs; the tests run them in theirs, where they
call the functions a snippet defines.

A snippet is a plain script (it runs alone with ``python``). Here it may not warn, write to stderr
or log a warning: any of those fails it, as a raise does, with a one-line message naming the snippet
and the line. What counts is what the snippet's own thread does: another thread's output, warnings
and log lines meanwhile go where they would have gone (see ``capture.py``). Warnings are those Python
shows a script run as ``python snippet.py``: the default filters, deprecations from the snippet's own
lines included, each place warning afresh in every run. A snippet depends on nothing but its own text
and the installed libraries (tests/content/test_snippets.py runs each alone from an empty folder), and the
libraries cannot change inside one process; so while the text is the same, so is the result, and a
``Runner`` reuses it.
"""

from __future__ import annotations

import builtins
import contextlib
import traceback
import types
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from .apart import Apart  # noqa: E402
from .catalogue import Catalogues  # noqa: E402
from .capture import MODULE, Capture, SnippetError, one_line  # noqa: E402
from .figures import Shown, draw, phone_svg, svg  # noqa: E402

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
    # A run in one of the build's snippet processes (handbook/apart.py) has its namespace there:
    # these name what it defined, ask that process for values and figures, and say whether the
    # process still holds it.
    _names: dict[str, bool] | None = field(default=None, repr=False)
    ask: Any = field(default=None, repr=False)
    alive: Any = field(default=None, repr=False)
    busy: Any = field(default=None, repr=False)  # whether its process makes another run now

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
    process (tests, which call the functions a snippet defines), or ``apart``, in processes of
    their own (the build: handbook/apart.py), where the build can start runs ahead of its pages."""

    def __init__(self, folder: Path, apart: bool = False, behind: bool = False) -> None:
        self.folder = Path(folder)
        self.apart = Apart(behind=behind) if apart else None  # the build's snippet processes (``behind``: see Apart)
        self._runs: dict[str, Any] = {}  # a Run, a SnippetError, or _AHEAD
        self._sources: dict[str, str] = {}
        self.executed: list[str] = []  # names, in the order they ran (tests and serve read it)
        self.catalogues = Catalogues(self.folder)  # other languages' words: their variants (catalogue.py)

    def source(self, name: str) -> str | None:
        """The text of ``snippets/<name>``, or of a variant its chapter's catalogue makes
        (``chapter/x.<lang>.py``); None if there is neither."""
        path = self.folder / name
        return path.read_text(encoding="utf-8") if path.is_file() else self.catalogues.variant(name)

    def run(self, name: str) -> Run:
        """The run of ``snippets/<name>``; a failure raises ``SnippetError`` (and is remembered,
        so a page showing the snippet five times reports it once)."""
        source = self.source(name)
        if source is None:
            raise SnippetError(f"no snippet snippets/{name}")
        if self._sources.get(name) != source or self._gone(name):
            self.executed.append(name)
            self._runs[name] = self._run(name, source)
            self._sources[name] = source
        elif self._runs[name] is _AHEAD:  # started by ``ahead``: its end
            self._runs[name] = self._run(name, source)
        result = self._runs[name]
        if isinstance(result, SnippetError):
            raise result
        return result

    def ahead(self, names: list[str]) -> None:
        """Start the runs of these snippets now, in this order, in the build's snippet processes:
        each whose text has changed since it last ran (in this process, without ``apart``, they
        run when asked for)."""
        if self.apart is None:
            return
        jobs = []
        for name in dict.fromkeys(names):
            source = self.source(name)
            if source is None or (self._sources.get(name) == source and not self._gone(name)):
                continue
            self.executed.append(name)
            self._sources[name], self._runs[name] = source, _AHEAD
            jobs.append((name, source, self.folder / name))
        self.apart.ahead(jobs)

    def waiting(self, name: str) -> Future | None:
        """What a page that must not wait (``mkdocs serve``'s) waits for before it can show snippet
        ``name``, when its run (started now if it had not been) has not ended or its process makes
        another now: the end of every run made ahead (``Apart.drained``), so that a page waiting
        for several is made again once, not once for each. None when asking for it would answer at
        once (run, failed, or no such snippet)."""
        source = self.source(name)
        if self.apart is None or source is None:
            return None
        if self._sources.get(name) != source or self._gone(name):
            self.ahead([name])
        run = self._runs.get(name)
        if run is _AHEAD and (future := self.apart.started(name)) is not None:
            if not future.done():
                return self.apart.drained()
            run = None if future.exception() else future.result()
        if isinstance(run, Run) and run.busy and run.busy():  # its process makes another run now
            return self.apart.drained()
        return None

    def _gone(self, name: str) -> bool:
        """Whether the process that ran ``name`` has ended since (a crash), and its run with it."""
        run = self._runs.get(name)
        return isinstance(run, Run) and run.alive is not None and not run.alive()

    def _run(self, name: str, source: str) -> Run | SnippetError:
        try:
            return self.apart.run(name, source, self.folder / name) if self.apart else execute(name, source, self.folder / name)
        except SnippetError as error:
            return error

    def ran(self, source: str) -> str | None:
        """The name of the snippet whose last run had this text (a lab cell that shows it)."""
        return next((n for n, s in self._sources.items() if s.rstrip() == source.rstrip()), None)

    def all(self) -> list[str]:
        """Every snippet's name (``chapter/x.py``) and every variant's (``chapter/x.<lang>.py``), sorted."""
        return sorted([p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*.py")]
                      + self.catalogues.names())


_AHEAD = object()  # a run ``Runner.ahead`` started, not yet asked for


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
        raise SnippetError(f"snippets/{name} raised {one_line(error)}{_line_in(error, path)}") from None
    if plt.get_fignums():
        plt.close("all")
        raise SnippetError(f"snippets/{name} draws a figure but never calls plt.show()")
    capture.raise_what_it_caught(f"snippets/{name}")
    return Run(name, source, namespace, capture.stdout.getvalue(), shown)


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
