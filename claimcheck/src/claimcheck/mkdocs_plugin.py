"""The MkDocs plugin (``plugins: [claimcheck]``): each page's claims are checked as it builds, against
a folder of scripts or a JSON file of values; each problem is a warning, so ``mkdocs build --strict``
fails on a claim that does not hold, a malformed one, or (with ``bare_numbers``) a number in prose
that no claim covers."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from .check import check_text
from .sources import Scripts, SourceError, Values

log = logging.getLogger("mkdocs.plugins.claimcheck")


class ClaimcheckConfig(Config):
    enabled = c.Type(bool, default=True)
    scripts = c.Optional(c.Type(str))  # a folder of scripts, relative to mkdocs.yml
    values = c.Optional(c.Type(str))  # or a JSON file of values
    bare_numbers = c.Type(bool, default=True)  # a number in prose must be a claim


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
        return config

    def on_page_markdown(self, markdown: str, page: Any, **_: Any) -> str:
        if self.config.enabled:
            results, problems = check_text(markdown, f"{self.docs}/{page.file.src_uri}", self.source,
                                           bare=self.config.bare_numbers)
            for problem in [r.problem for r in results if r.problem] + problems:
                log.warning(problem)
        return markdown
