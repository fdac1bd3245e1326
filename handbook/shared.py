"""What every edition's plugin shares in one process. The root edition's plugin makes it in
``on_startup`` and hands it to each edition it builds (``site.py``), so it lasts as long as MkDocs
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
        self.pending: set[Future] = set()  # lab runs whose pages were shown without their outputs
        self.served = threading.Event()  # under serve, labs start once the first build is served
        self.stopped = False  # the server has stopped: a lab that has not started stays unrun
        self.ended: Path | None = None  # under serve: the watched folder a lab's end writes to (on_serve)
        # Each built page's source, by the page's path in the site (every edition's): a broken link
        # is reported at the line of the file an author edits, not only the built page.
        self.sources: dict[Path, tuple[str, str]] = {}
        self.templates = Compiled()  # Theme.on_env
        self.notebooks: dict[tuple, tuple[tuple, Any]] = {}  # labs.notebook's: the latest of each
        self.pages: dict[Path, Any] = {}  # links.broken_links': each built page's ids and links


class Compiled(jinja2.BytecodeCache):
    """Jinja's bytecode cache, held in memory (its own caches are on disk or in memcached)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self.codes.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)  # a checksum that differs leaves the bucket empty

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()
