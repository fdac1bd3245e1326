"""The built site in a real browser (Debian's Chromium driven by Playwright), served like GitHub Pages."""

import io
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import sync_playwright
from website import CHROMIUM, CHROMIUM_FLAGS, pages, serve

pytestmark = pytest.mark.browser

# Each key term must bring up its chapter first in the site search.
SEARCH = {
    "마스크": "causal/",  # the first chapter about masks
    "소프트맥스": "softmax/",
    "스케일링": "scaling/",
    "패딩": "padding/",
    "지수함수": "exp/",
    "용어집": "glossary/",
}


@pytest.fixture(scope="module")
def base(site):
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


def open_page(browser, url, problems, scheme="light"):
    page = browser.new_page(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page.on("console", lambda m: m.type == "error" and problems.append(f"{url}: console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"{url}: script error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"{url}: failed: {r.url}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{url}: {r.status} {r.url}"))
    page.goto(url, wait_until="networkidle")
    return page


def test_every_page_loads_cleanly(site, base, browser):
    problems = []
    for path in pages(site):
        url = base + path
        page = open_page(browser, url, problems)
        images = page.locator("article img")
        for i in range(images.count()):
            image = images.nth(i)
            image.scroll_into_view_if_needed()  # figures load lazily, as the reader scrolls
            loaded = image.evaluate("e => e.decode().then(() => e.naturalWidth > 0, () => false)")
            alt = image.get_attribute("alt").strip()
            if not loaded or not alt:
                problems.append(f"{url}: image {i} loaded={loaded} alt={alt!r}")
        text = page.eval_on_selector(  # the prose: code may well contain TeX for matplotlib
            "article", "a => { const c = a.cloneNode(true); c.querySelectorAll('pre, code').forEach(e => e.remove()); return c.textContent; }"
        )
        for tex in ("\\(", "\\[", "$$", "\\frac", "\\sqrt"):
            if tex in text:
                problems.append(f"{url}: raw TeX {tex!r} left on the page")
        flat = page.eval_on_selector_all("article math", "els => els.filter(e => !e.getBoundingClientRect().width).length")
        if flat:
            problems.append(f"{url}: {flat} formula(s) not rendered")
        blocks = page.locator("article pre > code").count()
        buttons = page.locator("article pre button[data-md-type=copy]").count()
        if buttons != blocks:
            problems.append(f"{url}: {blocks} code blocks but {buttons} copy buttons")
        page.close()
    assert not problems, "\n".join(problems)


def _luminance(png: bytes) -> list[float]:
    return [v / 255 for v in Image.open(io.BytesIO(png)).convert("L").get_flattened_data()]


def _edge(png: bytes, inset: int = 4) -> list[float]:
    """A ring of pixels just inside the border of a screenshot (its edge pixels blend with the page)."""
    image = Image.open(io.BytesIO(png)).convert("L")
    w, h = image.size
    lo, right, bottom = inset, w - 1 - inset, h - 1 - inset
    ring = [(x, y) for x in range(lo, right + 1) for y in (lo, bottom)]
    ring += [(x, y) for y in range(lo, bottom + 1) for x in (lo, right)]
    return [image.getpixel(xy) / 255 for xy in ring]


def test_dark_palette_keeps_figures_legible(base, browser):
    problems = []
    page = open_page(browser, base + "causal/", problems)
    page.locator("form[data-md-component=palette] label:visible").click()
    page.wait_for_selector("body[data-md-color-scheme=slate]")
    background = _luminance(page.screenshot(clip={"x": 0, "y": 850, "width": 40, "height": 40}))
    assert max(background) < 0.3, "the page did not turn dark"
    figures = page.locator("article img.snippet-figure")
    assert figures.count() >= 2
    for i in range(figures.count()):
        figure = figures.nth(i)
        figure.scroll_into_view_if_needed()
        png = figure.screenshot()
        edge = sorted(_edge(png))
        card, darkest = edge[len(edge) // 2], min(_luminance(png))
        # A light card with dark marks on it: labels and ticks stay readable on the dark page.
        assert card > 0.9 and darkest < 0.3, f"figure {i}: card edge {card:.2f}, darkest {darkest:.2f}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("term", "chapter"), SEARCH.items())
def test_search_lists_the_chapter_first(base, browser, term, chapter):
    problems = []
    page = open_page(browser, base, problems)
    # Material reads the query on keyup; Playwright enters Hangul as text without key events, so the
    # test ends with a key press, as a reader's input method does.
    search = page.locator("input.md-search__input")
    search.fill(term)
    search.press("End")
    first = page.locator(".md-search-result__item a").first
    first.wait_for(timeout=10_000)
    assert urlsplit(first.get_attribute("href")).path == urlsplit(base + chapter).path
    assert not problems, "\n".join(problems)
