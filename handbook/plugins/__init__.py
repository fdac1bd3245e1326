"""The handbook's MkDocs plugins, one for each seam of the build. mkdocs.yml lists them all:

==================  =========================================================================
handbook/editions   the site's languages: each edition's words, every other edition built into
                    ``<site>/<lang>/`` after the first, pages and labs paired, runs counted
handbook/snippets   the snippets the pages show (``handbook.run``), run in processes of their
                    own, and the figures they draw
handbook/labs       each lab source, a page in every edition; its run shared by every edition
handbook/claims     every page's claims, source quotes and bare numbers, checked as it builds
handbook/typeset    TeX as MathML, search that reads it as text, layout that keeps tokens whole,
                    named header buttons, templates compiled once a process
handbook/links      the built site's links and anchors, the cited threads, a 404 page that works
                    wherever it is served
==================  =========================================================================

Each has an ``enabled`` switch (on by default). ``handbook/editions`` holds what the others share:
the edition's language and words, and the build's runs (``shared.Shared``); each other plugin finds
it, and any seam it uses, in ``on_config`` through ``config.plugins`` (``Seam.seam``). One that
needs a seam that is off says so and stops the build. Their state is set in ``on_startup`` (it
lasts as long as MkDocs keeps the plugin: a build, or all of ``mkdocs serve``) and ``on_config``.

Priorities, where order matters (MkDocs runs higher first; the rest run in the listed order):
``on_config`` editions 100, before the seams that read it. ``on_files`` snippets 50 (it starts the
snippet runs every page will ask for), labs 0. ``on_page_markdown`` labs 50 (a lab page's Markdown
is made from its run), snippets 40 (notices for runs still going, under serve), claims 30 (checks
the page as written, the lab's values included), links 20 (the page's source, for broken links).
``on_page_content`` claims -50 (a claim's tooltip added after typeset has wrapped the page's
tokens). ``on_page_context`` typeset 100 and -100 (around the search plugin's indexing). ``on_post_build``
snippets 50 (figures written), editions 0 (every other edition built), links -50 (the whole site).
"""

from __future__ import annotations

import logging
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

log = logging.getLogger("mkdocs.plugins.handbook")


class Seam(BasePlugin):
    """What every handbook plugin does: find the others."""

    name = ""  # handbook/<name>

    def seam(self, config: Any, name: str, required: bool = True) -> Any:
        """The edition's ``handbook/<name>`` plugin, or None if it is absent or off. A required
        one that is absent or off stops the build, naming both plugins."""
        plugin = config.plugins.get(f"handbook/{name}")
        if plugin is not None and plugin.config.enabled:
            return plugin
        if required and self.config.enabled:
            raise PluginError(f"handbook/{self.name} needs handbook/{name}: list it in plugins, enabled, "
                              f"or turn handbook/{self.name} off ({'it is off' if plugin else 'it is not listed'})")
        return None

    def core(self, config: Any) -> Any:
        """The edition's ``handbook/editions``: its language, words and shared runs, which every
        seam reads even where the other editions are off."""
        editions = config.plugins.get("handbook/editions")
        if editions is None:
            raise PluginError(f"handbook/{self.name} needs handbook/editions (the edition's language, words "
                              "and runs): list it in plugins")
        return editions


def page_source(page: Any, editions: Any, labs: Any, lang: str | None) -> tuple[str, str]:
    """A page's source as messages name it (``docs/causal.md``, ``labs/causal.py``) and its text:
    a chapter's file as the editor shows it (line numbers match), a lab's text in ``lang`` (every
    language's, with None)."""
    from pathlib import Path

    lab = labs.lab_source(page, lang) if labs is not None else None
    return lab or (f"{editions.docs}/{page.file.src_uri}", Path(page.file.abs_src_path).read_text(encoding="utf-8"))


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


def walk(items: list[Any]) -> Any:
    for item in items:
        yield item
        yield from walk(getattr(item, "children", None) or [])


def in_order(nav: Any) -> Any:
    """``nav`` with its pages, and each page's previous and next, in the reading order of its
    items again (after pages were added to them)."""
    from mkdocs.structure.pages import Page

    nav.pages = [i for i in walk(nav.items) if isinstance(i, Page)]
    for before, after in zip([None, *nav.pages], [*nav.pages, None]):
        if before is not None:
            before.next_page = after
        if after is not None:
            after.previous_page = before
    return nav
