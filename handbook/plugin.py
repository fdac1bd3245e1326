"""The MkDocs plugin: runs snippets for the pages, checks every page's claims and numbers, turns TeX
into MathML, builds the labs, builds the other language editions (handbook/editions.py) and checks
the built site's links. Snippet runs and lab runs live in this module, shared by every edition's
plugin instance and kept for the whole of ``mkdocs serve``, so an unchanged snippet or lab is not
run again, neither for another language nor on a rebuild."""

from __future__ import annotations

import gc
import html
import logging
import os
import subprocess
import sys
import textwrap
import threading
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import nbformat
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page

from . import _activate, labs, references
from .editions import (EditionRunner, alternates, lab_pair_problems, pair_problems, variant_problems,
                       word_problems)
from .links import broken_links, served_anywhere
from .layout import keep_tokens_whole
from .mathml import math_as_text, mathml
from .prose import check_page
from .render import FIGURE_SRC, Example, Figures
from .search import refine
from .snippets import Runner, SnippetError

log = logging.getLogger("mkdocs.plugins.handbook")
# Each built page's source, by the page's path in the site (every edition's): a broken link is
# reported at the line of the file an author edits, not only the built page.
_SOURCES: dict[Path, tuple[str, str]] = {}
FIGURES = "assets/figures/"
LABS = "labs"  # where each edition's lab pages are, in the site and in its nav
# Material's header icons are bare <label>s for its drawer and search toggles: no role, no name.
# Each becomes a named button that the keyboard reaches (main.html's script clicks it on Enter/Space).
HEADER_BUTTONS = {
    '<label class="md-header__button md-icon" for="__drawer">': "menu",
    '<label class="md-header__button md-icon" for="__search">': "search",
}
# Shared by every edition's plugin in this process: the runner of each snippets folder, and each
# lab execution by its key (code cells and environment), running or done.
_RUNNERS: dict[Path, Runner] = {}
_LAB_RUNS: dict[str, Future] = {}


class HandbookConfig(Config):
    snippets = c.Type(str, default="snippets")  # relative to mkdocs.yml
    labs = c.Type(str, default="labs")  # relative to mkdocs.yml: <chapter>.py, one source for every edition
    lab_cache = c.Type(bool, default=True)  # reuse a lab's outputs made under the same key
    cache_dir = c.Type(str, default=".cache/labs")
    # The site's languages, code -> the name its switch shows; the first is this config's root
    # edition, each other one is mkdocs.<code>.yml built into <site>/<code>/.
    editions = c.Type(dict, default={})
    words = c.Type(dict, default={})  # what the build writes on a page, in this edition's language (WORD_KEYS)


