"""``handbook/editions``: the site's languages. The first edition named in ``editions`` is built from
this config at the site's root; once it is built, each other one is built from ``mkdocs.<lang>.yml``
into ``<site>/<lang>/``, in this process, so its pages share this build's snippet and lab runs; then
the pages and labs of every language are checked to pair up, and the runs to have been made once
each. Under ``mkdocs serve`` the first build is the root edition's alone, served at once; the other
editions come in the rebuild that serving asks for (``on_serve``). Every edition's plugins share one
``Shared``: this plugin's, made in ``on_startup``, and handed to each edition it builds.

With ``enabled: false`` only this config's edition is built (its language switch still lists every
edition)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from .. import _activate
from ..editions import alternates, lab_pair_problems, pair_problems, variant_problems, word_problems
from ..shared import Shared
from . import Seam, log


class EditionsConfig(Config):
    enabled = c.Type(bool, default=True)  # off: this edition alone
    # The site's languages, code -> the name its switch shows; the first is the root edition, each
    # other one is mkdocs.<code>.yml built into <site>/<code>/.
    editions = c.Type(dict, default={})
    words = c.Type(dict, default={})  # what the build writes on a page, in this edition's language (WORD_KEYS)
    serve_dir = c.Type(str, default=".cache/serve")  # under serve: where a finished run asks for a rebuild


class EditionsPlugin(Seam):
    name = "editions"
    config_class = EditionsConfig

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"  # an author is looking: show a page's problems on it
        self.dirty = dirty
        # Pages are served before their runs end, and a run's end rebuilds its page (on_serve):
        # unless the server never rebuilds (--no-livereload), where a page waits, as in a build.
        self.fill_in = self.serving and "--no-livereload" not in sys.argv
        self.shared = Shared()  # the build's: an edition this one builds gets this one's (_build_edition)
        self.edition_configs: dict[str, type] = {}  # lang -> that edition's config class
        self.started: dict[str, tuple[Any, Any]] = {}  # lang -> its handbook/editions and plugins, started here
        self.root_site_url: str | None = None  # the root edition's, for an edition it builds
        self.root_docs_dir: Path | None = None
        self.whole = False  # this build has every edition in it: the whole site's checks run (handbook/links)

    @event_priority(100)
    def on_config(self, config: Any) -> Any:
        self.root = Path(config.config_file_path).parent
        self.lang = config.theme["language"]
        editions = self.config.editions
        if editions and self.lang not in editions:
            raise PluginError(f"theme.language {self.lang!r} is not one of the handbook's editions {list(editions)}")
        self.is_root = not editions or self.lang == next(iter(editions))
        if problems := word_problems(self.config.words, f"{Path(config.config_file_path).name}: handbook/editions: words"):
            raise PluginError("\n".join(problems))
        self.words = self.config.words
        self.docs_dir = config["docs_dir"]
        self.docs = Path(self.docs_dir).name  # docs, docs-en: how messages name a page's file
        self.site_url = config.site_url
        if self.root_docs_dir is None:
            self.root_docs_dir = self.root / "docs"
        if "SOURCE_DATE_EPOCH" not in os.environ:  # sitemap dates from the commit, not the day
            git = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=self.root, capture_output=True, text=True)
            if git.returncode == 0 and git.stdout.strip():
                os.environ["SOURCE_DATE_EPOCH"] = git.stdout.strip()
        if not config.repo_url:  # no repository known: no repository link, no edit links
            config.edit_uri = None
        self.snippets = config.plugins.get("handbook/snippets")
        return config

    def on_pre_build(self, config: Any) -> None:
        self.shared.begun.set()  # an ask for a rebuild is answered (Shared.asking)
        if self.is_root:  # this build's lab runs, every edition's: counted from here (on_post_build)
            self.shared.labs_ran.clear()
            ended = {f for f in self.shared.pending if f.done() and f in self.shared.waited}
            self.shared.pending -= ended  # the pages that waited for these are made again in this build
            self.shared.waited -= ended

    def on_files(self, files: Any, config: Any) -> Any:
        if not self.is_root:  # the stylesheet and anything else under docs/assets/: one copy per edition
            shared = Path(self.root_docs_dir)
            for path in sorted((shared / "assets").rglob("*")):
                uri = path.relative_to(shared).as_posix()
                if path.is_file() and files.get_file_from_path(uri) is None:
                    files.append(File(uri, str(shared), config["site_dir"], config["use_directory_urls"]))
        return files

    def other_editions(self) -> list[str]:
        return list(self.config.editions)[1:] if self.config.enabled and self.is_root else []

    # -- what Material's templates get: the words, and each page's language switch ----------

    def on_page_context(self, context: Any, *, page: Any, **_: Any) -> Any:
        context["words"] = self.words  # main.html's
        if self.config.editions:
            site_url = (self.site_url if self.is_root else self.root_site_url) or None
            context["alternates"] = alternates(self.config.editions, self.lang, page.url, site_url)
        return context

    def on_template_context(self, context: Any, template_name: str, **_: Any) -> Any:
        context["words"] = self.words  # 404.html: main.html's words there too
        if template_name == "sitemap.xml" and self.config.editions:  # each page's other languages
            site_url = self.site_url if self.is_root else self.root_site_url
            context["alternates"] = lambda url: alternates(self.config.editions, self.lang, url, site_url)
        return context

    # -- the other editions, and the checks of every edition together ----------------------

    def on_post_build(self, config: Any) -> None:
        self.whole = False
        if not self.is_root:
            return  # the root edition checks the whole site, once every edition is in it
        if self.fill_in and not self.shared.served.is_set():  # the first build under serve: this edition first
            if self.shared.later is None:
                self.shared.later = Future()
                self.shared.pending.add(self.shared.later)
            return
        if self.shared.later is not None:  # the rebuild on_serve asked for: every edition, and the checks
            self.shared.pending.discard(self.shared.later)
            self.shared.later = None
        for lang in self.other_editions():
            docs = self._build_edition(lang, config)
            _activate(self.snippets)
            for problem in pair_problems(Path(self.docs_dir), docs):
                log.warning(problem)
        self._count_runs()
        langs = list(self.config.editions) or [self.lang]
        labs = config.plugins.get("handbook/labs")
        for source in sorted(labs.sources()) if labs and labs.config.enabled else []:
            for problem in lab_pair_problems(source, langs):
                log.warning(problem)
        if self.snippets is not None and self.snippets.config.enabled:
            for problem in variant_problems(self.snippets.runner.folder, langs):
                log.warning(problem)
        self.whole = True

    def _count_runs(self) -> None:
        """Each snippet and each lab runs once per build, however many editions show it: a second
        run in one build (a lab whose code differs between editions) is a warning. Under serve an
        edit runs them again, so only a build counts."""
        ran = self.snippets.runs_this_build() if self.snippets is not None and self.snippets.config.enabled else []
        snippets = Counter(ran)
        if self.serving:
            return
        for name, times in sorted((snippets + self.shared.labs_ran).items()):
            if times > 1:
                log.warning(f"{name if name.startswith('labs/') else 'snippets/' + name} ran {times} times in one build: "
                            "each runs once for every edition (a lab whose code differs between editions runs for each)")
        labs = self.shared.labs_ran
        log.info(f"handbook: {len(snippets)} snippets and {len(labs)} labs ran in this build, "
                 f"{sum(snippets.values()) + sum(labs.values())} runs in all")

    def _edition_config(self, lang: str, path: Path, site_dir: Path) -> Any:
        """``mkdocs.<lang>.yml`` loaded as ``mkdocs.config.load_config`` loads a config, into a
        config class of this edition's own. MkDocs keeps one instance of a plugin that has
        on_startup or on_shutdown per process (serve reuses it on each rebuild), in a cache held by
        the config class's ``plugins`` option: loaded as MkDocsConfig, the edition would get these
        very plugins back. Its own class declares its own ``plugins`` option (as MkDocsConfig
        declares it, mkdocs/config/defaults.py in mkdocs 1.6.1), so its plugins, too, live as long
        as these and know what their pages showed last time."""
        from mkdocs.config.defaults import MkDocsConfig

        if not path.is_file():
            raise PluginError(f"the handbook's editions name {lang!r}, and its config {path.name} does not exist")
        if lang not in self.edition_configs:
            plugins = c.Plugins(theme_key="theme", default=["search"])
            self.edition_configs[lang] = type(f"EditionConfig_{lang}", (MkDocsConfig,), {"plugins": plugins})
        edition = self.edition_configs[lang](config_file_path=str(path))
        with open(path, "rb") as file:
            edition.load_file(file)
        edition.load_dict({"site_dir": str(site_dir)})
        errors, warnings = edition.validate()
        for name, warning in warnings:
            log.warning(f"{path.name}: config value {name!r}: {warning}")
        if errors:
            raise PluginError("\n".join(f"{path.name}: config value {name!r}: {error}" for name, error in errors))
        return edition

    def _build_edition(self, lang: str, config: Any) -> Path:
        """Build the ``lang`` edition (mkdocs.<lang>.yml) into ``<site>/<lang>/`` in this process:
        its pages share this build's snippet and lab runs, and its warnings count in this build's
        --strict (MkDocs counts every warning logged while this build runs)."""
        from mkdocs.commands.build import build

        edition = self._edition_config(lang, self.root / f"mkdocs.{lang}.yml", Path(config.site_dir) / lang)
        if config.site_url:
            edition.site_url = f"{config.site_url}{lang}/"
        theirs = edition.plugins.get("handbook/editions")
        if theirs is None:
            raise PluginError(f"mkdocs.{lang}.yml lists no handbook/editions plugin")
        if self.started.get(lang, (None,))[0] is not theirs:  # new (MkDocs keeps the instances): started once, like these
            edition.plugins.on_startup(command="serve" if self.serving else "build", dirty=self.dirty)
            self.started[lang] = (theirs, edition.plugins)
        theirs.shared = self.shared  # its pages share this build's runs
        theirs.root_site_url, theirs.root_docs_dir = config.site_url, self.docs_dir
        labs = config.plugins.get("handbook/labs")
        if labs is not None and labs.labs_started:  # what this build's lab runs left, collected now,
            gc.collect()  # not while a snippet runs (0.45 s: not on a rebuild that ran no lab)
        build(edition, dirty=self.dirty)
        return Path(edition.docs_dir)

    def on_serve(self, server: Any, **_: Any) -> Any:
        """`mkdocs serve` has built the site once and serves it: the labs start now, and each end
        of a run that a page was shown without asks this server for the rebuild that fills the page
        in, by writing to a folder the server watches (``LiveReloadServer.watch``: a change under
        it rebuilds the site; ``Shared.asking``)."""
        folder = self.root / self.config.serve_dir
        folder.mkdir(parents=True, exist_ok=True)
        server.watch(str(folder))
        self.shared.asking(folder)
        self.shared.served.set()  # the labs start now, after the first build (no lab has ended before this)
        if self.shared.later is not None:  # the other editions, built in the rebuild this asks for
            self.shared.later.set_result(None)
            self.shared.ask_rebuild()  # (a run that ended before this asked already: its ask waited)
        return server

    def on_shutdown(self) -> None:
        for _, plugins in self.started.values():  # the other editions' plugins end with these
            plugins.on_shutdown()
        self.shared.stopped = True
        self.shared.served.set()  # a lab still waiting to start ends now, unrun
        self.shared.wanted.set()  # and no rebuild is asked for
        self.shared.close()  # the labs' kernel server
