"""The build's snippet process: the build runs its snippets in a process of their own, so that
nothing of the build's process is patched while one runs (its streams, warnings and loggers are
the snippet process's own) and no thread of the build (the labs') can meet a snippet halfway.

One process, started with the runner and kept for as long as it lives (``mkdocs serve``: for
every rebuild), runs the snippets one at a time in the order the pages ask for them, as the
build's own process ran them before; so a page shows what it showed then, byte for byte. The
snippet's namespace stays in that process: the build asks it for the value of an expression
(a claim, a table), for the figures, for their phone copies, and gets a copy back. A value that
cannot be copied (pickled) fails the expression with a message saying so.

If the process dies (a crash in C code), the snippet it was running fails with a message saying
that, the next run starts a new process, and the runs it held run again when a page asks for them.
"""

from __future__ import annotations

import multiprocessing
import pickle
from pathlib import Path
from typing import Any

from .capture import SnippetError


class Apart:
    """The snippet process and the pipe to it (see the module docstring)."""

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self.generation = 0  # how many processes have ended: a run made by an earlier one is gone with it
        self._start()  # its imports (torch, matplotlib) overlap with the build's first steps

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # the build has threads: fork is unsafe
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs,), name="snippets", daemon=True)
        self._process.start()
        theirs.close()

    def ask(self, generation: int, verb: str, name: str, *args: Any) -> Any:
        """The answer of the snippet process to one request (see ``_serve``) about snippets/<name>."""
        if generation != self.generation:
            raise SnippetError(f"snippets/{name}: the process that ran it has ended; it runs again when a page asks for it")
        if self._process is None:
            self._start()
        try:
            self._connection.send((verb, name, *args))
            ok, answer = self._connection.recv()
        except (EOFError, OSError):
            self.close()
            raise SnippetError(f"snippets/{name} ended its process before it finished (a crash in C code?)") from None
        if not ok:
            raise answer
        return answer

    def run(self, name: str, source: str, path: Path) -> Any:
        """The ``snippets.Run`` of one snippet's text as ``path``; a failure raises ``SnippetError``."""
        from .snippets import Run

        if self._process is None:
            self._start()
        generation = self.generation
        stdout, names = self.ask(generation, "run", name, source, str(path))

        def ask(verb: str, *args: Any) -> Any:
            return self.ask(generation, verb, name, *args)

        return Run(name, source, {}, stdout, _names=names, ask=ask, generation=generation)

    def close(self) -> None:
        """End the process (the pipe's end tells it to); the next run starts another."""
        if self._process is not None:
            self._connection.close()
            self._process.join()
            self._process = self._connection = None
            self.generation += 1


def _serve(connection: Any) -> None:
    """The snippet process: answers requests until the build's end of the pipe closes.
    ``("run", name, source, path)`` runs a snippet (``snippets.execute``) and answers what it
    printed and the names it defined; ``("value", name, expr)``, ``("figures", name)`` and
    ``("phones", name)`` answer what that run's ``value``, ``figures`` and ``phones`` give."""
    from .snippets import execute

    runs: dict[str, Any] = {}
    while True:
        try:
            verb, name, *args = connection.recv()
        except EOFError:
            return
        try:
            if verb == "run":
                runs.pop(name, None)
                try:
                    run = runs[name] = execute(name, args[0], Path(args[1]))
                except SystemExit as error:  # a script may exit; as a raise, it fails the snippet
                    raise SnippetError(f"snippets/{name} raised SystemExit({error.code!r})") from None
                answer: Any = (run.stdout, run.names())
            elif name not in runs:
                raise SnippetError(f"snippets/{name}: no run of it in this process")
            elif verb == "value":
                answer = runs[name].value(args[0])
            else:
                answer = getattr(runs[name], verb)
        except SnippetError as error:
            connection.send_bytes(pickle.dumps((False, error)))
            continue
        try:
            data = pickle.dumps((True, answer), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001  (named in the answer)
            what = f"{args[0]!r} is a {type(answer).__module__}.{type(answer).__qualname__}" if verb == "value" else verb
            data = pickle.dumps((False, SnippetError(f"{name}: {what}, which cannot leave the snippet's "
                                                     f"process: it does not pickle ({error})")))
        connection.send_bytes(data)
