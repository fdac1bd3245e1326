"""The build's snippet processes: the build runs its snippets in processes of their own, so that
nothing of the build's process is patched while one runs (its streams, warnings and loggers are
the snippet process's own) and no thread of the build (the labs') can meet a snippet halfway.

A few processes (one a core, at most ``MOST``), started with the runner and kept for as long as it
lives (``mkdocs serve``: for every rebuild), run the snippets. The build names the snippets its
pages will ask for, in the order they will ask (``ahead``); the processes run them one after
another meanwhile, and draw their figures, so a page finds its snippets run. A snippet's output
depends on nothing but its text (tests/content/test_snippets.py runs each alone and compares), so which
process ran it, and after what, changes nothing a page shows. The snippet's namespace stays in its
process: the build asks that process for the value of an expression (a claim, a table) and gets a
copy back. A value that cannot be copied (pickled) fails the expression with a message saying so.

If a process dies (a crash in C code), the snippet it was running fails with a message saying so,
the next request starts a new process, and the runs it held run again when a page asks for them.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from .capture import SnippetError

MOST = 4  # processes at most: each holds torch, matplotlib and its runs' namespaces (1.5 GB all in one)
BEHIND = 10  # the niceness of snippet processes that run behind the build's own (``Apart(behind=True)``)


class Apart:
    """The snippet processes and the runs they make ahead (see the module docstring)."""

    def __init__(self, processes: int | None = None, behind: bool = False) -> None:
        """``behind``: the processes yield the CPU to the build's own (``mkdocs serve``, whose pages
        are served before their snippets have run: the sooner built, the sooner served)."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        count = min(cores, MOST) if processes is None else processes  # the cores this process may use
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"the number of snippet processes is a whole number, at least 1, not {processes!r}")
        self.workers = [_Worker(BEHIND if behind else 0) for _ in range(count)]  # their imports overlap with the build's first steps
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._ahead: dict[str, tuple[str, Future]] = {}  # name -> (its text, the run made ahead)
        self._feeders: list[threading.Thread] = []
        self._left = 0  # runs made ahead not yet ended (or cancelled)
        self._drained: Future = Future()  # done whenever none is left
        self._drained.set_result(None)
        self._count = threading.Lock()

    def ahead(self, jobs: list[tuple[str, str, Path]]) -> None:
        """Run these snippets (name, text, path), in this order, before a page asks for them."""
        if not self._feeders:
            self._feeders = [threading.Thread(target=self._feed, args=(w,), name="snippets", daemon=True)
                             for w in self.workers]
            for feeder in self._feeders:
                feeder.start()
        with self._count:
            if jobs and self._drained.done():
                self._drained = Future()
            self._left += len(jobs)
        for name, source, path in jobs:
            future: Future = Future()
            self._ahead[name] = (source, future)
            self._jobs.put((name, source, path, future))

    def drained(self) -> Future:
        """Done once every run made ahead so far has ended: until then a process may be making one,
        and a question about another run it made waits for it (``mkdocs serve``'s pages do not)."""
        return self._drained

    def _feed(self, worker: _Worker) -> None:
        while True:
            name, source, path, future = self._jobs.get()
            if future.set_running_or_notify_cancel():  # a page asked first and ran it (``run``)
                worker.running = True
                try:
                    future.set_result(worker.run(name, source, path, draw=True))
                except SnippetError as error:
                    future.set_exception(error)
                except BaseException as error:  # noqa: BLE001  (the page that asks for it reports it)
                    future.set_exception(SnippetError(f"snippets/{name} could not run in its process: {error!r}"))
                finally:
                    worker.running = False
            with self._count:
                self._left -= 1
                if self._left == 0:
                    self._drained.set_result(None)

    def started(self, name: str) -> Future | None:
        """The run of ``name`` made ahead, until a page has asked for it (``run``)."""
        entry = self._ahead.get(name)
        return entry[1] if entry else None

    def run(self, name: str, source: str, path: Path) -> Any:
        """The ``snippets.Run`` of one snippet's text as ``path``: the one made ahead for this text,
        or one made now; a failure raises ``SnippetError``."""
        text, future = self._ahead.pop(name, (None, None))
        if future is not None and (text != source or future.cancel()):
            future = None  # another text since, or not started yet: run now, not after the queue
        if future is not None:
            return future.result()
        free = next((w for w in self.workers if not w.busy), self.workers[0])
        return free.run(name, source, path, draw=False)

    def stop(self) -> None:
        """End the processes for good (the build's end, Ctrl-C under serve): a run still going
        fails and no process starts again, not even while the interpreter exits."""
        for worker in self.workers:
            worker.stop()


