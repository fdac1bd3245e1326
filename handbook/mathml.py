"""TeX to MathML at build time, so formulas render with no script and no network at read time.

pymdownx.arithmatex (generic mode) marks the TeX of chapters and labs alike; this is the one place
that turns it into MathML.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert

_SPAN = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>', re.S)


# A minus that starts a group or follows an operator or opening bracket is unary: no operator space.
_UNARY = re.compile(r"(<mrow>|<mo(?: [^>]*)?>(?!&#x00029;|&#x0005D;|&#x0007D;)[^<]*</mo>)<mo>&#x02212;</mo>")
# A named function right before its parenthesis: no space between name and bracket.
_FUNCTION = re.compile(r'<mo>([A-Za-z]+)</mo>(?=<mo stretchy="false">&#x00028;|<mrow><mo [^>]*>&#x00028;)')
# A prime is drawn by the font at the right height: not shrunk again as a superscript.
_PRIME = re.compile(r"<msup>(<mi>[^<]*</mi>)<mi>&#x02032;</mi></msup>")


def _limits_below(text: str, display: bool) -> str:
    """``\\lim_{…}``: latex2mathml writes msub (limits at the side); an munder puts them below in a
    display formula (and, movable, at the side in running text, as TeX does)."""
    opening = "<msub><mo>lim</mo>"
    start = text.find(opening)
    while start >= 0:
        depth, at = 1, start + len(opening)
        for tag in re.finditer(r"<(/?)msub>", text[at:]):
            depth += -1 if tag[1] else 1
            if not depth:
                end = at + tag.start()
                break
        else:
            return text
        text = (f"{text[:start]}<munder><mo movablelimits=\"{'true' if not display else 'false'}\">lim</mo>"
                f"{text[at:end]}</munder>{text[end + len('</msub>'):]}")
        start = text.find(opening)
    return text


def tex_to_mathml(tex: str, display: bool) -> str:
    """One formula as a ``<math>`` element; ∞ is a symbol, not an operator; a unary minus, a function
    name before its bracket, primes and limits are set as TeX sets them."""
    text = convert(tex.strip(), display="block" if display else "inline")
    text = text.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")
    text = _UNARY.sub(r'\1<mo form="prefix" lspace="0" rspace="0">&#x02212;</mo>', text)
    text = _FUNCTION.sub(r'<mo lspace="0" rspace="0">\1</mo>', text)
    text = _PRIME.sub(r'\1<mo lspace="0" rspace="0">&#x02032;</mo>', text)
    return _limits_below(text, display)


def mathml(page_html: str) -> str:
    """Replace arithmatex's TeX spans in a page's HTML with MathML."""
    return _SPAN.sub(lambda m: tex_to_mathml(html.unescape(m["tex"]), m["open"] == "["), page_html)
