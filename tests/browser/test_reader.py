"""What a reader meets on a phone and in the search: named header buttons, readable search
previews, and figures a reader can move (a slider over frames rendered at build time); with a
keyboard: focus that shows, and Tab stops that are there; Korean set as Korean outside the article
too; and the 404 page wherever the site is served."""

from urllib.parse import parse_qs, quote, urlsplit

import pytest
from browsing import PHONE, type_korean

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(base, browser):
    """The home page on a phone: the lightest page, with the header every page has."""
    page = browser.new_page(viewport=PHONE)
    problems = []
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.goto(base, wait_until="networkidle")
    yield page, problems
    page.close()


@pytest.mark.parametrize("key", ["Enter", " "])
@pytest.mark.parametrize(("name", "toggle"), [("메뉴 열기", "__drawer"), ("검색 열기", "__search")])
def test_header_icons_are_named_buttons_a_keyboard_works(phone, name, toggle, key):
    page, problems = phone
    button = page.get_by_role("button", name=name, exact=True)
    # Material shows the search icon once its script has run (a "no-js" page hides it): on one busy
    # core that came after the load event, and a check made at once found no button (a taskset -c 0 run).
    button.first.wait_for(state="visible")
    assert button.count() == 1
    assert button.get_attribute("for") == toggle
    button.focus()
    page.keyboard.press(key)  # as a keyboard user opens it
    assert page.locator(f"#{toggle}").is_checked()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def searching(base, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base, wait_until="networkidle")
    yield page
    page.close()


def search(page, term: str) -> str:
    """The results' text for ``term``, entered as an input method enters it."""
    box = page.locator("input.md-search__input")
    box.fill("")
    box.focus()
    type_korean(page, term)
    results = page.locator(".md-search-result__list")
    page.locator(f'.md-search-result__item a[href*="h={quote(term)}"]').first.wait_for()
    return results.inner_text()


@pytest.mark.parametrize(("term", "shown"), [("나뉘는지", "1, 1/2, 1/3, 1/4")])
def test_search_previews_read_formulas_as_text(searching, term, shown):
    text = search(searching, term)
    assert shown in text  # not "1,12,13,14": MathML's numbers run together
    assert "¶" not in text  # no permalink sign from the headings


def test_labs_come_after_every_chapter_in_search(searching):
    """A lab's heading ("세 단계: tril, masked_fill, softmax") no longer outranks chapters."""
    search(searching, "softmax")
    pages = [urlsplit(a.get_attribute("href")).path
             for a in searching.locator(".md-search-result__item > a").all()]
    labs = [i for i, p in enumerate(pages) if "/labs/" in p]
    assert pages[0].endswith("/softmax/"), pages
    assert not labs or min(labs) > max(i for i, p in enumerate(pages) if "/labs/" not in p), pages


# Figures a reader can move: chapter, the slider's name, its first and last frames.
FRAMES = [("softmax/", "온도 τ", "τ = 0.1", "τ = 20"), ("scaling/", "dₖ", "dₖ = 4", "dₖ = 1024")]


def shown_alt(block) -> str:
    images = block.locator("img:visible")
    assert images.count() == 1
    return images.get_attribute("alt")


@pytest.mark.parametrize(("chapter", "name", "first", "last"), FRAMES)
def test_a_slider_moves_the_figure_by_keyboard(base, browser, chapter, name, first, last):
    page = browser.new_page(viewport=PHONE)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + chapter, wait_until="networkidle")
    block = page.locator(".frames")
    images = block.locator("img")
    loaded = "els => els.filter(e => e.complete && e.naturalWidth > 0).length"
    assert images.evaluate_all(loaded) == 0  # lazy: nothing fetched before the reader comes near
    slider = page.get_by_role("slider", name=name, exact=True)
    slider.scroll_into_view_if_needed()
    assert slider.get_attribute("aria-valuetext") == first
    assert first.split(" = ")[1] in shown_alt(block)
    slider.focus()
    page.keyboard.press("ArrowRight")
    second = slider.get_attribute("aria-valuetext")
    assert second not in (first, last) and second.split(" = ")[1] in shown_alt(block)
    page.keyboard.press("End")
    assert slider.get_attribute("aria-valuetext") == last
    assert last.split(" = ")[1] in shown_alt(block)
    assert block.get_by_role("tab").count() == 0 or not block.locator(".tabbed-labels").is_visible()
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("chapter", "name", "first", "last"), FRAMES)
def test_without_script_every_frame_is_a_tab(base, browser, chapter, name, first, last):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(base + chapter)
    block = page.locator(".frames")
    assert block.locator(".tabbed-labels > label").first.text_content().strip() == first
    # The label's own activation (it checks its radio, no script needed). Not a pointer click: on a
    # phone the row of labels scrolls sideways, and a busy machine was seen to leave the last label
    # under its neighbour for the whole 30 s a click waits.
    block.locator(".tabbed-labels > label", has_text=last).dispatch_event("click")
    assert last.split(" = ")[1] in shown_alt(block)
    context.close()


