"""``handbook/snippets``: the snippets the pages show. A page shows one with ``handbook.run("x.py")``
in a ``markdown-exec`` block; before the pages build, every snippet they name starts in the build's
snippet processes (``apart.py``), in the nav's order, and a page waits only for what has not ended.
Each edition's pages see its language's variant of a snippet where its catalogue makes one
(``catalogue.py``); runs are shared by every edition. Figures are written into the site once it is
built. Under ``mkdocs serve`` a page is served before its snippets have run: each block that shows
one still running is a notice, and the run's end has the page made again.

With ``enabled: false`` no snippet runs, and a page that shows one shows that it did not run."""

from __future__ import annotations

import re
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.plugins import event_priority

from .. import _activate
from ..editions import EditionRunner, variant
from ..render import FIGURE_SRC, Example, Figures
from ..snippets import Runner, SnippetError
from . import Seam, log, nav_files

FIGURES = "assets/figures/"
RUN_CALL = re.compile(r"""handbook\.run\(\s*["']([^"']+)["']""")  # a page's literal snippet name
# A page's executed Python block (markdown-exec's fence, at any indent), and a quoted name in it
BLOCK = re.compile(r'^(?P<indent>[ \t]*)(?P<fence>`{3,})python\b[^\n]*\bexec="on"[^\n]*\n.*?^(?P=indent)(?P=fence)[ \t]*$',
                   re.M | re.S)
QUOTED = re.compile(r"""["']([^"'\s]+\.py)["']""")


class SnippetsConfig(Config):
    enabled = c.Type(bool, default=True)
    folder = c.Type(str, default="snippets")  # relative to mkdocs.yml


