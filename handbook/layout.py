"""Small marks on a page's HTML for how it lays out in the browser.

A number, identifier or path (a code span or table cell with no space in it) never breaks across
lines: Chromium would break "-inf" after its hyphen and "2.225e-308" inside, on a phone. Such
elements get the class ``nobreak`` (extra.css: ``white-space: nowrap``); a table that grows too
wide for the column scrolls in its own box instead.

In tables, values with spaces too: a short code span, a bracketed value ("bool (4, 4)" broke as
"bool (4," / "4)") and a word with a hyphen or slash ("-inf 그대로" broke after "-") stay whole;
the cell breaks at its other spaces.
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
    """Mark code spans and table cells that hold one token (no whitespace) ``class="nobreak"``,
    then keep table cells whole as ``keep_cells_whole`` does."""
    return keep_cells_whole(_ELEMENT.sub(_mark, page_html))


# In a table cell, what stays on one line: a code span of at most SHORT_CODE characters, a
# bracketed value of at most SHORT_GROUP with the word it is glued to ("(4, 4)", "[nan, nan, 0]",
# "softmax(S + M)와"; words in brackets, "(점수를 돌려받으면 0)", "(written by hand)", still
# break), a word with a hyphen or slash in it ("-inf", "0/-inf", "bool/float"), which Chromium
# breaks after its "-" or "/", and an "=" with the word after it ("True = 가림" breaks as "True" /
# "= 가림", not "True =" / "가림" or, in a narrow column, one word a line). The cell breaks at its
# other spaces. A formula keeps the brackets it sits in, and the word glued to them ("인과 (" /
# "L_Q < L_K)" broke apis' column title).
SHORT_CODE, SHORT_GROUP = 40, 24
_CELL = re.compile(r"<(?P<tag>td|th)(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</(?P=tag)>", re.S)
_CODE = re.compile(r"<code(?P<attrs>(?:\s[^>]*)?)>(?P<body>(?:(?!</?code[\s>]).)*?)</code>", re.S)
_PIECES = re.compile(r"(<math\b.*?</math>|<code\b.*?</code>|<[^>]+>)", re.S)
_BRACKETED_MATH = re.compile(r"(?P<open>[^\s<>()\[\]]*[(\[])?(?P<math><math\b.*?</math>)(?P<close>[)\]][^\s<>]*)?", re.S)
_HANGUL = re.compile("[\uac00-\ud7a3]")
_PROSE = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")
_WORD = re.compile(r"(?<!\S)\S*[-/]\S*")
_WHOLE = re.compile(r"(?P<group>[^\s(\[]*[(\[][^()\[\]]*[)\]]\S*)|(?<!\S)(?P<word>(?:= )?\S*[-/]\S*|= \S+)")


def _text(body: str) -> str:
    import html

    return html.unescape(_TAGS.sub("", body)).strip()


def _whole(match: re.Match) -> str:
    group = match["group"]
    if group is not None:
        if not is_value(group):  # words in brackets: only the hyphenated or slashed words whole
            return _WORD.sub(r'<span class="nobreak">\g<0></span>', group)
    return f'<span class="nobreak">{match[0]}</span>'


def is_value(group: str) -> bool:
    """A bracketed value or formula, not words in brackets: short, and between its brackets no
    Hangul and no two words side by side."""
    inside = group[min(i for i in (group.find("("), group.find("["), len(group)) if i >= 0):
                   max(group.rfind(")"), group.rfind("]")) + 1]
    return len(group) <= SHORT_GROUP and not _HANGUL.search(inside) and not _PROSE.search(inside)


def _table_cell(match: re.Match) -> str:
    tag, attrs, body = match["tag"], match["attrs"], match["body"]
    if "class=" in attrs:  # one token, marked already
        return match[0]
    body = _CODE.sub(lambda m: f'<code{m["attrs"]} class="nobreak">{m["body"]}</code>'
                     if "class=" not in m["attrs"] and len(_text(m["body"])) <= SHORT_CODE else m[0], body)
    body = _BRACKETED_MATH.sub(lambda m: f'<span class="nobreak">{m[0]}</span>' if m["open"] or m["close"] else m[0], body)
    pieces = _PIECES.split(body)  # text, then a tag, a formula or a code span, in turn
    pieces[::2] = [_WHOLE.sub(_whole, text) for text in pieces[::2]]
    return f"<{tag}{attrs}>{''.join(pieces)}</{tag}>"


def keep_cells_whole(page_html: str) -> str:
    """Table cells: short code spans, bracketed values and formulas, and hyphenated words each on one line."""
    return _CELL.sub(_table_cell, page_html)
