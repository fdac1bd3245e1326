"""The theme's seam of the plugin: what Material's templates and search get (each page's words and
language switch, the search index read as text, named header buttons, long identifiers in the
navigation that break at their underscores, a 404 page that works wherever it is served, templates
compiled once while the plugin lives)."""

from __future__ import annotations

import re
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

from .editions import alternates
from .links import served_anywhere
from .mathml import math_as_text
from .search import refine

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


class Theme:
    """The plugin's theme events (HandbookPlugin inherits them)."""

    # The search plugin indexes page.content in its on_page_context; it reads each formula as its
    # text alternative ("1, 1/2, 1/3" where MathML's text runs together as "1,12,13"), and the
    # page is then rendered with the MathML again. The page's entries then get the fields of
    # handbook/search.py (the title weighed as the page's own, code out of the previews).
    @event_priority(100)
    def _search_reads_text(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        self._mathml, page.content = page.content, math_as_text(page.content or "")
        index = _search_index(config)
        self._indexed = len(index.entries) if index else 0
        return context

    @event_priority(-100)
    def _reader_sees_mathml(self, context: Any, *, page: Any, config: Any, **_: Any) -> Any:
        page.content = self._mathml
        index = _search_index(config)
        for entry in index.entries[self._indexed:] if index else []:  # the entries of this page
            refine(entry, page.url)
        # main.html's words, and the language switch to this same page in every edition
        context["words"] = self.words
        if self.config.editions:
            site_url = (self.site_url or "") if self.is_root else (self.root_site_url or "")
            context["alternates"] = alternates(self.config.editions, self.lang, page.url, site_url or None)
        return context

    on_page_context = CombinedEvent(_search_reads_text, _reader_sees_mathml)

    def on_env(self, env: Any, **_: Any) -> Any:
        """Templates compiled once a process: MkDocs makes a new Jinja environment each build,
        which compiled Material's 71 templates again on every `serve` rebuild (1.8 of 7.7
        profiled seconds of a prose edit's rebuild). Jinja checks each template's source
        against the cached code's checksum, so an edited template is compiled afresh."""
        env.bytecode_cache = self.shared.templates
        return env

    def on_template_context(self, context: Any, template_name: str, **_: Any) -> Any:
        context["words"] = self.words  # 404.html: main.html's words there too
        if template_name == "sitemap.xml" and self.config.editions:  # each page's other languages
            site_url = self.site_url if self.is_root else self.root_site_url
            context["alternates"] = lambda url: alternates(self.config.editions, self.lang, url, site_url)
        return context

    def on_post_template(self, output: str, template_name: str, config: Any) -> str:
        """404.html with no site_url: styled wherever it is served (links.served_anywhere)."""
        if template_name != "404.html" or config["site_url"]:
            return output
        top = {f.dest_uri.split("/")[0] for f in self.files} | set(list(self.config.editions)[1:] if self.is_root else [])
        return served_anywhere(output, top)

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        for label, word in HEADER_BUTTONS.items():
            name = self.words[word]
            if label not in output:
                raise PluginError(f"{page.file.src_uri}: Material's header has no {label} to name {name!r}")
            output = output.replace(label, f'{label[:-1]} role="button" tabindex="0" aria-label="{name}">')
        return break_long_names(output)


def _search_index(config: Any) -> Any:
    """Material's search index (its entries so far), or None without its search plugin."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    return getattr(search, "search_index", None)
