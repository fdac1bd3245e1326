"""TeX to MathML at build time, so formulas render with no script and no network at read time.

pymdownx.arithmatex (generic mode) marks the TeX of chapters and labs alike; this is the one place
that turns it into MathML. Each formula also gets a one-line text alternative (its ``alttext``),
which the search index shows in place of the formula: ``1, 1/2, 1/3`` rather than ``1,12,13``, and
``10⁻⁶``, ``√dₖ`` rather than ``10^(−6)``, ``√(d_k)``.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

_SPAN = re.compile(r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>', re.S)
_MATH = re.compile(r'<math\b[^>]*\balttext="(?P<alt>[^"]*)"[^>]*>.*?</math>', re.S)
# Operators read with a space on each side; a comma or semicolon with one after.
_SPACED = set("=+−-<>≤≥≈≠×·→←↦∈∉⊂∝±∓")
_ACCENTS = {"^": "\u0302", "~": "\u0303", "¯": "\u0304", "‾": "\u0305", "˙": "\u0307", "→": "\u20d7"}
# A script written whole in these reads as one (10⁻⁶, dₖ, Kᵀ), not as 10^(−6), d_k; any other
# script keeps ^(…) and _(…).
_SUPER = dict(zip("0123456789+−=()abcdefghijklmnoprstuvwxyzαβγδθφχ⊤", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵅᵝᵞᵟᶿᵠᵡᵀ"))
_SUB = dict(zip("0123456789+−=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"))


def _linear(el: ET.Element, unary: bool = False) -> str:
    """A MathML element as one line of plain text: fractions as a/b, scripts as x_i and x^n."""
    tag = el.tag.rpartition("}")[2]
    kids = list(el)
    if tag in ("mi", "mn", "mtext", "ms"):
        text = el.text or ""
        return text + " " if tag == "mi" and len(text) > 1 and text.isalpha() else text  # log x
    if tag == "mo":
        op = (el.text or "").strip()
        if op in _SPACED:
            return op if unary else f" {op} "
        if op in (",", ";"):
            return f"{op} "
        return f"{op} " if op.isalpha() else op
    if tag == "mspace":
        return " "
    if tag == "mfrac" and len(kids) == 2:
        return f"{_group(kids[0])}/{_group(kids[1])}"
    if tag in ("msqrt", "mroot") and kids:
        return "√" + _group(kids[0])
    if tag == "mover" and len(kids) == 2 and el.get("accent") == "true":
        accent = _linear(kids[1]).strip()
        return _linear(kids[0]).strip() + _ACCENTS.get(accent, accent)
    if tag in ("msub", "munder", "msup", "mover", "msubsup", "munderover") and len(kids) in (2, 3):
        marks = ["^"] if tag in ("msup", "mover") else ["_", "^"]
        text = _linear(kids[0]).strip() + "".join(_script(m, k) for m, k in zip(marks, kids[1:]))
        big = _tag(kids[0]) == "mo" and _linear(kids[0]).strip() not in ")]}|"
        return text + " " if big else text  # ∑_j, lim_(…): what follows is its operand
    if tag == "mtable":
        return "; ".join(", ".join(_linear(cell) for cell in row) for row in kids)
    text, prev = "", None
    for k in kids:  # a minus first, or after an operator, is a sign: no spaces
        text += _linear(k, unary=prev is None or (prev == "mo" and not text.rstrip().endswith(")")))
        prev = _tag(k)
    return text


def _tag(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def _group(el: ET.Element) -> str:
    text = _linear(el).strip()
    return text if re.fullmatch(r"√?[^\W_]+|[\w.′⊤∞]", text) else f"({text})"


def _script(mark: str, el: ET.Element) -> str:
    """A superscript or subscript: in Unicode's script letters where it has them all, else ^x, _(…)."""
    text, chars = _linear(el).strip(), _SUPER if mark == "^" else _SUB
    if text and all(ch in chars for ch in text):
        return "".join(chars[ch] for ch in text)
    if mark == "^" and len(text) > 1:
        return f"^({text})"  # e^(zᵢ): what the exponent holds, bracketed
    return mark + _group(el)


def alt_text(math: str, tex: str) -> str:
    """The formula as a line of text, or its TeX if the MathML cannot be read."""
    try:
        text = _linear(ET.fromstring(math))
    except ET.ParseError:
        text = tex
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"(\w) \(", r"\1(", text)


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
    """One formula as a ``<math>`` element with an ``alttext`` (what search previews show); ∞ is a
    symbol, not an operator; a unary minus, a function name before its bracket, primes and limits
    are set as TeX sets them."""
    text = convert(tex.strip(), display="block" if display else "inline")
    text = text.replace("<mo>&#x0221E;</mo>", "<mi>&#x0221E;</mi>")
    alt = html.escape(alt_text(text, tex.strip()))
    text = _UNARY.sub(r'\1<mo form="prefix" lspace="0" rspace="0">&#x02212;</mo>', text)
    text = _FUNCTION.sub(r'<mo lspace="0" rspace="0">\1</mo>', text)
    text = _PRIME.sub(r'\1<mo lspace="0" rspace="0">&#x02032;</mo>', text)
    return _limits_below(text, display).replace("<math ", f'<math alttext="{alt}" ', 1)


