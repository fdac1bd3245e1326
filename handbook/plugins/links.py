"""``handbook/links``: once every edition is in the site, every link and anchor of the built pages
must lead somewhere (``links.broken_links``, reported at the line of the source an author edits),
and every GitHub thread a page cites must be in ``references.yml`` as the kind it is, each entry
cited (``references.py``). Without a ``site_url``, the 404 page is made to work wherever it is
served.

With ``enabled: false`` no link is checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.plugins import event_priority

from .. import references
from ..links import broken_links, served_anywhere
from . import Seam, log, page_source


class LinksConfig(Config):
    enabled = c.Type(bool, default=True)
    references = c.Type(str, default="references.yml")  # relative to mkdocs.yml: the threads pages may cite


class LinksPlugin(Seam):
    name = "links"
    config_class = LinksConfig

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        self.labs = self.seam(config, "labs", required=False)
        self.book = self.seam(config, "book", required=False)
        self.references = Path(config.config_file_path).parent / self.config.references
        return config

    def on_files(self, files: Any, config: Any) -> Any:
        self.files = files  # the site's top-level names, for 404.html
        return files

    @event_priority(20)
    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        """Each built page's source, every language of a lab's: a broken link is reported at the
        line of the file an author edits, not only the built page."""
        if self.config.enabled and getattr(page.file, "abs_dest_path", None):
            source = page_source(page, self.editions, self.labs, None)
            self.editions.shared.sources[Path(page.file.abs_dest_path).resolve()] = source
        return markdown

    def on_post_template(self, output: str, template_name: str, config: Any) -> str:
        """404.html with no site_url: styled wherever it is served (links.served_anywhere)."""
        if template_name != "404.html" or config["site_url"]:
            return output
        top = {f.dest_uri.split("/")[0] for f in self.files} | set(self.editions.other_editions())
        return served_anywhere(output, top)

    @event_priority(-50)
    def on_post_build(self, config: Any) -> None:
        if not (self.config.enabled and self.editions.whole):  # the root edition's, with every edition built
            return
        shared = self.editions.shared
        base = urlsplit(config["site_url"] or "").path or "/"
        later = frozenset(self.book.made_later(config)) if self.book else frozenset()
        for problem in broken_links(Path(config["site_dir"]), base, shared.sources, shared.pages, later):
            log.warning(f"broken link: {problem}")
        try:  # every GitHub thread a page cites is in the list, as the kind it is, and every entry is cited
            listed = references.load(self.references)
        except (OSError, ValueError) as error:
            log.warning(f"{self.references.name}: {error}")
        else:
            for problem in references.problems(dict(shared.sources.values()), listed):
                log.warning(problem)
