"""The MkDocs plugin (``plugins: [handbook]``): runs snippets for the pages, checks every page's
claims and numbers and turns TeX into MathML. Its other seams are mixins, each in a module of its
own: ``labpages`` (labs become pages; runs shared across editions and rebuilds), ``theme`` (what
Material's templates and search get) and ``site`` (the other editions, and what only the whole
built site shows). Snippet and lab runs are shared by every edition's plugin (``shared``)."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from . import _activate, labs
from .editions import EditionRunner, variant, word_problems
from .labpages import LabPages, nav_files
from .layout import keep_tokens_whole
from .mathml import mathml
from .prose import check_page
from .render import FIGURE_SRC, Example, Figures
from .shared import Shared
from .site import FIGURES, WholeSite
from .snippets import Runner, SnippetError
from .theme import Theme

log = logging.getLogger("mkdocs.plugins.handbook")
RUN_CALL = re.compile(r"""handbook\.run\(\s*["']([^"']+)["']""")  # a page's literal snippet name
# A page's executed Python block (markdown-exec's fence, at any indent), and a quoted name in it
BLOCK = re.compile(r'^(?P<indent>[ \t]*)(?P<fence>`{3,})python\b[^\n]*\bexec="on"[^\n]*\n.*?^(?P=indent)(?P=fence)[ \t]*$',
                   re.M | re.S)
QUOTED = re.compile(r"""["']([^"'\s]+\.py)["']""")


class HandbookConfig(Config):
    snippets = c.Type(str, default="snippets")  # relative to mkdocs.yml
    labs = c.Type(str, default="labs")  # relative to mkdocs.yml: <chapter>.py, one source for every edition
    lab_cache = c.Type(bool, default=True)  # reuse a lab's outputs made under the same key
    cache_dir = c.Type(str, default=".cache/labs")
    # The site's languages, code -> the name its switch shows; the first is this config's root
    # edition, each other one is mkdocs.<code>.yml built into <site>/<code>/.
    editions = c.Type(dict, default={})
    words = c.Type(dict, default={})  # what the build writes on a page, in this edition's language (WORD_KEYS)


class HandbookPlugin(LabPages, Theme, WholeSite, BasePlugin[HandbookConfig]):
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
        self.waiting: dict[str, set[Future]] = {}  # page source -> the snippet runs it was shown without
        self.lab_runs: dict[str, Future] = {}
        self.lab_keys: dict[str, str] = {}  # lab -> the key of the run its page shows
        self.lab_texts: dict[str, str] = {}  # lab -> the notebook its page was last made from
        self.pool = ThreadPoolExecutor(os.cpu_count() or 2, thread_name_prefix="lab")
        self.reported: set[str] = set()
        self.ran_before = 0  # how many snippet runs this process had made when this build began
        self.edition_configs: dict[str, type] = {}  # lang -> that edition's config class (site.py)
        self.started: list[Any] = []  # the editions' plugin collections, started by this plugin
        self.shared = Shared()  # the build's: an edition built by the root edition gets the root's (site.py)

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
        if folder not in self.shared.runners:
            self.shared.runners[folder] = Runner(folder, apart=True, behind=self.fill_in)
        self.runner = EditionRunner(self.shared.runners[folder], None if self.is_root else self.lang)
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
        self.shared.begun.set()  # an ask for a rebuild is answered (Shared.asking)
        if self.is_root:  # this build's runs, every edition's: counted from here (on_post_build)
            self.ran_before = len(self.runner.runner.executed)
            self.shared.labs_ran.clear()
            ended = {f for f in self.shared.pending if f.done() and f in self.shared.waited}
            self.shared.pending -= ended  # the pages that waited for these are made again in this build
            self.shared.waited -= ended

    # -- what pages call -------------------------------------------------------------------

    def show(self, name: str) -> Example | _Broken:
        """The run of a snippet, for a page's ``handbook.run``."""
        try:
            if self.page is not None:
                self.uses.setdefault(self.page, {})[name] = self.runner.source(name) or ""
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

    @event_priority(50)
    def on_files(self, files: Any, config: Any) -> Any:
        self.files = files  # the site's top-level names, for 404.html (on_post_template)
        if not self.is_root:  # the stylesheet and anything else under docs/assets/: one copy per edition
            shared = Path(self.root_docs_dir)
            for path in sorted((shared / "assets").rglob("*")):
                uri = path.relative_to(shared).as_posix()
                if path.is_file() and files.get_file_from_path(uri) is None:
                    files.append(File(uri, str(shared), config["site_dir"], config["use_directory_urls"]))
        if self.is_root:  # the snippets every edition's pages name, run ahead in the order they ask
            self.runner.runner.ahead(self._named(files, config))
        self._lab_files(files, config)
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
        variants = [variant(n, lang) for lang in list(self.config.editions)[1:] for n in names
                    if n.endswith(".py") and self.runner.runner.source(variant(n, lang)) is not None]
        return names + variants

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        self.page = page.file.src_uri
        self.uses[self.page], self.waiting[self.page] = {}, set()
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
            self.shared.sources[Path(page.file.abs_dest_path).resolve()] = (file, every)
        if self.fill_in and name is None:
            markdown = BLOCK.sub(self._running_block, markdown)
        problems = check_page(source, file, self.runner, lab, self._later if self.fill_in else None)
        if name is not None and lab is None:  # the lab failed (under serve): that failure is the problem shown
            problems = [p for p in problems if "no executed lab was given" not in p]
        for problem in problems:
            log.warning(problem)
        if problems and self.serving:  # never in a deployed build: there, a problem stops it
            items = "\n".join(f"    - `` {p.replace('`', chr(0x2035))} ``" for p in problems)
            markdown = f'!!! failure "{self.words["checks failed"].format(len(problems))}"\n\n{items}\n\n{markdown}'
        return markdown

    def _running_block(self, block: re.Match) -> str:
        """Under serve, a page is served before its snippets have run: a block that shows one
        still running is, for now, a notice (the run's end makes the page again: ``_later``)."""
        names = [n for n in QUOTED.findall(block[0]) if self.runner.source(n) is not None]
        if not any([self._later(n) for n in names]):  # a list: every one of them started and waited for
            return block[0]
        return f'{block["indent"]}!!! info "{self.words["example running"]}"\n'

    def _later(self, name: str) -> bool:
        """Whether snippet ``name`` still runs (started now if it had not), so that the page being
        made shows it, and checks its claims, only once it ends: that end asks the server for a
        rebuild (``Shared.asking``), and ``on_files`` has this page made again in it."""
        future = self.runner.waiting(name)
        if future is None:
            return False
        self.waiting.setdefault(self.page or "", set()).add(future)
        if future not in self.shared.waited:  # one callback a run, however many pages wait for it
            self.shared.waited.add(future)
            self.shared.pending.add(future)
            future.add_done_callback(self.shared.ask_rebuild)
        return True

    def on_page_content(self, html: str, page: Any, **_: Any) -> str:
        self.page = None
        depth = "../" * page.url.count("/")
        html = keep_tokens_whole(mathml(html)).replace(f'src="{FIGURE_SRC}', f'src="{depth}{FIGURES}')
        return html.replace(f'srcset="{FIGURE_SRC}', f'srcset="{depth}{FIGURES}')

    def on_shutdown(self) -> None:
        for plugins in self.started:  # the other editions' plugins end with this one
            plugins.on_shutdown()
        self.shared.stopped = True
        self.shared.served.set()  # a lab still waiting to start ends now, unrun
        self.shared.wanted.set()  # and no rebuild is asked for
        self.pool.shutdown(wait=False, cancel_futures=True)
        for runner in self.shared.runners.values():  # the snippet processes: none is left, none starts again
            if runner.apart is not None:
                runner.apart.stop()


class _Broken:
    """What a page shows of a snippet that failed: the one-line error, in place of every view."""

    def __init__(self, message: str, title: str) -> None:
        self.message, self.title = message, title

    def __getattr__(self, _name: str) -> Any:
        return lambda *_a, **_k: f'!!! failure "{self.title}"\n\n    {self.message}'
