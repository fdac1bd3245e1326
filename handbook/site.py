"""The whole site's seam of the plugin: once the root edition is built, it builds every other
edition into ``<site>/<lang>/`` in this process (their pages share this build's snippet and lab
runs), then checks what only the whole site shows: pages and labs paired across editions, snippet
variants, runs counted (each once a build), the built site's links, and the cited threads. Under
``mkdocs serve`` the first build is the root edition's alone, served at once; the other editions
and the whole-site checks come in the rebuild that serving asks for (``labpages.on_serve``)."""

from __future__ import annotations

import gc
import logging
from collections import Counter
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from . import _activate, references
from .editions import lab_pair_problems, pair_problems, variant_problems
from .links import broken_links

log = logging.getLogger("mkdocs.plugins.handbook")
FIGURES = "assets/figures/"


class WholeSite:
    """The plugin's whole-site events (HandbookPlugin inherits them)."""

    def on_post_build(self, config: Any) -> None:
        site = Path(config["site_dir"])
        (site / FIGURES).mkdir(parents=True, exist_ok=True)
        for name, content in self.figures.files.items():
            path = site / FIGURES / name
            path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")
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
        for problem in broken_links(site, _base_path(config["site_url"]), self.shared.sources, self.shared.pages):
            log.warning(f"broken link: {problem}")
        try:  # every GitHub thread a page cites is in the list, as the kind it is, and every entry is cited
            listed = references.load(self.root / "references.yml")
        except (OSError, ValueError) as error:
            log.warning(f"references.yml: {error}")
        else:
            for problem in references.problems(dict(self.shared.sources.values()), listed):
                log.warning(problem)

    def _count_runs(self) -> None:
        """Each snippet and each lab runs once per build, however many editions show it: a second
        run in one build (a lab whose code differs between editions) is a warning. Under serve an
        edit runs them again, so only a build counts."""
        snippets = Counter(self.runner.runner.executed[self.ran_before:])
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
        on_startup or on_shutdown per process (serve reuses it on each rebuild), in a cache held by the config
        class's ``plugins`` option: loaded as MkDocsConfig, the edition would get this very plugin
        back. Its own class declares its own ``plugins`` option (as MkDocsConfig declares it,
        mkdocs/config/defaults.py in mkdocs 1.6.1), so its plugins, too, live as long as this one
        and know what its pages showed last time."""
        from mkdocs.config import config_options
        from mkdocs.config.defaults import MkDocsConfig
        from mkdocs.exceptions import PluginError

        if not path.is_file():
            raise PluginError(f"the handbook's editions name {lang!r}, and its config {path.name} does not exist")
        if lang not in self.edition_configs:
            plugins = config_options.Plugins(theme_key="theme", default=["search"])
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
        handbook = edition.plugins["handbook"]
        if not hasattr(handbook, "pool"):  # new: started once, like this one
            edition.plugins.on_startup(command="serve" if self.serving else "build", dirty=self.dirty)
            self.started.append(edition.plugins)
        handbook.shared = self.shared  # its pages share this build's runs
        handbook.root_site_url, handbook.root_docs_dir = config.site_url, self.docs_dir
        if self.labs_started:  # what this build's lab runs left, collected now, not while a snippet runs
            gc.collect()  # (0.45 s: not on a rebuild that ran no lab)
        build(edition, dirty=self.dirty)
        return Path(edition.docs_dir)


def _base_path(site_url: str | None) -> str:
    from urllib.parse import urlsplit

    return urlsplit(site_url or "").path or "/"