def enter(page, term: str) -> None:
    """``term`` typed into the focused search box: Hangul as an input method enters it, other
    words as keys (Material reads the query on keyup)."""
    if any("가" <= ch <= "힣" for ch in term):
        type_korean(page, term)
    else:
        page.keyboard.type(term)


def material_ran(page) -> None:
    """Material's bundle (deferred) has run: it sets window.component$ last."""
    page.wait_for_function("() => window.component$ !== undefined")


# A word and, in each edition, the chapter whose title holds it: it comes before the chapters that
# have only a section about it (기울기 listed pitfalls first and the gradients chapter third;
# "gradient", Scaling first), and the previews read as prose.
TITLED = [("", "기울기", "gradients/"), ("en/", "gradient", "en/gradients/")]


@pytest.mark.parametrize(("edition", "term", "chapter"), TITLED)
def test_search_lists_the_chapter_titled_with_the_word_first_and_its_previews_read_as_prose(
        base, browser, edition, term, chapter):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + edition, wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.focus()
    enter(page, term)
    page.locator(f'.md-search-result__item a[href*="h={quote(term)}"]').first.wait_for()
    links = [a.get_attribute("href") for a in page.locator(".md-search-result__item a").all()]
    assert urlsplit(links[0]).path == urlsplit(base + chapter).path, links[:3]
    # A page that only its sections matched is linked without an empty ?h= (pitfalls, glossary).
    empty = [h for h in links if parse_qs(urlsplit(h).query, keep_blank_values=True).get("h") == [""]]
    assert not empty, empty
    text = page.locator(".md-search-result__list").text_content()
    # The scaling chapter's section on gradients says its gradients stay below 10⁻⁶.
    assert "10⁻⁶" in text and "√dₖ" in text, text[:300]
    assert "^(−6)" not in text and "√(d_k)" not in text
    # No code listing or terminal output in a preview: code is found, not shown.
    assert page.locator(".md-search-result__list pre").count() == 0
    page.close()


@pytest.mark.parametrize(("edition", "term", "chapter"), TITLED)
def test_the_search_index_loads_when_search_is_first_used(base, browser, edition, term, chapter):
    """A first visit does not fetch the index (a quarter of a megabyte gzip, most of the visit):
    the search shortcut does, and the search then works."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    asked = []
    page.on("request", lambda r: "search_index.json" in r.url and asked.append(r.url))
    page.goto(base + edition + "softmax/", wait_until="networkidle")
    material_ran(page)
    assert not asked, asked
    with page.expect_response(lambda r: r.url.endswith(f"{edition}search/search_index.json")) as index:
        page.keyboard.press("/")  # Material's shortcut: the search box takes focus
    assert index.value.ok
    enter(page, term)
    page.locator(f'.md-search-result__item a[href*="h={quote(term)}"]').first.wait_for()
    assert page.locator(".md-search-result__item").count() > 1
    page.close()


# Keyboard focus a reader can see. A ring: around the focused control, on all four sides, the
# pixels change at 3:1 or more against what they were without focus (WCAG 2.4.11's contrast for a
# focus indicator), so a colour change of the control's own text or of one underline is not one.
RING = 3.0


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def luminance(rgb):
        c = [v / 255 for v in rgb[:3]]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


SETTLE = """async ([scroll, measure]) => {
  // scroll to it until it stays put: blocks around it are laid out as they come near the screen
  // (content-visibility), and their real heights move it; then where the other element lies
  const frame = () => new Promise(go => requestAnimationFrame(() => requestAnimationFrame(go)));
  let top = null;
  for (let i = 0; i < 50; i++) {
    document.querySelector(scroll).scrollIntoView({block: 'center', behavior: 'instant'});
    await frame();
    const now = document.querySelector(scroll).getBoundingClientRect().top;
    if (now === top) break;
    top = now;
  }
  const r = document.querySelector(measure).getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
}"""


def _settle(page, scroll: str, measure: str) -> dict:
    """``measure``'s box once ``scroll`` is in the middle of the screen and stays there."""
    return page.evaluate(SETTLE, [scroll, measure])


