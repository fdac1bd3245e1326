"""Running snippets: ``snippets/<chapter>/<name>.py`` executed in this process, with what it printed,
the figures it showed and the names it left behind.

A snippet is a plain script (it runs alone with ``python``). Here it may not warn, write to stderr
or log a warning: any of those fails it, as a raise does, with a one-line message naming the snippet
and the line. What counts is what the snippet's own thread does: the build runs labs in other
threads meanwhile, and their output, warnings and log lines go where they would have gone (see
``_Capture``). Warnings are those Python shows a script run as ``python snippet.py``: the default
filters, deprecations from the snippet's own lines included, each place warning afresh in every run. A snippet depends on nothing but its own text and the installed libraries
(tests/test_snippets.py runs each alone from an empty folder), and the libraries cannot change inside
one process; so while the text is the same, so is the result, and a ``Runner`` reuses it.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import logging
import re
import sys
import threading
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from .figures import phone_svg, svg  # noqa: E402

# Fixed SVG ids and no date stamp: the same snippet gives the same bytes in every build.
SVG_RC = {"svg.hashsalt": "attention-handbook", "svg.fonttype": "path"}


class SnippetError(RuntimeError):
    """A snippet is missing, raised, warned, wrote to stderr, or left a figure unshown."""


@dataclass
class Run:
    """What one execution of ``snippets/<name>`` left behind."""

    name: str
    source: str
    namespace: dict[str, Any]
    stdout: str
    figures: list[str] = field(default_factory=list)  # SVG documents, in the order shown
    phones: list[str | None] = field(default_factory=list)  # each one's copy for a phone (figures.py)

    def value(self, expr: str) -> Any:
        """Evaluate ``expr`` in the snippet's namespace."""
        try:
            return eval(expr, dict(self.namespace))  # noqa: S307  (the project's own snippets)
        except Exception as error:
            raise SnippetError(f"{self.name}: cannot evaluate {expr!r}: {error!r}") from error


class Runner:
    """Runs the snippets under ``folder``, each again only when its text has changed."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
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
        if self._sources.get(name) != source:
            self.executed.append(name)
            try:
                self._runs[name] = execute(name, source, self.folder / name)
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
    figures: list[str] = []
    phones: list[str | None] = []

    def show(*_args: Any, **_kwargs: Any) -> None:
        for number in plt.get_fignums():
            figures.append(svg(plt.figure(number)))
            phones.append(phone_svg(plt.figure(number)))
        plt.close("all")

    capture = _Capture(path)
    namespace: dict[str, Any] = {"__name__": MODULE, "__builtins__": builtins}
    plt.close("all")
    try:
        with capture, plt.rc_context(SVG_RC), _replaced(plt, "show", show):
            exec(compile(source, str(path), "exec"), namespace)  # noqa: S102  (the project's own)
    except Exception as error:  # noqa: BLE001  (reported in one line, with the snippet's line)
        plt.close("all")
        raise SnippetError(f"snippets/{name} raised {_one_line(error)}{_line_in(error, path)}") from None
    caught, stdout, stderr, logged = capture.warnings, capture.stdout, capture.stderr, capture.records
    if plt.get_fignums():
        plt.close("all")
        raise SnippetError(f"snippets/{name} draws a figure but never calls plt.show()")
    if caught.found:
        raise SnippetError(f"snippets/{name} warned{caught.found[0]}")
    if stderr.getvalue():
        raise SnippetError(f"snippets/{name} wrote to stderr: {stderr.getvalue().strip()[:200]}")
    if logged.records:
        record = logged.records[0]
        raise SnippetError(f"snippets/{name} logged a {record.levelname.lower()}: {record.getMessage()}")
    return Run(name, source, namespace, stdout.getvalue(), figures, phones)


MODULE = "snippet"  # the module name a snippet runs as (its warnings are attributed to it)


class _Capture:
    """One snippet's stdout, stderr, warnings and log records: those of the thread that runs it.

    The streams, ``warnings.showwarning`` and the root logger are the process's, so they are
    swapped for the run, but for routers: a write, a warning or a record from the running thread
    is the snippet's; one from any other thread (a lab's, while a snippet runs) passes to where it
    went before, and is not blamed on the snippet. The one filter added (a snippet's own
    deprecations are shown, as a script's are) names the snippet's module only, so it changes
    nothing another thread sees; adding it also makes every place warn afresh in this run, as in a
    new process. What a snippet itself does to the process (its own ``catch_warnings``) stays the
    snippet's doing: a reader's script has one thread."""

    FILTER = ("default", None, DeprecationWarning, re.compile(rf"{MODULE}\Z"), 0)

    def __init__(self, path: Path) -> None:
        self.warnings, self.records = _Warnings(path), _Records()
        self.stdout, self.stderr = io.StringIO(), io.StringIO()

    def __enter__(self) -> _Capture:
        self.thread = self.records.thread = threading.get_ident()
        self.streams = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = _Routed(sys.stdout, self.thread, self.stdout), _Routed(sys.stderr, self.thread, self.stderr)
        self.showwarning = previous = warnings.showwarning

        def showwarning(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
            if threading.get_ident() == self.thread:
                self.warnings.record(message, category, filename, lineno)
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = self.router = showwarning
        action, _, category, module, _ = self.FILTER
        warnings.filterwarnings(action, category=category, module=module.pattern)
        logging.getLogger().addHandler(self.records)
        return self

    def __exit__(self, *_exc: object) -> None:
        logging.getLogger().removeHandler(self.records)
        with contextlib.suppress(ValueError):  # the snippet may have reset the filters itself
            warnings.filters.remove(self.FILTER)
        if warnings.showwarning is self.router:
            warnings.showwarning = self.showwarning
        for name, stream in zip(("stdout", "stderr"), self.streams):
            if isinstance(getattr(sys, name), _Routed) and getattr(sys, name).thread == self.thread:
                setattr(sys, name, stream)


class _Routed:
    """A stream that takes one thread's writes into ``buffer`` and passes every other thread's on
    to the stream it replaced."""

    def __init__(self, original: Any, thread: int, buffer: io.StringIO) -> None:
        self.original, self.thread, self.buffer = original, thread, buffer

    def write(self, text: str) -> int:
        return (self.buffer if threading.get_ident() == self.thread else self.original).write(text)

    def flush(self) -> None:
        if threading.get_ident() != self.thread:
            self.original.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno: the stream's own
        return getattr(self.original, name)


class _Warnings:
    """Every warning a snippet causes, with the snippet's line that led to it. A deprecation that a
    library raises while it is being imported is the library's own, not the snippet's: Python
    shows it to nobody, and no change to the snippet can avoid it; every other warning counts."""

    def __init__(self, path: Path) -> None:
        self.path, self.found = str(path), []

    def record(self, message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ANN001
        stack = traceback.extract_stack()
        importing = any("importlib._bootstrap" in f.filename for f in stack)
        if importing and issubclass(category, DeprecationWarning) and filename != self.path:
            return
        lines = [f.lineno for f in stack if f.filename == self.path]
        where = f" at line {lines[-1]}" if lines else ""
        self.found.append(f"{where}: {category.__name__}: {message}")


class _Records(logging.Handler):
    """Collects the warnings (and worse) logged while a snippet runs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []
        self.thread: int | None = None  # the snippet's: another thread's records are not its

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread and not record.name.startswith("mkdocs"):  # nor the build's own log
            self.records.append(record)


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
