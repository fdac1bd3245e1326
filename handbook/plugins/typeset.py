"""``handbook/typeset``: how a page reads. TeX becomes MathML at build time (no script, readable
offline), and the search index reads each formula as its text; tokens that must not break keep
whole; long identifiers in the navigation break at their underscores; Material's header icons
become named buttons; and templates are compiled once while the plugin lives.

With ``enabled: false`` TeX stays as the Markdown left it, and the theme's output is Material's own."""

from __future__ import annotations

import re
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

from claimcheck.reveal import without_tips

from ..layout import keep_tokens_whole
from ..mathml import math_as_text, mathml, tex_as_text
from ..search import refine
from . import Seam

# Material's header icons are bare <label>s for its drawer and search toggles: no role, no name.
# Each becomes a named button that the keyboard reaches (main.html's script clicks it on Enter/Space).
HEADER_BUTTONS = {
    '<label class="md-header__button md-icon" for="__drawer">': "menu",
    '<label class="md-header__button md-icon" for="__search">': "search",
}

# The navigation and the table of contents are narrow (about 210 px at 1366 px): an identifier as
# long as "scaled_dot_product_attention" with its particle fills a line, and the browser broke it
# where it overflowed ("scaled_dot_product_attention" / "은"). One of LONG_NAME characters or more
# may break after each of its underscores instead.
LONG_NAME = 20
_NAV_LINK = re.compile(r'(<a\b[^>]*\bclass="md-nav__link\b[^"]*"[^>]*>)(.*?)(</a>)', re.S)
_TAG_OR_TEXT = re.compile(r"(<[^>]+>)")
_NAME = re.compile(r"[A-Za-z0-9.]*_[A-Za-z0-9_.]*")


def break_long_names(page_html: str) -> str:
    """``<wbr>`` after each underscore of a long identifier in a navigation link's text."""
    def name(match: re.Match) -> str:
        word = match[0]
        return re.sub(r"_(?=.)", "_<wbr>", word) if len(word) >= LONG_NAME else word

    def link(match: re.Match) -> str:
        pieces = _TAG_OR_TEXT.split(match[2])
        pieces[::2] = [_NAME.sub(name, text) for text in pieces[::2]]
        return match[1] + "".join(pieces) + match[3]

    return _NAV_LINK.sub(link, page_html)


class TypesetConfig(Config):
    enabled = c.Type(bool, default=True)


class TypesetPlugin(Seam):
    name = "typeset"
    config_class = TypesetConfig

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._mathml, self._indexed = "", 0  # a page's MathML while the search reads its text

    def on_config(self, config: Any) -> Any:
        self.editions = self.core(config)
        return config

    def on_page_content(self, html: str, page: Any, **_: Any) -> str:
        if not self.config.enabled:
            return html
        items = list(page.toc or [])
        while items:  # each heading's title in the table of contents, nested ones too
            item = items.pop()
            item.title = tex_as_text(item.title)
            items += item.children
        return keep_tokens_whole(mathml(html))

    # The search plugin indexes page.content in its on_page_context; it reads each formula as its
    # text alternative ("1, 1/2, 1/3" where MathML's text runs together as "1,12,13"), and the
    # page is then rendered with the MathML again. The page's entries then get the fields of
    # handbook/search.py (the title weighed as the page's own, code out of the previews).
    @event_priority(100)
    def _search_reads_text(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        if not self.config.enabled:
            return context
        # (a claim's tooltip, handbook/claims', is no text of the page's: not in the index)
        self._mathml, page.content = page.content, math_as_text(without_tips(page.content or ""))
        index = _search_index(config)
        self._indexed = len(index.entries) if index else 0
        return context

    @event_priority(-100)
    def _reader_sees_mathml(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        if not self.config.enabled:
            return context
        page.content = self._mathml
        index = _search_index(config)
        for entry in index.entries[self._indexed:] if index else []:  # the entries of this page
            refine(entry, page.url)
        return context

    on_page_context = CombinedEvent(_search_reads_text, _reader_sees_mathml)

    def on_env(self, env: Any, **_: Any) -> Any:
        """Templates compiled once a process: MkDocs makes a new Jinja environment each build,
        which compiled Material's 71 templates again on every `serve` rebuild (1.8 of 7.7
        profiled seconds of a prose edit's rebuild). Jinja checks each template's source
        against the cached code's checksum, so an edited template is compiled afresh."""
        if self.config.enabled:
            env.bytecode_cache = self.editions.shared.templates
        return env

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        if not self.config.enabled:
            return output
        for label, word in HEADER_BUTTONS.items():
            name = self.editions.words[word]
            if label not in output:
                raise PluginError(f"{page.file.src_uri}: Material's header has no {label} to name {name!r}")
            output = output.replace(label, f'{label[:-1]} role="button" tabindex="0" aria-label="{name}">')
        return break_long_names(output)


def _search_index(config: Any) -> Any:
    """Material's search index (its entries so far), or None without its search plugin."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    return getattr(search, "search_index", None)
