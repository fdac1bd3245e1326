"""``handbook/claims``: every page is checked as it builds. Each number the prose states is a claim
tied to the expression of a snippet (or a lab's cell) that produced it, and must hold; each quote of
a library's source must be in the installed source; no other number may stand bare in the prose
(``prose.check_page``). A problem is a warning, so ``--strict`` stops the build; under ``mkdocs
serve`` the page shows its problems above it, and a claim on a snippet still running is checked
once its run ends.

On the built page, hovering or focusing a checked number shows the snippet and expression it comes
from. With ``enabled: false`` nothing is checked (a draft's preview)."""

from __future__ import annotations

from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.plugins import event_priority

from claimcheck.reveal import CSS, CSS_FILE, reveal
from mkdocs.structure.files import File

from ..prose import check_page
from . import Seam, log, page_source


class ClaimsConfig(Config):
    enabled = c.Type(bool, default=True)


class ClaimsPlugin(Seam):
    name = "claims"
    config_class = ClaimsConfig

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        self.snippets = self.seam(config, "snippets")
        self.labs = self.seam(config, "labs", required=False)
        if self.config.enabled and CSS_FILE not in config.extra_css:
            config.extra_css.append(CSS_FILE)
        return config

    def on_files(self, files: Any, config: Any) -> Any:
        if self.config.enabled:  # the tooltips' look (claimcheck's)
            files.append(File.generated(config, CSS_FILE, content=CSS))
        return files

    @event_priority(-50)  # after typeset's: its token wrapping never reaches into a tooltip
    def on_page_content(self, html: str, **_: Any) -> str:
        """Each checked number shows, on hover and keyboard focus, the snippet and expression
        its value comes from (claimcheck.reveal: a tooltip a screen reader reads as its description)."""
        return reveal(html, self.editions.words["claim source"]) if self.config.enabled else html

    @event_priority(30)
    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        if not self.config.enabled:
            return markdown
        file, source = page_source(page, self.editions, self.labs, self.editions.lang)
        lab = self.labs is not None and page.file.src_uri in self.labs.values  # made from a lab's run (or its failure)
        values = self.labs.values[page.file.src_uri] if lab else None
        later = self.snippets.later if self.editions.fill_in else None
        problems = check_page(source, file, self.snippets.runner, values, later)
        if lab and values is None:  # the lab failed (under serve): that failure is the problem shown
            problems = [p for p in problems if "no executed lab was given" not in p]
        for problem in problems:
            log.warning(problem)
        if problems and self.editions.serving:  # never in a deployed build: there, a problem stops it
            items = "\n".join(f"    - `` {p.replace('`', chr(0x2035))} ``" for p in problems)
            title = self.editions.words["checks failed"].format(len(problems))
            markdown = f'!!! failure "{title}"\n\n{items}\n\n{markdown}'
        return markdown
