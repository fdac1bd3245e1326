"""Layout in a real browser, on a phone (390 px) and a laptop (1366 px): nothing scrolls the page
sideways, tokens never break inside, tables and figures stay readable. Every page's visit
(test_browser.py) loads it at the laptop's width, checks that code fits 88 columns there, then
resizes it to the phone's and checks it there (CHECK_PHONE); here the chapters with figures are
also loaded at the phone's width from the start, and checked the same way. The wide tables fit a
laptop, table cells break only between words, and a phone's copy buttons cover no code."""

import pytest
from browsing import CHECK_PHONE, PHONE
from browsing import VIEWPORT as LAPTOP

pytestmark = pytest.mark.browser

RENDER_ALL = "*, *::before, *::after { content-visibility: visible !important; }"

# Each chapter figure on show: its file (the phone copy where the page took it), its smallest text
# in CSS px as drawn, and how far it runs past its column.
FIGURE_FONTS = """async () => {
  const found = [];
  for (const img of document.querySelectorAll('article img.snippet-figure')) {
    if (!img.closest('picture') && img.closest('p')) continue;  // a lab's PNG: it scrolls in its box
    if (!img.getBoundingClientRect().width) continue;  // a frame on a tab not open (the page without script)
    img.scrollIntoView();
    await img.decode();  // the file the page chose, loaded
    const svg = new DOMParser().parseFromString(await (await fetch(img.currentSrc)).text(), 'image/svg+xml');
    const width = svg.documentElement.viewBox.baseVal.width;
    // matplotlib draws text as glyph paths scaled by font size / 100
    const sizes = [...svg.querySelectorAll('g[transform*=scale]')]
      .map(g => +(/scale\\(([0-9.]+) -/.exec(g.getAttribute('transform')) || [0, 0])[1] * 100).filter(s => s > 0 && s < 50);
    const shown = img.getBoundingClientRect().width, column = img.closest('p, .tabbed-block').clientWidth;
    found.push([img.currentSrc.split('/').pop(), Math.min(...sizes) * shown / width, shown - column]);
  }
  return found;
}"""


def _page(browser, viewport, url, scheme="light"):
    page = browser.new_page(viewport=viewport, color_scheme=scheme)
    page.goto(url, wait_until="load")
    page.add_style_tag(content=RENDER_ALL)
    return page


@pytest.mark.parametrize("path", ["causal/", "padding/", "softmax/", "scaling/", "adding/", "online/"])
def test_a_page_opened_on_a_phone_fits_and_its_figure_text_is_at_least_9px(base, browser, path):
    page = _page(browser, PHONE, base + path)
    problems = page.evaluate(CHECK_PHONE)  # as the visit checks it resized (test_browser)
    sizes = page.evaluate(FIGURE_FONTS)
    page.close()
    assert not problems, problems
    _readable_and_fitting(sizes)


def _readable_and_fitting(sizes):
    assert sizes
    small = [(src, round(px, 1)) for src, px, _ in sizes if px < 9]
    assert not small, f"figure text under 9 px: {small}"
    wide = [(src, over) for src, _, over in sizes if over > 1]
    assert not wide, f"figures wider than their column (file, px over): {wide}"


# A smaller phone, and a width at which the wide figures alone take their phone copy.
@pytest.mark.parametrize("width", [360, 600])
@pytest.mark.parametrize("path", ["scaling/", "en/softmax/"])
def test_figures_fit_and_stay_readable_at_other_widths(base, browser, path, width):
    page = _page(browser, {"width": width, "height": 800}, base + path)
    sizes = page.evaluate(FIGURE_FONTS)
    taken = page.evaluate("() => [...document.querySelectorAll('article picture')].filter("
                          "p => p.querySelector('img').getBoundingClientRect().width).map("
                          "p => p.querySelector('img').currentSrc === p.querySelector('img').src)")
    page.close()
    _readable_and_fitting(sizes)
    assert taken and (not any(taken) if width == 360 else len(set(taken)) == 2), taken  # 600: some each way


def test_laptop_tables_are_comfortable(base, browser):
    page = _page(browser, LAPTOP, base + "exp/")
    sizes = page.evaluate("""() => [parseFloat(getComputedStyle(document.querySelector('article td')).fontSize),
      Math.min(...[...document.querySelectorAll('article td code')].map(c => parseFloat(getComputedStyle(c).fontSize)))]""")
    page.close()
    assert sizes[0] >= 14 and sizes[1] >= 13, sizes


def test_subscript_digits_come_from_a_font_that_draws_them(base, browser):
    page = _page(browser, LAPTOP, base + "softmax/")
    page.evaluate("""() => { const th = [...document.querySelectorAll('article th')].find(t => t.textContent.includes('z₁'));
      const probe = document.createElement('span'); probe.id = 'probe'; probe.textContent = '₁₂'; th.append(probe); }""")
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#probe"})["nodeId"]
    cdp.send("CSS.enable")
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    page.close()
    assert fonts and all("Nanum" not in f["familyName"] for f in fonts), fonts