def _ring_sides(page, focus: str, ring: str) -> dict[str, float]:
    """Focus ``focus`` as a keyboard does and say, for each side of ``ring`` (the element that shows
    the focus: the control itself, or the label of a hidden radio), which share of its length has a
    pixel within a few pixels of the edge that changed at ``RING`` or more."""
    import io

    from PIL import Image

    page.evaluate("() => document.activeElement?.blur()")
    box = _settle(page, focus, ring)
    pad = 6
    clip = {"x": box["x"] - pad, "y": box["y"] - pad, "width": box["width"] + 2 * pad, "height": box["height"] + 2 * pad}
    before = page.screenshot(clip=clip, animations="disabled")
    page.keyboard.press("Shift")  # a keyboard in use: the focus that follows is keyboard focus
    page.locator(focus).first.focus()
    page.wait_for_function("(s) => document.activeElement === document.querySelector(s)", arg=focus)
    page.evaluate("() => new Promise(go => requestAnimationFrame(() => requestAnimationFrame(go)))")
    after = page.screenshot(clip=clip, animations="disabled")
    a, b = (Image.open(io.BytesIO(png)).convert("RGB") for png in (before, after))
    w, h = a.size
    near = range(-pad + 1, pad - 1)  # from just outside the edge to just inside it

    def changed(x, y):
        return 0 <= x < w and 0 <= y < h and _contrast(a.getpixel((x, y)), b.getpixel((x, y))) >= RING

    inner_x, inner_y = range(pad + 2, w - pad - 2), range(pad + 2, h - pad - 2)
    sides = {
        "top": [any(changed(x, pad + d) for d in near) for x in inner_x],
        "bottom": [any(changed(x, h - pad - 1 + d) for d in near) for x in inner_x],
        "left": [any(changed(pad + d, y) for d in near) for y in inner_y],
        "right": [any(changed(w - pad - 1 + d, y) for d in near) for y in inner_y],
    }
    return {side: sum(hits) / max(len(hits), 1) for side, hits in sides.items()}


