"""The MkDocs plugin (``plugins: [claimcheck]``): each page's claims are checked as it builds, against
a folder of scripts or a JSON file of values; each problem is a warning, so ``mkdocs build --strict``
fails on a claim that does not hold, a malformed one, or (with ``bare_numbers``) a number in prose
that no claim covers. On the built page, hovering or focusing a claimed number shows its source and
expression (``reveal.py``; the tooltip's look is the theme's CSS, ``.claim-source``)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

from .check import check_text
from .reveal import CSS, CSS_FILE, reveal
from .sources import Scripts, SourceError, Values

log = logging.getLogger("mkdocs.plugins.claimcheck")


class ClaimcheckConfig(Config):
    enabled = c.Type(bool, default=True)
    scripts = c.Optional(c.Type(str))  # a folder of scripts, relative to mkdocs.yml
    values = c.Optional(c.Type(str))  # or a JSON file of values
    bare_numbers = c.Type(bool, default=True)  # a number in prose must be a claim
    label = c.Type(str, default="Checked against")  # what a claim's tooltip says before its source


class ClaimcheckPlugin(BasePlugin[ClaimcheckConfig]):
    def on_config(self, config: Any) -> Any:
        root = Path(config.config_file_path).parent
        if bool(self.config.scripts) == bool(self.config.values):
            raise PluginError("claimcheck: give one of `scripts` (a folder) and `values` (a JSON file)")
        try:
            self.source = Scripts(root / self.config.scripts) if self.config.scripts else Values(root / self.config.values)
        except SourceError as error:
            raise PluginError(f"claimcheck: {error}") from None
        self.docs = Path(config.docs_dir).name
        if self.config.enabled and CSS_FILE not in config.extra_css:
            config.extra_css.append(CSS_FILE)
        return config

    def on_files(self, files: Any, config: Any) -> Any:
        if self.config.enabled:
            files.append(File.generated(config, CSS_FILE, content=CSS))
        return files

    def on_page_markdown(self, markdown: str, page: Any, **_: Any) -> str:
        if self.config.enabled:
            results, problems = check_text(markdown, f"{self.docs}/{page.file.src_uri}", self.source,
                                           bare=self.config.bare_numbers)
            for problem in [r.problem for r in results if r.problem] + problems:
                log.warning(problem)
        return markdown

    def on_page_content(self, html: str, **_: object) -> str:
        """Each checked number shows, on hover and focus, where its value came from."""
        return reveal(html, self.config.label) if self.config.enabled else html