# Where a display formula may break on a narrow screen: before a relation, and at a wide space
# between two statements (``\qquad``, ``\quad``), each at the top level (not in braces or brackets).
_RELATION = re.compile(r"=|<|>|\\(?:le|leq|ge|geq|approx|ne|neq|equiv)(?![A-Za-z])")
_GAP = re.compile(r",?\s*\\q?quad(?![A-Za-z])")
# A formula whose text alternative is this long may be wider than a phone's column (the shortest
# that was: `Q = XW_Q, K = X′W_K, V = X′W_V`, 32 characters); whether it is, the page decides.
_LONG = 28


def _top_level(tex: str, pattern: re.Pattern) -> list[re.Match]:
    depth, found, at = 0, [], 0
    for m in re.finditer(r"\\left\b|\\right\b|\\[{}]|[{}()\[\]]|" + pattern.pattern, tex):
        token = m[0]
        if token in ("{", "(", "[", "\\left"):
            depth += 1
        elif token in ("}", ")", "]", "\\right"):
            depth -= 1
        elif depth == 0 and pattern.fullmatch(token) and m.start() >= at:
            found.append(m)
            at = m.end()
    return found


def broken_tex(tex: str, sums: bool = False, stacked: bool = False) -> str | None:
    """``tex`` as rows of an array, broken before each top-level relation and at each wide space:
    ``a = b = c, \\qquad m = d`` becomes ``a = b``, ``= c,``, ``m = d``, aligned at the relations.
    With ``sums``, a side is broken again before each top-level plus, indented once more. Stacked
    (and where there is one relation only), each left side has a row of its own and the sides come
    under it, indented: ``a = b`` becomes ``a`` and ``= b``. None where there is nowhere to break."""
    statements, start = [], 0
    for gap in _top_level(tex, _GAP):
        statements.append(tex[start:gap.start()].strip() + ("," if gap[0].startswith(",") else ""))
        start = gap.end()
    statements.append(tex[start:].strip())
    split = []
    for statement in statements:
        cuts = [m.start() for m in _top_level(statement, _RELATION)]
        sides = [statement[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(statement)])]
        split.append([sides[0], *(_terms(side) if sums else [side] for side in sides[1:])])
    stacked = stacked or (len(split) == 1 and len(split[0]) == 2)
    rows = []
    for lhs, *sides in split:
        if stacked or not sides:
            rows.append(lhs if stacked else f"{lhs} &")
        for n, (first, *more) in enumerate(sides):
            if stacked:
                rows += [f"\\quad {{}} {first}", *(f"\\qquad {{}} {t}" for t in more)]
            else:
                rows += [f"{lhs if n == 0 else ''} & {{}} {first}".strip(), *(f"& \\quad {{}} {t}" for t in more)]
    if len(rows) < 2:
        return None
    return f"\\begin{{array}}{{{'l' if stacked else 'rl'}}} " + " \\\\ ".join(rows) + " \\end{array}"


def _terms(side: str) -> list[str]:
    """A side of a relation cut before each top-level plus (``= a + b`` -> ``= a``, ``+ b``)."""
    cuts = [m.start() for m in _top_level(side, re.compile(r"\+")) if side[:m.start()].strip() not in ("", "=")]
    return [side[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(side)])]


def _display(tex: str) -> str:
    """A display formula; a long one that can break comes with its broken forms beside it (aligned
    at its relations, broken at its sums too; then stacked, the same two ways), of which the page
    shows the first that fits its column where the formula is wider than that (main.html)."""
    whole = tex_to_mathml(tex, True)
    forms = []
    if len(html.unescape(_MATH.match(whole)["alt"])) >= _LONG:
        for stacked in (False, True):
            for sums in (False, True):
                form = broken_tex(tex.strip(), sums, stacked)
                if form is not None and form not in forms:
                    forms.append(form)
    if not forms:
        return whole
    rows = [tex_to_mathml(form, True).replace("<math ", '<math class="formula__rows" ', 1) for form in forms]
    rows = [re.sub(r' alttext="[^"]*"', "", r, count=1) for r in rows]  # one formula, one text alternative
    return f'<div class="formula">{whole}{"".join(rows)}</div>'


def mathml(page_html: str) -> str:
    """Replace arithmatex's TeX spans in a page's HTML with MathML."""
    def one(m: re.Match) -> str:
        tex = html.unescape(m["tex"])
        return _display(tex) if m["open"] == "[" else tex_to_mathml(tex, False)

    return _SPAN.sub(one, page_html)


_ROWS = re.compile(r'<math class="formula__rows".*?</math>', re.S)


def math_as_text(page_html: str) -> str:
    """A page's HTML with each formula as its text alternative: what the search index reads (a
    formula's broken form, the same formula again, not at all)."""
    return _MATH.sub(lambda m: f" {m['alt']} ", _ROWS.sub("", page_html))


_INLINE_TEX = re.compile(r"\\\((.+?)\\\)")


def tex_as_text(text: str) -> str:
    """Plain text with inline TeX left in it (a heading's title in a table of contents, where the
    toc extension strips arithmatex's span and keeps \\(4\\)), each formula as its text alternative."""
    return _INLINE_TEX.sub(lambda m: math_as_text(tex_to_mathml(html.unescape(m[1]), False)).strip(), text)