class HandbookPlugin(BasePlugin[HandbookConfig]):
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"  # an author is looking: show a page's problems on it
        self.dirty = dirty
        # Pages are served before the labs end, and a lab's end rebuilds its page (on_serve): unless
        # the server never rebuilds (--no-livereload), where a lab page waits for its run, as in a build.
        self.fill_in = self.serving and "--no-livereload" not in sys.argv
        self.words: dict[str, str] = {}  # the edition's, once on_config has read them
        self.docs = "docs"  # how messages name a page's folder, until on_config reads the edition's
        self.runner: EditionRunner | None = None
        self.figures = Figures()
        self.uses: dict[str, dict[str, str]] = {}  # page source -> {snippet: the source it showed}
        self.lab_runs: dict[str, Future] = {}
        self.lab_keys: dict[str, str] = {}  # lab -> the key of the run its page shows
        self.lab_texts: dict[str, str] = {}  # lab -> the notebook its page was last made from
        self.pool = ThreadPoolExecutor(os.cpu_count() or 2, thread_name_prefix="lab")
        self.reported: set[str] = set()
        self.ran_before = 0  # how many snippet runs this process had made when this build began
        self.edition_plugins: dict[str, dict[str, Any]] = {}  # lang -> that edition's plugin cache
        self.started: list[Any] = []  # the editions' plugin collections, started by this plugin

    def on_config(self, config: Any) -> Any:
        if not hasattr(self, "pool"):  # built without on_startup (MkDocs calls it; tests may not)
            self.on_startup(command="build", dirty=False)
        self.root = Path(config.config_file_path).parent
        self.lang = config.theme["language"]
        editions = self.config.editions
        if editions and self.lang not in editions:
            raise PluginError(f"theme.language {self.lang!r} is not one of the handbook's editions {list(editions)}")
        self.is_root = not editions or self.lang == next(iter(editions))
        if problems := word_problems(self.config.words, f"{Path(config.config_file_path).name}: handbook: words"):
            raise PluginError("\n".join(problems))
        self.words = self.config.words
        folder = (self.root / self.config.snippets).resolve()
        self.runner = EditionRunner(_RUNNERS.setdefault(folder, Runner(folder)), None if self.is_root else self.lang)
        self.cache = self.root / self.config.cache_dir / ("" if self.is_root else self.lang)
        self.docs_dir = config["docs_dir"]
        self.docs = Path(self.docs_dir).name  # docs, docs-en: how messages name a page's file
        self.site_url = config.site_url
        self.root_site_url = getattr(self, "root_site_url", None)
        self.root_docs_dir = getattr(self, "root_docs_dir", self.root / "docs")  # set by the root's build
        self.page: str | None = None
        self.page_source: tuple[str, str] = ("", "")  # the page being built: its file and text
        if "SOURCE_DATE_EPOCH" not in os.environ:  # sitemap dates from the commit, not the day
            git = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=self.root, capture_output=True, text=True)
            if git.returncode == 0 and git.stdout.strip():
                os.environ["SOURCE_DATE_EPOCH"] = git.stdout.strip()
        if not config.repo_url:  # no repository known: no repository link, no edit links
            config.edit_uri = None
        _activate(self)
        return config

    def on_pre_build(self, config: Any) -> None:
        self.figures.files.clear()
        self.reported.clear()
        if self.is_root:  # this build's runs, every edition's: counted from here (on_post_build)
            self.ran_before = len(self.runner.runner.executed)
            _LABS_RAN.clear()

    # -- what pages call -------------------------------------------------------------------

    def show(self, name: str) -> Example | _Broken:
        """The run of a snippet, for a page's ``handbook.run``."""
        if self.page is not None:
            self.uses.setdefault(self.page, {})[name] = self.runner.source(name) or ""
        try:
            return Example(self.runner.run(name), self.figures, self.words)
        except SnippetError as error:
            message = f"{self._where(name)}: {error}"  # the page and the line that asked for it
            if message not in self.reported:
                self.reported.add(message)
                log.warning(message)
            return _Broken(str(error), self.words["example failed"])

    def _where(self, name: str) -> str:
        """``docs/page.md:line`` of the page being built where it runs snippet ``name``."""
        file, text = self.page_source
        line = next((n for n, ln in enumerate(text.split("\n"), 1) if f'"{name}"' in ln or f"'{name}'" in ln), None)
        return f"{file}:{line}" if line else file

    # -- files: labs become pages, pages showing changed snippets are rebuilt -----------------

    @event_priority(50)
    def on_files(self, files: Any, config: Any) -> Any:
        self.files = files  # the site's top-level names, for 404.html (on_post_template)
        env = labs.environment()
        folder = f"{LABS}/"
        self.labs_started = False
        self.lab_books: dict[str, Path] = {}
        if not self.is_root:  # the stylesheet and anything else under docs/assets/: one copy per edition
            shared = Path(self.root_docs_dir)
            for path in sorted((shared / "assets").rglob("*")):
                uri = path.relative_to(shared).as_posix()
                if path.is_file() and files.get_file_from_path(uri) is None:
                    files.append(File(uri, str(shared), config["site_dir"], config["use_directory_urls"]))
        for source in sorted((self.root / self.config.labs).glob("*.py")):
            name = source.stem
            try:
                text = nbformat.writes(labs.notebook(source, self.runner.folder, self.lang, config["site_url"] or "",
                                                     resolve=self.runner.name))
            except labs.LabError as error:
                raise PluginError(str(error)) from None
            # Its text, or a comment in its code, changed and its run did not: the page is made again
            # from the same run (under serve --dirty, MkDocs sees only the unchanged placeholder).
            edited, self.lab_texts[name] = self.lab_texts.get(name, text) != text, text
            try:  # what runs: the download, and a cell evaluating the lab's own claims after each answer's check,
                # every language's (sorted), so every edition runs the same notebook: one run for all
                claims = [c for lang in self.config.editions or [self.lang] for c in labs.lab_claims(source, lang)]
                run_text = labs.with_claims(text, claims)
            except labs.LabError as error:
                raise PluginError(str(error)) from None
            # Keyed by the code alone: another edition's lab with the same code is the same run.
            key, executed = labs.digest(labs.code_of(run_text) + env), self.cache / f"{name}.ipynb"
            self.lab_books[name] = executed
            shared = _LAB_RUNS.get(key)
            if self.lab_keys.get(name) == key and labs.is_current(executed, key):
                pass  # this edition's page already shows this run
            elif shared is not None and (not (shared.done() and shared.exception()) or self.lab_runs.get(name) is shared):
                # run for another edition, or earlier in this process; a failed run is run again only
                # once its page has shown the failure (under serve, its end asked for the rebuild that shows it)
                self.lab_runs[name] = shared
            elif self.config.lab_cache and labs.is_current(executed, key):
                _LAB_RUNS[key] = _done(executed)
            else:  # a new run (an earlier one of other code may still be going: its page is this one's now)
                _PENDING.discard(self.lab_runs.get(name))
                # jupyter_client imports IPython in the lab's thread; a snippet's pyplot meanwhile finds
                # it half imported in sys.modules and fails. Imported here first, it is whole.
                import IPython.paths  # noqa: F401
                _LAB_RUNS[key] = self.lab_runs[name] = self.pool.submit(self._run_lab, labs.shown(source), run_text, key, executed)
                _LABS_RAN[labs.shown(source)] += 1
                self.labs_started = True
            self.lab_keys[name] = key
            page = self.cache / f"{name}.md"
            if not page.is_file():
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text("", encoding="utf-8")
            # A lab the nav does not list is not an omission: on_nav puts it with the labs.
            listed = f"{folder}{name}.md" in _nav_files(config.nav)
            lab_page = File.generated(config, f"{folder}{name}.md", abs_src_path=str(page),
                                      inclusion=InclusionLevel.UNDEFINED if listed else InclusionLevel.NOT_IN_NAV)
            if edited:
                Path(lab_page.abs_dest_path).unlink(missing_ok=True)
            files.append(lab_page)
            files.append(File.generated(config, f"{folder}{name}/{name}.ipynb", content=text))
        for file in files.documentation_pages():  # a changed snippet: its pages are modified
            shown = self.uses.get(file.src_uri, {})
            if any(self.runner.source(n) != s for n, s in shown.items()):
                Path(file.abs_dest_path).unlink(missing_ok=True)
        return files

    def _run_lab(self, file: str, text: str, key: str, executed: Path) -> Path:
        if self.fill_in:  # the first pages first: on two cores the labs took half the CPU from them
            _SERVED.wait()
            if _SERVING.get("stopped"):
                raise labs.LabError(f"{file}: not run, the server stopped first")
        book = labs.execute(file, text, key)
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

    # -- pages -----------------------------------------------------------------------------

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        self.page = page.file.src_uri
        self.uses[self.page] = {}
        name = self._lab(page.file.src_uri)
        lab = None
        if name is None:  # a chapter: read the file itself, so line numbers match the editor's
            file = f"{self.docs}/{page.file.src_uri}"
            source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        else:
            markdown, lab = self._lab_markdown(name, page)
            file = labs.shown(self._lab_source(name))
            source = labs.prose(self._lab_source(name), self.lang)
        self.page_source = (file, source)
        if getattr(page.file, "abs_dest_path", None):  # a lab's every language: its links and citations
            every = source if name is None else labs.prose(self._lab_source(name), None)
            _SOURCES[Path(page.file.abs_dest_path).resolve()] = (file, every)
        problems = check_page(source, file, self.runner, lab)
        if name is not None and lab is None:  # the lab failed (under serve): that failure is the problem shown
            problems = [p for p in problems if "no executed lab was given" not in p]
        for problem in problems:
            log.warning(problem)
        if problems and self.serving:  # never in a deployed build: there, a problem stops it
            items = "\n".join(f"    - `` {p.replace('`', chr(0x2035))} ``" for p in problems)
            markdown = f'!!! failure "{self.words["checks failed"].format(len(problems))}"\n\n{items}\n\n{markdown}'
        return markdown

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
            if run not in _PENDING:  # one callback a run, however many builds show it running
                _PENDING.add(run)
                run.add_done_callback(_lab_ended)
            unrun = nbformat.reads(self.lab_texts[name], as_version=4)
            text = labs.markdown(unrun, self._page_cells(name), self._lab_figure, self.words["output"])
            return f'!!! info "{self.words["lab running"]}"\n\n{text}', None
        if run is not None:
            del self.lab_runs[name]
            _PENDING.discard(run)
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
                             resolve=self.runner.name)

    def _lab_figure(self, png: bytes, code: str) -> str:
        file = self.figures.add(png, ".png")
        snippet = self.runner.ran(code)  # the chapter's alt text for the same code, read from memory
        alt = next((a for (name, _), a in self.figures.alts.items() if name == snippet), self.words["lab figure"])
        return f'<img class="snippet-figure" src="{FIGURE_SRC}{file}" alt="{html.escape(alt)}" loading="lazy" decoding="async">'

    def on_page_content(self, html: str, page: Any, **_: Any) -> str:
        self.page = None
        depth = "../" * page.url.count("/")
        html = keep_tokens_whole(mathml(html)).replace(f'src="{FIGURE_SRC}', f'src="{depth}{FIGURES}')
        return html.replace(f'srcset="{FIGURE_SRC}', f'srcset="{depth}{FIGURES}')

    # The search plugin indexes page.content in its on_page_context; it reads each formula as its
    # text alternative ("1, 1/2, 1/3" where MathML's text runs together as "1,12,13"), and the
    # page is then rendered with the MathML again. The page's entries then get the fields of
    # handbook/search.py (the title weighed as the page's own, code out of the previews).
    @event_priority(100)
    def _search_reads_text(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        self._mathml, page.content = page.content, math_as_text(page.content or "")
        index = _search_index(config)
        self._indexed = len(index.entries) if index else 0
        return context

    @event_priority(-100)
    def _reader_sees_mathml(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        page.content = self._mathml
        index = _search_index(config)
        for entry in index.entries[self._indexed:] if index else []:  # the entries of this page
            refine(entry, page.url)
        # main.html's words, and the language switch to this same page in every edition
        context["words"] = self.words
        if self.config.editions:
            site_url = (self.site_url or "") if self.is_root else (self.root_site_url or "")
            context["alternates"] = alternates(self.config.editions, self.lang, page.url, site_url or None)
        return context

    on_page_context = CombinedEvent(_search_reads_text, _reader_sees_mathml)

    def on_env(self, env: Any, **_: Any) -> Any:
        """Templates compiled once a process: MkDocs makes a new Jinja environment each build,
        which compiled Material's 71 templates again on every `serve` rebuild (1.8 of 7.7
        profiled seconds of a prose edit's rebuild). Jinja checks each template's source
        against the cached code's checksum, so an edited template is compiled afresh."""
        env.bytecode_cache = _TEMPLATES
        return env

    def on_template_context(self, context: Any, template_name: str, **_: Any) -> Any:
        context["words"] = self.words  # 404.html: main.html's words there too
        if template_name == "sitemap.xml" and self.config.editions:  # each page's other languages
            site_url = self.site_url if self.is_root else self.root_site_url
            context["alternates"] = lambda url: alternates(self.config.editions, self.lang, url, site_url)
        return context

    def on_post_template(self, output: str, template_name: str, config: Any) -> str:
        """404.html with no site_url: styled wherever it is served (links.served_anywhere)."""
        if template_name != "404.html" or config["site_url"]:
            return output
        top = {f.dest_uri.split("/")[0] for f in self.files} | set(list(self.config.editions)[1:] if self.is_root else [])
        return served_anywhere(output, top)

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        for label, word in HEADER_BUTTONS.items():
            name = self.words[word]
            if label not in output:
                raise PluginError(f"{page.file.src_uri}: Material's header has no {label} to name {name!r}")
            output = output.replace(label, f'{label[:-1]} role="button" tabindex="0" aria-label="{name}">')
        return output

    def on_post_build(self, config: Any) -> None:
        site = Path(config["site_dir"])
        (site / FIGURES).mkdir(parents=True, exist_ok=True)
        for name, content in self.figures.files.items():
            path = site / FIGURES / name
            path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
        if not self.is_root:
            return  # the root edition checks the whole site, once every edition is in it
        for lang in list(self.config.editions)[1:]:
            docs = self._build_edition(lang, config)
            _activate(self)
            for problem in pair_problems(Path(self.docs_dir), docs):
                log.warning(problem)
        self._count_runs()
        for source in sorted((self.root / self.config.labs).glob("*.py")):
            for problem in lab_pair_problems(source, list(self.config.editions) or [self.lang]):
                log.warning(problem)
        for problem in variant_problems(self.runner.folder, list(self.config.editions)):
            log.warning(problem)
        for problem in broken_links(site, _base_path(config["site_url"]), _SOURCES):
            log.warning(f"broken link: {problem}")
        try:  # every GitHub thread a page cites is in the list, as the kind it is, and every entry is cited
            listed = references.load(self.root / "references.yml")
        except (OSError, ValueError) as error:
            log.warning(f"references.yml: {error}")
        else:
            for problem in references.problems(dict(_SOURCES.values()), listed):
                log.warning(problem)

    def _count_runs(self) -> None:
        """Each snippet and each lab runs once per build, however many editions show it: a second
        run in one build (a lab whose code differs between editions) is a warning. Under serve an
        edit runs them again, so only a build counts."""
        snippets = Counter(self.runner.runner.executed[self.ran_before:])
        if self.serving:
            return
        for name, times in sorted((snippets + _LABS_RAN).items()):
            if times > 1:
                log.warning(f"{name if name.startswith('labs/') else 'snippets/' + name} ran {times} times in one build: "
                            "each runs once for every edition (a lab whose code differs between editions runs for each)")
        log.info(f"handbook: {len(snippets)} snippets and {len(_LABS_RAN)} labs ran in this build, "
                 f"{sum(snippets.values()) + sum(_LABS_RAN.values())} runs in all")

    def _build_edition(self, lang: str, config: Any) -> Path:
        """Build the ``lang`` edition (mkdocs.<lang>.yml) into ``<site>/<lang>/`` in this process:
        its pages share this build's snippet and lab runs, and its warnings count in this build's
        --strict (MkDocs counts every warning logged while this build runs)."""
        from mkdocs.commands.build import build
        from mkdocs.config import load_config
        from mkdocs.config.defaults import MkDocsConfig

        # MkDocs keeps one instance of a plugin that has on_startup per process (serve reuses it on
        # each rebuild), in a cache that every config shares: loaded as it is, mkdocs.<lang>.yml
        # would get this very instance back. Each edition gets a cache of its own, kept here, so
        # its plugins, too, live as long as this one and know what its pages showed last time.
        plugins = dict(MkDocsConfig._schema)["plugins"]
        shared, plugins.plugin_cache = plugins.plugin_cache, self.edition_plugins.setdefault(lang, {})
        try:
            edition = load_config(str(self.root / f"mkdocs.{lang}.yml"), site_dir=str(Path(config.site_dir) / lang))
        finally:
            plugins.plugin_cache = shared
        if config.site_url:
            edition.site_url = f"{config.site_url}{lang}/"
        handbook = edition.plugins["handbook"]
        if not hasattr(handbook, "pool"):  # new: started once, like this one
            edition.plugins.on_startup(command="serve" if self.serving else "build", dirty=self.dirty)
            self.started.append(edition.plugins)
        handbook.root_site_url, handbook.root_docs_dir = config.site_url, self.docs_dir
        if self.labs_started:  # what this build's lab runs left, collected now, not while a snippet runs
            gc.collect()  # (0.45 s: not on a rebuild that ran no lab)
        build(edition, dirty=self.dirty)
        return Path(edition.docs_dir)

    def on_serve(self, server: Any, **_: Any) -> Any:
        """`mkdocs serve` has built the site once and serves it: the labs start now, and each
        one's end asks this server for the rebuild that fills its page in."""
        for needed in ("_rebuild_cond", "_want_rebuild"):
            if not hasattr(server, needed):
                raise PluginError(f"MkDocs' live-reload server has no {needed}: a lab page shown while its "
                                  f"run goes on could not ask for the rebuild that fills it in")
        _SERVING["server"] = server
        _SERVED.set()  # the labs start now, after the first build (no run has ended before this)
        return server

    def on_shutdown(self) -> None:
        for plugins in self.started:  # the other editions' plugins end with this one
            plugins.on_shutdown()
        _SERVING["stopped"] = True
        _SERVED.set()  # a lab still waiting to start ends now, unrun
        self.pool.shutdown(wait=False, cancel_futures=True)


class _Compiled(jinja2.BytecodeCache):
    """Jinja's bytecode cache, held in memory (its own caches are on disk or in memcached)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self.codes.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)  # a checksum that differs leaves the bucket empty

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = _Compiled()


def _copy(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` whole: a build reading it meanwhile sees the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


# Lab runs whose pages were shown without their outputs, and the server to ask for the rebuild that
# shows them (set by on_serve once `mkdocs serve` serves).
_PENDING: set[Future] = set()
_LABS_RAN: Counter[str] = Counter()  # lab source -> runs started in this build (every edition's)
_SERVING: dict[str, Any] = {}
_SERVED = threading.Event()  # under serve, labs start once the first build is served


def _lab_ended(_run: Future) -> None:
    """In the lab's thread, as its run ends (or fails): ask the server for a rebuild, as it asks
    itself when a watched file changes (LiveReloadServer.watch's callback, mkdocs/livereload/
    __init__.py, mkdocs 1.6.1): one rebuild soon, however many runs ended."""
    server = _SERVING.get("server")
    if server is not None:
        with server._rebuild_cond:
            server._want_rebuild = True
            server._rebuild_cond.notify_all()


def _nav_files(nav: Any) -> set[str]:
    """Every file a config's ``nav`` lists (its entries: ``title: file``, a bare file, a section)."""
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, dict):
        return {f for v in nav.values() for f in _nav_files(v)}
    if isinstance(nav, list):
        return {f for v in nav for f in _nav_files(v)}
    return set()


def _walk(items: list[Any]) -> Any:
    for item in items:
        yield item
        yield from _walk(getattr(item, "children", None) or [])


def _search_index(config: Any) -> Any:
    """Material's search index (its entries so far), or None without its search plugin."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    return getattr(search, "search_index", None)


def _done(result: Any) -> Future:
    future: Future = Future()
    future.set_result(result)
    return future


def _base_path(site_url: str | None) -> str:
    from urllib.parse import urlsplit

    return urlsplit(site_url or "").path or "/"


class _Broken:
    """What a page shows of a snippet that failed: the one-line error, in place of every view."""

    def __init__(self, message: str, title: str) -> None:
        self.message, self.title = message, title

    def __getattr__(self, _name: str) -> Any:
        return lambda *_a, **_k: f'!!! failure "{self.title}"\n\n    {self.message}'