class SnippetsPlugin(Seam):
    name = "snippets"
    config_class = SnippetsConfig

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.figures = Figures()
        self.uses: dict[str, dict[str, str]] = {}  # page source -> {snippet: the source it showed}
        self.waiting: dict[str, set[Future]] = {}  # page source -> the snippet runs it was shown without
        self.reported: set[str] = set()
        self.ran_before = 0  # how many snippet runs this process had made when this build began
        self.page: str | None = None  # the page being built
        self.page_source: tuple[str, str] = ("", "")  # its file and text, for messages
        self.editions: Any = None  # handbook/editions, once on_config has found it
        self.runner: EditionRunner | None = None  # none while this plugin is off

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        _activate(self)
        if not self.config.enabled:
            return config
        shared = self.editions.shared
        folder = (Path(config.config_file_path).parent / self.config.folder).resolve()
        if folder not in shared.runners:
            shared.runners[folder] = Runner(folder, apart=True, behind=self.editions.fill_in)
        self.runner = EditionRunner(shared.runners[folder], None if self.editions.is_root else self.editions.lang)
        return config

    def on_pre_build(self, config: Any) -> None:
        self.figures.files.clear()
        self.reported.clear()
        if self.editions.is_root and self.runner is not None:  # this build's runs, every edition's: counted from here
            self.ran_before = len(self.runner.runner.executed)

    def runs_this_build(self) -> list[str]:
        return self.runner.runner.executed[self.ran_before:]

    # -- what pages call -------------------------------------------------------------------

    def show(self, name: str) -> Example | _Broken:
        """The run of a snippet, for a page's ``handbook.run``."""
        words = self.editions.words
        if not self.config.enabled:
            return _Broken(f"snippets/{name}: not run (handbook/snippets is off)", words["example failed"])
        try:
            if self.page is not None:
                self.uses.setdefault(self.page, {})[name] = self.runner.source(name) or ""
            return Example(self.runner.run(name), self.figures, words)
        except SnippetError as error:
            message = f"{self._where(name)}: {error}"  # the page and the line that asked for it
            if message not in self.reported:
                self.reported.add(message)
                log.warning(message)
            return _Broken(str(error), words["example failed"])

    def _where(self, name: str) -> str:
        """``docs/page.md:line`` of the page being built where it runs snippet ``name``."""
        file, text = self.page_source
        line = next((n for n, ln in enumerate(text.split("\n"), 1) if f'"{name}"' in ln or f"'{name}'" in ln), None)
        return f"{file}:{line}" if line else file

    @event_priority(50)
    def on_files(self, files: Any, config: Any) -> Any:
        if not self.config.enabled:
            return files
        if self.editions.is_root:  # the snippets every edition's pages name, run ahead in the order they ask
            self.runner.runner.ahead(self._named(files, config))
        for file in files.documentation_pages():  # a changed snippet, or one whose run ended: its pages are modified
            shown = self.uses.get(file.src_uri, {})
            if any(self.runner.source(n) != s for n, s in shown.items()) \
                    or any(f.done() for f in self.waiting.get(file.src_uri, ())):
                Path(file.abs_dest_path).unlink(missing_ok=True)
        return files

    def _named(self, files: Any, config: Any) -> list[str]:
        """The snippets the pages name in a literal (``handbook.run("x.py")``), in the nav's order:
        this edition's, then each other edition's variants of them (built after it)."""
        order = {uri: n for n, uri in enumerate(nav_files(config.nav))}
        pages = sorted(files.documentation_pages(), key=lambda f: (order.get(f.src_uri, len(order)), f.src_uri))
        names = [n for f in pages if f.abs_src_path and Path(f.abs_src_path).is_file()
                 for n in RUN_CALL.findall(Path(f.abs_src_path).read_text(encoding="utf-8"))]
        variants = [variant(n, lang) for lang in self.editions.other_editions() for n in names
                    if n.endswith(".py") and self.runner.runner.source(variant(n, lang)) is not None]
        return names + variants

    @event_priority(40)
    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        self.page = page.file.src_uri
        self.uses[self.page], self.waiting[self.page] = {}, set()
        if page.file.abs_src_path and Path(page.file.abs_src_path).is_file():  # a chapter (a lab runs no snippet)
            self.page_source = (f"{self.editions.docs}/{self.page}", Path(page.file.abs_src_path).read_text(encoding="utf-8"))
        if self.editions.fill_in and self.config.enabled:
            markdown = BLOCK.sub(self._running_block, markdown)
        return markdown

    def _running_block(self, block: re.Match) -> str:
        """Under serve, a page is served before its snippets have run: a block that shows one
        still running is, for now, a notice (the run's end makes the page again: ``later``)."""
        names = [n for n in QUOTED.findall(block[0]) if self.runner.source(n) is not None]
        if not any([self.later(n) for n in names]):  # a list: every one of them started and waited for
            return block[0]
        return f'{block["indent"]}!!! info "{self.editions.words["example running"]}"\n'

    def later(self, name: str) -> bool:
        """Whether snippet ``name`` still runs (started now if it had not), so that the page being
        made shows it, and checks its claims, only once it ends: that end asks the server for a
        rebuild (``Shared.asking``), and ``on_files`` has this page made again in it."""
        future = self.runner.waiting(name)
        if future is None:
            return False
        shared = self.editions.shared
        self.waiting.setdefault(self.page or "", set()).add(future)
        if future not in shared.waited:  # one callback a run, however many pages wait for it
            shared.waited.add(future)
            shared.pending.add(future)
            future.add_done_callback(shared.ask_rebuild)
        return True

    def on_page_content(self, html: str, page: Any, **_: Any) -> str:
        self.page = None
        depth = "../" * page.url.count("/")
        html = html.replace(f'src="{FIGURE_SRC}', f'src="{depth}{FIGURES}')
        return html.replace(f'srcset="{FIGURE_SRC}', f'srcset="{depth}{FIGURES}')

    @event_priority(50)
    def on_post_build(self, config: Any) -> None:
        site = Path(config["site_dir"])
        (site / FIGURES).mkdir(parents=True, exist_ok=True)
        for name, content in self.figures.files.items():
            path = site / FIGURES / name
            path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")

    def on_shutdown(self) -> None:
        for runner in self.editions.shared.runners.values() if self.editions is not None else ():
            if runner.apart is not None:  # the snippet processes: none is left, none starts again
                runner.apart.stop()


class _Broken:
    """What a page shows of a snippet that failed: the one-line error, in place of every view."""

    def __init__(self, message: str, title: str) -> None:
        self.message, self.title = message, title

    def __getattr__(self, _name: str) -> Any:
        return lambda *_a, **_k: f'!!! failure "{self.title}"\n\n    {self.message}'
