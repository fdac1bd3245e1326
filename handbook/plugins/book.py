"""``handbook/book``: once every edition is in the site, each edition's printable book
(``book.pdf`` at its root: handbook/book.py), before ``handbook/links`` checks the links to it.

A build prints it (about a minute for both editions on a two-core machine, in Chromium); ``mkdocs
serve`` does not, and its link check counts the books as made. With ``enabled: false`` there is no
book, and a page that links to one has a broken link."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.plugins import event_priority

from ..book import BOOK, print_books
from . import Seam


class BookConfig(Config):
    enabled = c.Type(bool, default=True)


class BookPlugin(Seam):
    name = "book"
    config_class = BookConfig

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        return config

    def books(self, config: Any) -> list[tuple[Path, str | None]]:
        """Each edition's folder in the site, with its address where the site has one."""
        site, url = Path(config["site_dir"]), config["site_url"] or None
        return [(site, url)] + [(site / lang, url and urljoin(url, f"{lang}/")) for lang in self.editions.other_editions()]

    def made_later(self, config: Any) -> set[Path]:
        """The books this build links to without printing them (under serve): none in a build."""
        return {site.resolve() / BOOK for site, _ in self.books(config)} if self.config.enabled and self.serving else set()

    @event_priority(-40)
    def on_post_build(self, config: Any) -> None:
        if self.config.enabled and not self.serving and self.editions.whole:
            print_books(self.books(config))
