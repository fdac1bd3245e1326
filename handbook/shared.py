"""What every edition's plugin shares in one process. The root edition's plugin makes it in
``on_startup`` and hands it to each edition it builds (``plugins/editions.py``), so it lasts as long as MkDocs
keeps that plugin: one build, or the whole of ``mkdocs serve``. An unchanged snippet or lab is then
run neither again for another language nor again on a rebuild, and what a rebuild would only
compute again (templates, notebooks, the built pages' links) is kept between rebuilds."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import jinja2


class Shared:
    def __init__(self) -> None:
        self.runners: dict[Path, Any] = {}  # the snippets.Runner of each snippets folder
        # Each lab execution by its key (code cells and environment), running or done, and the
        # runs started in this build (every edition's), by lab source.
        self.lab_runs: dict[str, Future] = {}
        self.labs_ran: Counter[str] = Counter()
        self.pending: set[Future] = set()  # lab and snippet runs whose pages were shown without their outputs
        self.waited: set[Future] = set()  # the snippet runs among them (handbook/snippets' later)
        self.served = threading.Event()  # under serve, labs start once the first build is served
        self.stopped = False  # the server has stopped: a lab that has not started stays unrun
        self.wanted = threading.Event()  # under serve: a run a page was shown without has ended (ask_rebuild)
        self.begun = threading.Event()  # a build has begun since the last ask
        # Under serve, the first build is the root edition's alone: the other editions, and the checks of
        # the whole site, come in the rebuild that serving asks for (plugins/editions.py); pending until then.
        self.later: Future | None = None
        # Each built page's source, by the page's path in the site (every edition's): a broken link
        # is reported at the line of the file an author edits, not only the built page.
        self.sources: dict[Path, tuple[str, str]] = {}
        self.templates = Compiled()  # Theme.on_env
        self.notebooks: dict[tuple, tuple[tuple, Any]] = {}  # labs.notebook's: the latest of each
        self.pages: dict[Path, Any] = {}  # links.broken_links': each built page's ids and links
        self._server: Any = None  # the labs' warm kernel server (kernels()), started on first use
        self._starting = threading.Lock()

    def kernels(self) -> Any:
        """The warm kernel server the labs' kernels fork from (handbook/kernels.py), started by the
        first lab run and closed when the build ends (``close``)."""
        with self._starting:
            if self._server is None:
                from .kernels import Server

                self._server = Server()
            return self._server

    def close(self) -> None:
        with self._starting:
            if self._server is not None:
                self._server.close()

    def ask_rebuild(self, *_: Any) -> None:
        """Under serve, a run a page was shown without has ended (a future's done-callback): the
        server is asked for a rebuild (``asking``)."""
        self.wanted.set()

    def asking(self, folder: Path) -> None:
        """Under serve, once the server is set to watch ``folder``: each ask for a rebuild writes a
        file in it, again every ``ASK_AGAIN_S`` until a build begins. MkDocs' server watches with
        watchdog's polling observer, which misses a change made before it takes its first look
        (before it has started, or while it starts): so an ask is not one write, but writes until
        a build answers it. A build already going when the run ended is no answer either: it began
        before the ask, and a write during it has the server build again after it."""
        def ask() -> None:
            count = 0
            while True:
                self.wanted.wait()
                self.wanted.clear()
                self.begun.clear()
                while not self.stopped:
                    count += 1
                    (folder / "ended").write_text(f"{count}\n", encoding="utf-8")
                    if self.begun.wait(ASK_AGAIN_S):
                        break
                if self.stopped:
                    return

        threading.Thread(target=ask, name="rebuild", daemon=True).start()


ASK_AGAIN_S = 0.5  # MkDocs' server looks for changes every 0.5 s (LiveReloadServer's polling_interval)


class Compiled(jinja2.BytecodeCache):
    """Jinja's bytecode cache, held in memory (its own caches are on disk or in memcached)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self.codes.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)  # a checksum that differs leaves the bucket empty

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()
