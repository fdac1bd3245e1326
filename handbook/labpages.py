"""The labs' seam of the plugin: each lab source becomes a page in every edition, its run starts
while the chapters build (or, under ``mkdocs serve``, once the first build is served) and is shared
by every edition whose notebook is the same, and a lab no nav lists joins the nav's labs. Runs are
the build's (``shared.Shared``), so an unchanged lab is not run again, neither for another language
nor on a rebuild."""

from __future__ import annotations

import html
import logging
import os
import textwrap
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page

from . import labs, runs
from .render import FIGURE_SRC

log = logging.getLogger("mkdocs.plugins.handbook")
LABS = "labs"  # where each edition's lab pages are, in the site and in its nav


class LabPages:
    """The plugin's lab events (HandbookPlugin inherits them; its state is set in on_startup)."""

    def _lab_files(self, files: Any, config: Any) -> None:
        """Each lab source becomes this edition's page (a placeholder file, made from the run in
        ``_lab_markdown``) and its download; its run starts now, or is another edition's, or an
        earlier one's under the same key."""
        env = runs.environment()
        folder = f"{LABS}/"
        self.labs_started = False
        self.lab_books: dict[str, Path] = {}
        for source in sorted((self.root / self.config.labs).glob("*.py")):
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
                claims = [c for lang in self.config.editions or [self.lang] for c in labs.lab_claims(source, lang)]
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
            elif self.config.lab_cache and runs.is_current(executed, key):
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

    def _run_lab(self, file: str, text: str, key: str, executed: Path) -> Path:
        if self.fill_in:  # the first pages first: on two cores the labs took half the CPU from them
            self.shared.served.wait()
            if self.shared.stopped:
                raise labs.LabError(f"{file}: not run, the server stopped first")
        book = runs.execute(file, text, key)
        _copy(nbformat.writes(book), executed)
        return executed

    def on_nav(self, nav: Any, config: Any, files: Any) -> Any:
        """A lab that runs again is rebuilt, and labs come after the chapters (they reuse the
        chapters' alt text for the same figures). A lab the config's nav does not list joins the
        nav's labs (a section: one holding a lab, or a new one), titled as its chapter is, in the
        chapters' order: a new chapter needs one nav line, its own."""
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
        nav.pages = [i for i in _walk(nav.items) if isinstance(i, Page)]  # reading order, with them
        for before, after in zip([None, *nav.pages], [*nav.pages, None]):
            if before is not None:
                before.next_page = after
            if after is not None:
                after.previous_page = before
        return nav

    def _lab(self, src_uri: str) -> str | None:
        folder, _, rest = src_uri.partition("/")
        return rest.removesuffix(".md") if folder == LABS and rest.endswith(".md") else None

    def _lab_markdown(self, name: str, page: Any) -> tuple[str, Any]:
        run = self.lab_runs.get(name)
        page.meta["notebook"] = f"{name}.ipynb"  # the download, beside the page
        # A search finds the chapters before the labs. Material weighs a heading 1000 times the text
        # (its title field's boost): at 1/1000 a lab's heading weighs what a chapter's text does, so
        # a lab's "세 단계: tril, masked_fill, softmax" no longer outranks the softmax chapter.
        page.meta["search"] = {"boost": 0.001}
        if run is not None and self.fill_in and not run.done():
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
                    _copy(executed.read_text(encoding="utf-8"), self.lab_books[name])
            except labs.LabError as error:
                if not self.serving:
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
        return self.root / self.config.labs / f"{name}.py"

    def _page_cells(self, name: str) -> Any:
        """The lab's cells as the page shows them: its code as the sources have it now."""
        return labs.notebook(self._lab_source(name), self.runner.folder, self.lang, download=False,
                             shows=self.runner.source, made=self.shared.notebooks)

    def _lab_figure(self, png: bytes, code: str) -> str:
        file = self.figures.add(png, ".png")
        snippet = self.runner.ran(code)  # the chapter's alt text for the same code, read from memory
        alt = next((a for (name, _), a in self.figures.alts.items() if name == snippet), self.words["lab figure"])
        return f'<img class="snippet-figure" src="{FIGURE_SRC}{file}" alt="{html.escape(alt)}" loading="lazy" decoding="async">'

    def on_serve(self, server: Any, **_: Any) -> Any:
        """`mkdocs serve` has built the site once and serves it: the labs start now, and each
        one's end, as each end of a snippet run that a page was shown without (``plugin._later``),
        asks this server for the rebuild that fills its page in, by writing to a folder the server
        watches (``LiveReloadServer.watch``: a change under it rebuilds the site; ``Shared.asking``)."""
        folder = self.root / self.config.cache_dir / ".ended"
        folder.mkdir(parents=True, exist_ok=True)
        server.watch(str(folder))
        self.shared.asking(folder)
        self.shared.served.set()  # the labs start now, after the first build (no lab has ended before this)
        if self.shared.later is not None:  # the other editions, built in the rebuild this asks for
            self.shared.later.set_result(None)
            self.shared.ask_rebuild()  # (a run that ended before this asked already: its ask waited)
        return server


def _copy(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` whole: a build reading it meanwhile sees the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


def nav_files(nav: Any) -> list[str]:
    """Every file a config's ``nav`` lists (its entries: ``title: file``, a bare file, a section),
    in its order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [f for v in nav.values() for f in nav_files(v)]
    if isinstance(nav, list):
        return [f for v in nav for f in nav_files(v)]
    return []


def _walk(items: list[Any]) -> Any:
    for item in items:
        yield item
        yield from _walk(getattr(item, "children", None) or [])


def _done(result: Any) -> Future:
    future: Future = Future()
    future.set_result(result)
    return future