class _Worker:
    """One snippet process, the pipe to it, and the lock a request holds while it waits for its answer.
    A page's request goes before a run made ahead that waits for the lock (``ask``)."""

    def __init__(self, nice: int = 0) -> None:
        self.nice = nice
        self._process: Any = None
        self._connection: Any = None
        self._lock = threading.Lock()
        self._pages = 0  # requests for a page waiting for the lock: a run made ahead waits for them
        self._turn = threading.Condition(threading.Lock())
        self.busy = False
        self.running = False  # whether it makes a run ahead now: a question about another waits for it
        self.stopped = False  # ended for good (``stop``)
        self.generation = 0  # how many processes have ended: a run made by an earlier one is gone with it
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # the build has threads: fork is unsafe
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs, self.nice), name="snippets", daemon=True)
        self._process.start()
        theirs.close()

    def run(self, name: str, source: str, path: Path, draw: bool) -> Any:
        from .snippets import Run

        generation = self.generation
        stdout, names, drawn = self.ask(generation, "run", name, source, str(path), draw, page=not draw)

        def ask(verb: str, *args: Any) -> Any:
            return self.ask(generation, verb, name, *args)

        return Run(name, source, {}, stdout, _drawn=drawn, _names=names, ask=ask,
                   alive=lambda: self.generation == generation, busy=lambda: self.running)

    def ask(self, generation: int, verb: str, name: str, *args: Any, page: bool = True) -> Any:
        """The answer of the process to one request (see ``_serve``) about snippets/<name>."""
        if generation != self.generation:
            raise SnippetError(f"snippets/{name}: the process that ran it has ended; it runs again when a page asks for it")
        with self._turn:
            if page:
                self._pages += 1
            else:
                self._turn.wait_for(lambda: self._pages == 0)
        try:
            with self._lock:
                self.busy = True
                try:
                    return self._answer(verb, name, *args)
                finally:
                    self.busy = False
        finally:
            if page:
                with self._turn:
                    self._pages -= 1
                    self._turn.notify_all()

    def _answer(self, verb: str, name: str, *args: Any) -> Any:
        if self.stopped:
            raise SnippetError(f"snippets/{name}: not run, the build has ended")
        if self._process is None:
            self._start()
        try:
            self._connection.send((verb, name, *args))
            ok, answer = self._connection.recv()
        except (EOFError, OSError):
            self._end()
            raise SnippetError(f"snippets/{name} ended its process before it finished (a crash in C code?)") from None
        if not ok:
            raise answer
        return answer

    def _end(self) -> None:
        if self._process is not None:
            self._connection.close()
            self._process.join()
            self._process = self._connection = None
            self.generation += 1

    def stop(self) -> None:
        self.stopped = True
        if (process := self._process) is not None:
            process.terminate()  # not under the lock, which a run going on holds
            process.join()


def _serve(connection: Any, nice: int = 0) -> None:
    """A snippet process, at niceness ``nice``: answers requests until the build's end of the pipe closes.
    ``("run", name, source, path, draw)`` runs a snippet (``snippets.execute``) and answers what it
    printed, the names it defined and, with ``draw``, its figures and their phone copies drawn;
    ``("value", name, expr)``, ``("figures", name)`` and ``("phones", name)`` answer what that run's
    ``value``, ``figures`` and ``phones`` give."""
    from .snippets import execute

    if nice:
        os.nice(nice)
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
                if args[2] and run.shown:  # drawn as a page would ask: figures first, then phones
                    for kind in ("figures", "phones"):
                        try:
                            getattr(run, kind)
                        except SnippetError:
                            pass  # kept in the run, and answered with it
                answer: Any = (run.stdout, run.names(), run._drawn)
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