def test_nav_and_headings_set_sqrt_dk_not_raw_tex(base, browser):
    page = _page(browser, LAPTOP, base + "scaling/")
    text = page.evaluate("() => document.querySelector('.md-nav').textContent + document.querySelector('article h1').textContent")
    page.close()
    assert "d_k" not in text and "√dₖ" in text


# The navigation and the table of contents break a link's text between words, or after an underscore
# of a long identifier (theme.break_long_names): never inside a word, nor between an identifier and
# its particle ("scaled_dot_product_attention" / "은" in padding's contents before).
NAV_WORDS = """() => {
  const broken = [];
  for (const link of document.querySelectorAll('a.md-nav__link')) {
    const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      for (const m of node.data.matchAll(/[^\\s_]+_?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.bottom))).size > 1)
          broken.push(`"${m[0]}" in "${link.textContent.trim()}"`);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("path", ["padding/", "apis/", "flex/", "en/padding/", "en/apis/"])
def test_navigation_links_break_between_words_or_after_an_underscore(base, browser, path, viewport):
    page = _page(browser, viewport, base + path)
    broken = page.evaluate(NAV_WORDS)
    page.close()
    assert not broken, broken[:10]


def _shadow(page, selector, width=12, off="background: none"):
    """How much the scroll hint changes the pixels just inside the right edge of the first element
    matching selector: a screenshot of that strip with and without the hint (the element's
    background, unless ``off`` says what else turns it off)."""
    import io

    from PIL import Image

    box = page.evaluate("""(s) => { const e = document.querySelector(s); e.scrollIntoView({block: 'center'});
      const r = e.getBoundingClientRect(); return [r.right, r.top, r.height]; }""", selector)
    clip = {"x": box[0] - width, "y": box[1], "width": width, "height": box[2]}
    shots = [page.screenshot(clip=clip)]
    style = page.add_style_tag(content=f"{selector} {{ {off} !important; }}")
    shots.append(page.screenshot(clip=clip))
    style.evaluate("e => e.remove()")  # the page as it was
    with_hint, without = ([v / 255 for v in Image.open(io.BytesIO(png)).convert("L").get_flattened_data()] for png in shots)
    return max(abs(a - b) for a, b in zip(with_hint, without))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_formula_cut_off_on_a_phone_shows_a_shadow_and_one_that_fits_does_not(base, browser, scheme):
    page = _page(browser, PHONE, base + "scaling/", scheme)
    # each formula whole, as the page without its script shows it (the script would show this
    # one's broken form: the next test)
    page.evaluate("() => document.querySelectorAll('.formula').forEach(f => f.replaceWith(f.firstElementChild))")
    cut = _shadow(page, "article math[display=block]")
    page.set_viewport_size(LAPTOP)  # the same page on a laptop, where the formula fits
    fits = _shadow(page, "article math[display=block]")
    page.close()
    assert cut > 0.05, "no shadow where the formula is cut off"
    assert fits < 0.01, "a shadow on a formula that fits"


SHOWN = """() => [...document.querySelectorAll('article .formula')].map(f => {
  const m = [...f.children].find(m => getComputedStyle(m).display !== 'none');
  return [f.firstElementChild.getAttribute('alttext'), m.classList.contains('formula__rows'), m.scrollWidth - m.clientWidth];
})"""
# Two frames, whatever they take: what the page does between frames (its observers, scroll-driven hints) has run.
FRAME = "() => new Promise(go => requestAnimationFrame(() => requestAnimationFrame(go)))"


@pytest.mark.parametrize("path", ["softmax/", "adding/", "en/online/"])
def test_a_long_formula_shows_its_rows_where_it_is_too_wide_and_itself_where_it_fits(base, browser, path):
    page = _page(browser, PHONE, base + path)
    page.evaluate(FRAME)  # the page's script measures between frames
    phone = page.evaluate(SHOWN)
    page.set_viewport_size(LAPTOP)
    page.evaluate(FRAME)
    laptop = page.evaluate(SHOWN)
    page.close()
    assert any(rows for _, rows, _ in phone), phone  # the longest formulas break on a phone
    assert not [(alt, over) for alt, _, over in phone + laptop if over > 1], (phone, laptop)  # and fit
    assert not any(rows for _, rows, _ in laptop), laptop  # a laptop has room for each whole


def test_a_table_cut_off_on_a_phone_shows_a_shadow(base, browser):
    page = _page(browser, PHONE, base + "cheatsheet/")
    cut = _shadow(page, "article .md-typeset__scrollwrap")
    page.close()
    assert cut > 0.05, "no shadow where the table is cut off"


# A figure box that scrolls on a phone: a lab's figure (a PNG its kernel drew has no phone copy).
FIGURE_BOXES = [("labs/scaling/", "article p:has(> img.snippet-figure)")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("path", "box"), FIGURE_BOXES)
def test_a_figure_cut_off_on_a_phone_shows_a_shadow_until_its_end(base, browser, path, box, scheme):
    page = _page(browser, PHONE, base + path, scheme)
    for each in page.locator(box).all():  # figures load as the reader scrolls to them
        each.scroll_into_view_if_needed()
    page.wait_for_function("(s) => [...document.querySelectorAll(s)].map(p => p.querySelector('img'))"
                           ".every(i => i.complete || !i.checkVisibility())", arg=box)  # not in a folded answer
    # the first box its figure runs past, as the one to check
    assert page.evaluate("""(s) => { const e = [...document.querySelectorAll(s)].find(e => e.scrollWidth > e.clientWidth);
      if (e) e.id = 'cut-figure'; return !!e; }""", box), "no figure is cut off"
    box = "#cut-figure"
    start = _shadow(page, box, off="border-image: none")
    page.evaluate("(s) => { const e = document.querySelector(s); e.scrollLeft = e.scrollWidth; }", box)
    # the scroll-driven hint follows on the next frame: wait for two, whatever they take
    page.evaluate(FRAME)
    end = _shadow(page, box, off="border-image: none")
    page.close()
    assert start > 0.05, "no shadow where the figure is cut off"
    assert end < 0.01, "a shadow at the figure's end"


def test_formulas_set_unary_minus_function_names_and_limits_as_tex_does(base, browser):
    page = _page(browser, LAPTOP, base + "softmax/")
    gaps = page.evaluate("""() => {
      const gap = (a, b) => b.getBoundingClientRect().left - a.getBoundingClientRect().right;
      const math = [...document.querySelectorAll('article math')];
      const minus = math.flatMap(m => [...m.querySelectorAll('mo')]).find(o => o.textContent === '\\u2212'
        && o.nextElementSibling && o.nextElementSibling.textContent === '\\u221e' && o.previousElementSibling
        && o.previousElementSibling.textContent === '\\u2192');
      const name = math.flatMap(m => [...m.querySelectorAll('mo')]).find(o => o.textContent === 'softmax'
        && o.nextElementSibling && o.nextElementSibling.textContent === '(');
      const lim = math.flatMap(m => [...m.querySelectorAll('mo')]).find(o => o.textContent === 'lim'
        && o.closest('math').getAttribute('display') === 'block');
      const limits = lim.nextElementSibling.getBoundingClientRect(), word = lim.getBoundingClientRect();
      return {minus: gap(minus, minus.nextElementSibling), name: gap(name, name.nextElementSibling),
              below: limits.top - word.bottom};
    }""")
    page.close()
    assert gaps["minus"] < 1.5 and gaps["name"] < 1.5 and gaps["below"] > -2, gaps


# Tables at a laptop's width (1366 px: a column of 866 px between the navigation and the contents):
# the widest ones fit whole, with no column crushed to a few syllables a line.
WIDE_TABLES = ["cheatsheet/", "flex/", "apis/", "en/cheatsheet/", "en/flex/", "en/apis/"]
TABLES_FIT = """() => [...document.querySelectorAll('article .md-typeset__scrollwrap')]
  .filter(w => w.scrollWidth > w.clientWidth + 1)
  .map(w => `${w.scrollWidth} px in ${w.clientWidth}: ${w.querySelector('tr').textContent.trim().replace(/\\s+/g, ' ').slice(0, 50)}`)"""
# How many lines the longest summary of the cheatsheet's index takes (its first table's second
# column: 6 lines in 126 px before, beside the functions' and files' columns).
TALLEST_CELL = """() => Math.max(...[...document.querySelector('article table').querySelectorAll('td:nth-child(2)')].map(td => {
  const range = document.createRange();
  range.selectNodeContents(td);  // lines: the boxes' middles, more than half a line apart (code's boxes are taller)
  const middles = [...range.getClientRects()].filter(r => r.width).map(r => (r.top + r.bottom) / 2).sort((a, b) => a - b);
  return middles.filter((m, i) => i === 0 || m - middles[i - 1] > 8).length;
}))"""


@pytest.mark.parametrize("path", WIDE_TABLES)
def test_wide_tables_fit_a_laptop(base, browser, path):
    page = _page(browser, LAPTOP, base + path)
    cut = page.evaluate(TABLES_FIT)
    lines = page.evaluate(TALLEST_CELL) if "cheatsheet" in path else 0
    page.close()
    assert not cut, cut
    assert lines <= 4, f"a summary in the cheatsheet's index takes {lines} lines"


# In a table cell, what handbook/layout.py keeps whole stays on one line, at a laptop's width and
# a phone's: a short code span, a bracketed value ("bool (4, / 4)" before) with the word it is glued
# to ("softmax(S / + M)와"), a word with a hyphen or slash ("-" / "inf" before), an "=" with the word
# after it ("True / = / 가림" in apis' narrow column), a formula with its brackets ("인과 (" / "L_Q < L_K)"
# in apis' column title). (A word with a hyphen inside words in brackets,
# "(0/-inf is inverted)", is not checked: the group passes it over.)
CELLS_WHOLE = """([shortCode, shortGroup]) => {
  const broken = [], oneLine = range => new Set([...range.getClientRects()].filter(r => r.width)
    .map(r => Math.round(r.bottom))).size <= 1;
  for (const cell of document.querySelectorAll('article td, article th')) {
    for (const code of cell.querySelectorAll('code')) {
      const range = document.createRange();
      range.selectNodeContents(code);
      if (code.textContent.trim().length <= shortCode && !oneLine(range)) broken.push(`code "${code.textContent.trim()}"`);
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      if (node.parentElement.closest('math, code')) continue;
      for (const m of node.data.matchAll(/(?<group>[^\\s(\\[]*[(\\[][^()\\[\\]]*[)\\]]\\S*)|(?<!\\S)(?<word>(?:= )?\\S*[-\\/]\\S*|= \\S+)/g)) {
        if (m.groups.group) {  // a value in brackets (layout.is_value), not words in brackets
          const inside = m[0].slice(m[0].search(/[(\\[]/), Math.max(m[0].lastIndexOf(')'), m[0].lastIndexOf(']')) + 1);
          if (m[0].length > shortGroup || /[\\uac00-\\ud7a3]/.test(inside) || /[A-Za-z]{2,}\\s+[A-Za-z]{2,}/.test(inside)) continue;
        }
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (!oneLine(range)) broken.push(`"${m[0]}" in "${cell.textContent.trim().slice(0, 40)}"`);
      }
    }
    for (const math of cell.querySelectorAll('math')) {  // a formula with the brackets it sits in
      const before = math.previousSibling, after = math.nextSibling, range = document.createRange();
      const open = before?.nodeType === Node.TEXT_NODE && /[(\\[]$/.test(before.data);
      const close = after?.nodeType === Node.TEXT_NODE && /^[)\\]]/.test(after.data);
      if (!open && !close) continue;
      open ? range.setStart(before, before.data.length - 1) : range.setStartBefore(math);
      close ? range.setEnd(after, 1) : range.setEndAfter(math);
      const middles = [...range.getClientRects()].filter(r => r.width).map(r => (r.top + r.bottom) / 2);
      if (Math.max(...middles) - Math.min(...middles) > 8)  // a formula's box reaches lower than the text's
        broken.push(`a formula apart from its bracket in "${cell.textContent.trim().slice(0, 40)}"`);
    }
  }
  return broken;
}"""
TOKEN_PAGES = ["padding/", "cheatsheet/", "apis/", "en/padding/", "en/cheatsheet/", "en/apis/"]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("path", TOKEN_PAGES)
def test_table_cells_break_only_between_words(base, browser, path, viewport):
    from handbook.layout import SHORT_CODE, SHORT_GROUP

    page = _page(browser, viewport, base + path)
    broken = page.evaluate(CELLS_WHOLE, [SHORT_CODE, SHORT_GROUP])
    page.close()
    assert not broken, broken[:10]


# Phones: a code block scrolls sideways, and its copy button covers none of its first line.
COPY_COVERS = """() => {
  const covered = [];
  for (const code of document.querySelectorAll('article pre > code')) {
    const button = code.parentElement.querySelector('button');
    if (!button || !button.offsetParent) continue;
    const b = button.getBoundingClientRect(), box = code.getBoundingClientRect();
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), range = document.createRange();
    let first = null, end = null;
    for (let node; (node = walker.nextNode());) {
      first = first || node;
      const i = node.data.indexOf('\\n');
      end = [node, i >= 0 ? i : node.data.length];
      if (i >= 0) break;
    }
    if (!first) continue;
    range.setStart(first, 0);
    range.setEnd(...end);
    if ([...range.getClientRects()].some(r => r.width && r.left < Math.min(b.right, box.right) && r.right > b.left
                                           && r.top < b.bottom && r.bottom > b.top))
      covered.push(code.textContent.split('\\n')[0].slice(0, 60));
  }
  return covered;
}"""


@pytest.mark.parametrize("path", ["softmax/", "together/", "padding/", "labs/softmax/", "en/together/"])
def test_the_copy_button_covers_no_code_on_a_phone(base, browser, path):
    page = _page(browser, PHONE, base + path)
    covered = page.evaluate(COPY_COVERS)
    page.close()
    assert not covered, covered
