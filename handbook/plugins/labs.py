"""``handbook/labs``: each lab source (``labs/<chapter>.py``) becomes a page in every edition, and its
notebook a download beside it. Its run starts while the chapters build (under ``mkdocs serve``, once
the first build is served) and is shared by every edition whose notebook is the same; a lab no nav
lists joins the nav's labs. Runs are the build's (``shared.Shared``), so an unchanged lab is not run
again, neither for another language nor on a rebuild; with ``cache``, a run kept under the same key
(code cells and environment) from an earlier build is reused.

With ``enabled: false`` the site has no lab pages."""

from __future__ import annotations

import html
import os
import textwrap
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import nbformat
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page

from .. import labs, runs
from ..claims import LabValues
from ..render import FIGURE_SRC
from . import Seam, in_order, log, nav_files

LABS = "labs"  # where each edition's lab pages are, in the site and in its nav


class LabsConfig(Config):
    enabled = c.Type(bool, default=True)
    folder = c.Type(str, default="labs")  # relative to mkdocs.yml: <chapter>.py, one source for every edition
    cache = c.Type(bool, default=True)  # reuse a lab's outputs made under the same key
    cache_dir = c.Type(str, default=".cache/labs")  # where the executed labs are kept


class LabsPlugin(Seam):
    name = "labs"
    config_class = LabsConfig

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.pool = ThreadPoolExecutor(os.cpu_count() or 2, thread_name_prefix="lab")
        self.lab_runs: dict[str, Future] = {}
        self.lab_keys: dict[str, str] = {}  # lab -> the key of the run its page shows
        self.lab_texts: dict[str, str] = {}  # lab -> the notebook its page was last made from
        self.lab_books: dict[str, Path] = {}  # lab -> where this edition keeps its executed notebook
        self.labs_started = False  # this build started a lab run
        self.values: dict[str, LabValues | None] = {}  # page -> its lab's values (handbook/claims), this build's

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        self.snippets = self.seam(config, "snippets")
        root = Path(config.config_file_path).parent
        self.folder = root / self.config.folder
        self.cache = root / self.config.cache_dir / ("" if self.editions.is_root else self.editions.lang)
        self.shared, self.lang, self.words = self.editions.shared, self.editions.lang, self.editions.words
        return config

    @property
    def runner(self) -> Any:
        """The edition's snippets as its pages see them (handbook/snippets'): a lab's snippet cells."""
        return self.snippets.runner

    def sources(self) -> list[Path]:
        return sorted(self.folder.glob("*.py"))

    def on_files(self, files: Any, config: Any) -> Any:
        """Each lab source becomes this edition's page (a placeholder file, made from the run in
        ``_lab_markdown``) and its download; its run starts now, or is another edition's, or an
        earlier one's under the same key."""
        self.labs_started = False
        self.values.clear()
        if not self.config.enabled:
            return files
        env = runs.environment()
        folder = f"{LABS}/"
        for source in self.sources():
            name = source.stem
            try:
                text = nbformat.writes(labs.notebook(source, self.runner.folder, self.lang, config["site_url"] or "",
                                                     shows=self.runner.source, made=self.shared.notebooks))
            except labs.LabError as error:
                raise PluginError(str(error)) from None
            # Its text, or a comment in its code, changed and its run did not: the page is made again
            # from the same run (under serve --dirty, MkDocs sees only the unchanged placeholder).
            edited, self.lab_texts[name] = self.lab_texts.get(name, text) != text, text
            try:  # what runs: the download, and a cell evaluating the lab's own claims after each answer's check,
                # every language's (sorted), so every edition runs the same notebook: one run for all
                claims = [c for lang in self.editions.config.editions or [self.lang] for c in labs.lab_claims(source, lang)]
                run_text = runs.with_claims(text, claims)
            except labs.LabError as error:
                raise PluginError(str(error)) from None
            # Keyed by the code alone: another edition's lab with the same code is the same run.
            key, executed = runs.digest(runs.code_of(run_text) + env), self.cache / f"{name}.ipynb"
            self.lab_books[name] = executed
            known = self.shared.lab_runs.get(key)
            if self.lab_keys.get(name) == key and runs.is_current(executed, key):
                pass  # this edition's page already shows this run
            elif known is not None and (not (known.done() and known.exception()) or self.lab_runs.get(name) is known):
                # run for another edition, or earlier in this build's process; a failed run is run again only
                # once its page has shown the failure (under serve, its end asked for the rebuild that shows it)
                self.lab_runs[name] = known
            elif self.config.cache and runs.is_current(executed, key):
                self.shared.lab_runs[key] = _done(executed)
            else:  # a new run (an earlier one of other code may still be going: its page is this one's now)
                self.shared.pending.discard(self.lab_runs.get(name))
                run = self.pool.submit(self._run_lab, labs.shown(source), run_text, key, executed)
                self.shared.lab_runs[key] = self.lab_runs[name] = run
                self.shared.labs_ran[labs.shown(source)] += 1
                self.labs_started = True
            self.lab_keys[name] = key
            page = self.cache / f"{name}.md"
            if not page.is_file():
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text("", encoding="utf-8")
            # A lab the nav does not list is not an omission: on_nav puts it with the labs.
            listed = f"{folder}{name}.md" in nav_files(config.nav)
            lab_page = File.generated(config, f"{folder}{name}.md", abs_src_path=str(page),
                                      inclusion=InclusionLevel.UNDEFINED if listed else InclusionLevel.NOT_IN_NAV)
            if edited:
                Path(lab_page.abs_dest_path).unlink(missing_ok=True)
            files.append(lab_page)
            files.append(File.generated(config, f"{folder}{name}/{name}.ipynb", content=text))
        return files

    def _run_lab(self, file: str, text: str, key: str, executed: Path) -> Path:
        if self.editions.fill_in:  # the first pages first: on two cores the labs took half the CPU from them
            self.shared.served.wait()
            if self.shared.stopped:
                raise labs.LabError(f"{file}: not run, the server stopped first")
        book = runs.execute(file, text, key, self.shared.kernels())
        runs.write_whole(nbformat.writes(book), executed)
        return executed

    def on_nav(self, nav: Any, config: Any, files: Any) -> Any:
        """A lab that runs again is rebuilt, and labs come after the chapters (they reuse the
        chapters' alt text for the same figures). A lab the config's nav does not list joins the
        nav's labs (a section: one holding a lab, or a new one), titled as its chapter is, in the
        chapters' order: a new chapter needs one nav line, its own."""
        if not self.config.enabled:
            return nav
        for file in files.documentation_pages():
            if self._lab(file.src_uri) in self.lab_runs:
                Path(file.abs_dest_path).unlink(missing_ok=True)
        chapters = {p.file.src_uri: (n, p.title) for n, p in enumerate(nav.pages)}
        unlisted = sorted((f.page for f in files.documentation_pages() if self._lab(f.src_uri) and f.page not in nav.pages),
                          key=lambda p: chapters.get(f"{self._lab(p.file.src_uri)}.md", (len(chapters), ""))[0])
        if not unlisted:
            return nav
        section = next((i for i in nav.items if isinstance(i, Section)
                        and any(isinstance(c, Page) and self._lab(c.file.src_uri) for c in i.children)), None)
        if section is None:
            section = Section(self.words["labs"], [])
            nav.items.append(section)
        for page in unlisted:
            name = self._lab(page.file.src_uri)
            page.title, page.parent = chapters.get(f"{name}.md", (0, page.title))[1], section
            section.children.append(page)
        return in_order(nav)

    def _lab(self, src_uri: str) -> str | None:
        folder, _, rest = src_uri.partition("/")
        return rest.removesuffix(".md") if folder == LABS and rest.endswith(".md") else None

    def lab_source(self, page: Any, lang: str | None) -> tuple[str, str] | None:
        """A lab page's source as messages name it, and its text in ``lang`` (every language's,
        with None); None for a page that is not a lab's."""
        name = self._lab(page.file.src_uri) if self.config.enabled else None
        if name is None:
            return None
        return labs.shown(self._lab_source(name)), labs.prose(self._lab_source(name), lang)

    @event_priority(50)
    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        name = self._lab(page.file.src_uri) if self.config.enabled else None
        if name is None:
            return markdown
        markdown, self.values[page.file.src_uri] = self._lab_markdown(name, page)
        return markdown

    def _lab_markdown(self, name: str, page: Any) -> tuple[str, Any]:
        run = self.lab_runs.get(name)
        page.meta["notebook"] = f"{name}.ipynb"  # the download, beside the page
        # A search finds the chapters before the labs. Material weighs a heading 1000 times the text
        # (its title field's boost): at 1/1000 a lab's heading weighs what a chapter's text does, so
        # a lab's "세 단계: tril, masked_fill, softmax" no longer outranks the softmax chapter.
        page.meta["search"] = {"boost": 0.001}
        if run is not None and self.editions.fill_in and not run.done():
            # An author sees the lab's text and code at once, and its outputs when its run ends: the
            # run stays pending here, its end asks the server for a rebuild (on_serve), and on_nav
            # makes this page again then.
            if run not in self.shared.pending:  # one callback a run, however many builds show it running
                self.shared.pending.add(run)
                run.add_done_callback(self.shared.ask_rebuild)
            unrun = nbformat.reads(self.lab_texts[name], as_version=4)
            text = labs.markdown(unrun, self._page_cells(name), self._lab_figure, self.words["output"])
            return f'!!! info "{self.words["lab running"]}"\n\n{text}', None
        if run is not None:
            del self.lab_runs[name]
            self.shared.pending.discard(run)
            try:
                executed = run.result()
                if executed != self.lab_books[name]:  # another edition's run of the same code
                    runs.write_whole(executed.read_text(encoding="utf-8"), self.lab_books[name])
            except labs.LabError as error:
                if not self.editions.serving:
                    raise PluginError(str(error)) from None
                log.warning(str(error))  # serve keeps serving, and the page says what broke
                report = textwrap.indent(str(error), "    ")
                return f'!!! failure "{self.words["lab failed"]}"\n\n    ```text\n{report}\n    ```\n', None
        book = nbformat.read(self.lab_books[name], as_version=4)
        text = labs.markdown(book, self._page_cells(name), self._lab_figure, self.words["output"])
        path = self.cache / f"{name}.md"
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        return text, labs.lab_values(self._lab_source(name), self.lang, book)

    def _lab_source(self, name: str) -> Path:
        return self.folder / f"{name}.py"

    def _page_cells(self, name: str) -> Any:
        """The lab's cells as the page shows them: its code as the sources have it now."""
        return labs.notebook(self._lab_source(name), self.runner.folder, self.lang, download=False,
                             shows=self.runner.source, made=self.shared.notebooks)

    def _lab_figure(self, png: bytes, code: str) -> str:
        figures = self.snippets.figures
        file = figures.add(png, ".png")
        snippet = self.runner.ran(code)  # the chapter's alt text for the same code, read from memory
        alt = next((a for (name, _), a in figures.alts.items() if name == snippet), self.words["lab figure"])
        return f'<img class="snippet-figure" src="{FIGURE_SRC}{file}" alt="{html.escape(alt)}" loading="lazy" decoding="async">'

    def on_shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _done(result: Any) -> Future:
    future: Future = Future()
    future.set_result(result)
    return future
