"""Small marks on a page's HTML for how it lays out in the browser.

A number, identifier or path (a code span or table cell with no space in it) never breaks across
lines: Chromium would break "-inf" after its hyphen and "2.225e-308" inside, on a phone. Such
elements get the class ``nobreak`` (extra.css: ``white-space: nowrap``); a table that grows too
wide for the column scrolls in its own box instead.
"""

from __future__ import annotations

import re

_ELEMENT = re.compile(r"<(?P<tag>code|td|th)(?P<attrs>(?:\s[^>]*)?)>(?P<body>(?:(?!<(?:code|td|th)[\s>]).)*?)</(?P=tag)>", re.S)
_TAGS = re.compile(r"<[^>]+>")


def _mark(match: re.Match) -> str:
    body, attrs = match["body"], match["attrs"]
    text = _TAGS.sub("", body)
    if not text.strip() or re.search(r"\s", text) or "<math" in body or "class=" in attrs:
        return match[0]
    return f'<{match["tag"]}{attrs} class="nobreak">{body}</{match["tag"]}>'


def keep_tokens_whole(page_html: str) -> str:
    """Mark code spans and table cells that hold one token (no whitespace) ``class="nobreak"``."""
    return _ELEMENT.sub(_mark, page_html)
