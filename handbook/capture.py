"""What a snippet's own thread writes, warns and logs while it runs (or while its figures are drawn),
caught for handbook/snippets.py to turn into a one-line error: stdout and stderr, warnings as a
script run alone would show them, and log records of warning level and above."""

from __future__ import annotations

import contextlib
import io
import logging
import re
import sys
import threading
import traceback
import warnings
from pathlib import Path
from typing import Any



class SnippetError(RuntimeError):
    """A snippet is missing, raised, warned, wrote to stderr, or left a figure unshown."""


MODULE = "snippet"  # the module name a snippet runs as (its warnings are attributed to it)


class Capture:
    """One snippet's stdout, stderr, warnings and log records: those of the thread that runs it.

    The streams, ``warnings.showwarning`` and the root logger are the process's, so they are
    swapped for the run, but for routers: a write, a warning or a record from the running thread
    is the snippet's; one from any other thread (in the build's snippet process, the thread that
    reads its requests; in a test, another test's) passes to where it went before, and is not
    blamed on the snippet. The one filter added (a snippet's own
    deprecations are shown, as a script's are) names the snippet's module only, so it changes
    nothing another thread sees; adding it also makes every place warn afresh in this run, as in a
    new process. What a snippet itself does to the process (its own ``catch_warnings``) stays the
    snippet's doing: a reader's script has one thread."""

    FILTER = ("default", None, DeprecationWarning, re.compile(rf"{MODULE}\Z"), 0)

    def __init__(self, path: Path) -> None:
        self.warnings, self.records = _Warnings(path), _Records()
        self.stdout, self.stderr = io.StringIO(), io.StringIO()

    def __enter__(self) -> Capture:
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

    def raise_what_it_caught(self, who: str, when: str = "") -> None:
        """A ``SnippetError`` for the first warning, stderr write or logged record caught."""
        if self.warnings.found:
            raise SnippetError(f"{who} warned{when}{self.warnings.found[0]}")
        if self.stderr.getvalue():
            raise SnippetError(f"{who} wrote to stderr{when}: {self.stderr.getvalue().strip()[:200]}")
        if self.records.records:
            record = self.records.records[0]
            raise SnippetError(f"{who} logged a {record.levelname.lower()}{when}: {record.getMessage()}")

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


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