# What a keyboard reaches, and the element that shows its focus: a figure's slider; the palette
# toggle (Tab reaches the first of its hidden radios, none of them checked; the label on show is
# the toggle, whichever palette is on); a result/terminal tab (Tab reaches the checked radio of
# the set, shown by its label).
FOCUS = [
    ("scaling/", ".frames__control input", ".frames__control input"),
    ("", "form[data-md-component=palette] input", "form[data-md-component=palette] label:not([hidden])"),
    ("softmax/", "article .tabbed-set > input:checked", "article .tabbed-set > input:checked ~ .tabbed-labels > label:first-child"),
    ("causal/", "article code[data-claim]", "article code[data-claim]"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("path", "focus", "ring"), FOCUS, ids=["slider", "palette", "tab", "claim"])
def test_keyboard_focus_shows_a_ring(base, browser, path, focus, ring, scheme):
    page = browser.new_page(viewport={"width": 1366, "height": 900}, color_scheme=scheme)
    page.goto(base + path, wait_until="networkidle")
    wanted = {"light": "default", "dark": "slate"}[scheme]
    page.wait_for_function("(s) => document.body.getAttribute('data-md-color-scheme') === s", arg=wanted)
    sides = _ring_sides(page, focus, ring)
    page.close()
    assert min(sides.values()) >= 0.8, f"{path} {focus} in {scheme}: share of each side ringed {sides}"


@pytest.mark.parametrize(("path", "lang"), [("causal/", "ko"), ("en/causal/", "en")])
def test_a_checked_number_shows_its_snippet_and_expression_on_focus_and_hover(base, browser, path, lang):
    """A claimed number says where its value comes from: on keyboard focus and on hover a tooltip
    shows the snippet and expression, which a screen reader reads as the number's description; it
    is hidden otherwise, and never widens a phone's page."""
    from project import WORDS

    page = browser.new_page(viewport=PHONE)
    page.goto(base + path, wait_until="networkidle")
    first, second = (page.locator("article code[data-claim]").nth(n) for n in (0, 1))

    def tip(claim):
        return page.locator("#" + claim.get_attribute("aria-describedby"))

    assert first.get_attribute("tabindex") == "0" and not tip(first).is_visible() and not tip(second).is_visible()
    page.keyboard.press("Shift")  # a keyboard in use
    first.focus()
    expected = f"{WORDS[lang]['claim source']} {first.get_attribute('data-claim')}"
    shown = tip(first).inner_text(), page.evaluate("innerWidth - document.documentElement.scrollWidth")
    described = page.evaluate("(e) => document.getElementById(e.getAttribute('aria-describedby')).textContent",
                              first.element_handle())
    first.evaluate("(e) => e.blur()")
    second.hover()
    hovered = tip(second).is_visible(), tip(first).is_visible()
    page.close()
    assert shown == (expected, 0) and described == expected
    assert hovered == (True, False)


@pytest.mark.parametrize("path", ["padding/", "en/padding/"])
def test_a_claim_in_a_table_that_scrolls_sideways_shows_its_whole_tooltip_on_a_phone(base, browser, path):
    """The padding chapter's summary table is wider than a phone's column and scrolls in its own box:
    the tooltip of its last claim (bottom row, right of the column) was cut off at the table's edges.
    Each corner of the shown tooltip must be the tooltip's own pixel (hit testing honours clipping)."""
    page = browser.new_page(viewport=PHONE)
    page.goto(base + path, wait_until="networkidle")
    claim = page.locator("article td code[data-claim]").last
    claim.focus()
    corners = page.evaluate("""(claim) => {
      const tip = document.getElementById(claim.getAttribute('aria-describedby'));
      tip.style.pointerEvents = 'auto';
      const r = tip.getBoundingClientRect(), inset = 3;
      return [[r.left + inset, r.top + inset], [r.right - inset, r.top + inset], [r.left + inset, r.bottom - inset],
              [r.right - inset, r.bottom - inset]].map(([x, y]) => {
        const e = document.elementFromPoint(x, y); return !!e && tip.contains(e); });
    }""", claim.element_handle())
    wide = page.evaluate("innerWidth - document.documentElement.scrollWidth")
    page.close()
    assert corners == [True] * 4 and wide == 0, (corners, wide)


def test_the_closed_search_results_are_not_a_tab_stop(base, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base, wait_until="networkidle")
    page.locator("input.md-search__input").focus()
    page.keyboard.press("Tab")
    reached = page.evaluate("""() => { const e = document.activeElement, r = e.getBoundingClientRect();
      return [e.className, r.width * r.height]; }""")
    page.close()
    assert reached[1] > 0, f"Tab after the search field reached an invisible {reached[0]!r}"


def test_tab_never_lands_on_the_page_itself(base, browser):
    """Tab through a long chapter, as a keyboard reader reads it: every stop is an element, never
    <body> (a table that stops being a scroll box as it is first laid out lost its focus)."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + "scaling/", wait_until="networkidle")
    page.locator(".md-footer a").last.wait_for(state="attached")
    stops = []
    for _ in range(2000):  # far more stops than a chapter has: only a focus that never moves on reaches it
        page.keyboard.press("Tab")
        stop, at_end = page.evaluate("""() => { const e = document.activeElement, links = document.querySelectorAll('.md-footer a');
          return [e === document.body ? 'BODY' : `${e.tagName.toLowerCase()}.${e.className} ${(e.textContent || '').trim().slice(0, 30)}`,
                  e === links[links.length - 1]]; }""")  # one round trip a stop: a chapter has hundreds
        if stop == "BODY":
            page.close()
            raise AssertionError(f"Tab {len(stops) + 1} landed on <body>, after {stops[-1] if stops else 'the start'!r}")
        stops.append(stop)
        if at_end:  # the footer's last link: the whole page went by
            break
    page.close()
    assert len(stops) > 50  # the whole chapter: header, navigation, article, footer


# Korean outside the article: words whole in the navigation, the table of contents, the header and
# the footer ("저장하나" in flex's contents, "받나" and "칸은" in adding's split across lines).
WHOLE_WORDS = """(selector) => {
  const broken = [];
  for (const part of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      for (const word of node.data.matchAll(/[\\uac00-\\ud7a3]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const bottoms = [...range.getClientRects()].filter(r => r.width).map(r => r.bottom);
        if (bottoms.length && Math.max(...bottoms) - Math.min(...bottoms) > 5) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("path", ["adding/", "flex/"])
def test_korean_words_stay_whole_outside_the_article(base, browser, path):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + path, wait_until="networkidle")
    broken = page.evaluate(WHOLE_WORDS, ".md-sidebar, .md-header, .md-footer")
    page.close()
    assert not broken, f"/{path}: Korean words split across lines: {broken}"


def test_korean_captions_are_upright(base, browser):
    """Hangul has no italic: a slanted caption is the browser's faux italic."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + "scaling/", wait_until="networkidle")
    styles = page.evaluate("() => [...document.querySelectorAll('article figcaption')].map(c => getComputedStyle(c).fontStyle)")
    page.close()
    assert styles and set(styles) == {"normal"}, styles


# The radical in "√dₖ" (a chapter's title, the navigation, a table's column title): from a font
# whose √ stands at least as tall as the d it covers; NanumGothic's is shorter (at 32 px, 20 px
# above the baseline against the d's 24), so "√dₖ" read as "⎷dₖ".
RADICAL = """async (selectors) => {
  const found = [];
  for (const selector of selectors) {
    const e = [...document.querySelectorAll(selector)].find(e => e.textContent.includes('√'));
    const cs = getComputedStyle(e), font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    await document.fonts.load(font, '√d');
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = font;
    found.push([selector, ctx.measureText('√').actualBoundingBoxAscent, ctx.measureText('d').actualBoundingBoxAscent]);
  }
  return found;
}"""


def test_the_radical_stands_over_what_it_covers(base, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + "scaling/", wait_until="networkidle")
    selectors = [".md-nav__link", "article h1", "article th"]
    # Each selector's first element with a radical, waited for (HANG_S, the page's default limit): on
    # one busy core (taskset -c 0 bash .ci/run) one was missing when the page was read at once.
    from playwright.sync_api import TimeoutError as Hung

    for selector in selectors:
        try:
            page.wait_for_function("s => [...document.querySelectorAll(s)].some(e => e.textContent.includes('√'))",
                                   arg=selector)
        except Hung:
            raise AssertionError(f"no {selector} with a radical ever appeared on {page.url} ({page.title()!r})") from None
    found = page.evaluate(RADICAL, selectors)
    page.close()
    short = [(where, round(root, 1), round(d, 1)) for where, root, d in found if root < d]
    assert len(found) == 3 and not short, short


@pytest.fixture(scope="module")
def unset_site_url(tmp_path_factory):
    """A small copy of the project built as a local build or a fork's is: no SITE_URL (a plain
    build: the small copy's home links to chapters it lacks)."""
    import os
    import subprocess
    import sys

    from workspace import project_copy

    folder = tmp_path_factory.mktemp("no-site-url")
    small = project_copy(folder, pages=("index.md",))
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "REPO_URL")}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-d", str(folder / "site")],
                           cwd=small, env={**env, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    return folder / "site"


@pytest.mark.build
@pytest.mark.parametrize("missing", ["gone/", "gone.html", "en/labs/gone", "assets/gone/deeper/"])
def test_the_404_page_is_styled_under_a_sub_path_with_no_site_url(unset_site_url, browser, missing):
    """Served under a sub-path, as GitHub Pages serves a project site: the 404 page that any
    missing address gets loads its styles and scripts and links home."""
    from website import serve

    with serve(unset_site_url, "/fork/") as base:
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        failed = []
        page.on("response", lambda r: r.status >= 400 and r.url != base + missing and failed.append(f"{r.status} {r.url}"))
        page.on("requestfailed", lambda r: failed.append(f"failed {r.url}"))
        page.on("pageerror", lambda e: failed.append(f"script error: {e}"))
        response = page.goto(base + missing, wait_until="networkidle")
        page.screenshot(path=str(unset_site_url.parent / f"404-{missing.strip('/').replace('/', '_')}.png"))
        header = page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).backgroundColor")
        home = page.locator("a.md-header__button.md-logo").evaluate("a => a.href")
        page.close()
    assert response.status == 404
    assert not failed, failed
    assert header == "rgb(0, 105, 92)", header  # Material's styles and extra.css's header colour
    assert home == base
