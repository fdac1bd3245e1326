"""TeX to MathML at build time, so formulas render with no script and no network at read time.

pymdownx.arithmatex (generic mode) marks the TeX of chapters and labs alike; this is the one place
that turns it into MathML.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert

_SPAN = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>', re.S)


def tex_to_mathml(tex: str, display: bool) -> str:
    """One formula as a ``<math>`` element; ∞ is a symbol, not an operator."""
    text = convert(tex.strip(), display="block" if display else "inline")
    return text.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")


def mathml(page_html: str) -> str:
    """Replace arithmatex's TeX spans in a page's HTML with MathML."""
    return _SPAN.sub(lambda m: tex_to_mathml(html.unescape(m["tex"]), m["open"] == "["), page_html)
