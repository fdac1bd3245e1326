"""The built site in a real browser (Debian's Chromium driven by Playwright), served like GitHub Pages.

Every page is opened once in each palette, the two side by side (one browser context each, so one
renderer process each: the two cores work at once). Each visit records what went wrong while
loading, the page checks and axe-core's WCAG 2.1 A/AA violations; the tests below read the visits.
"""

import io
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import sync_playwright
from website import CHROMIUM, CHROMIUM_FLAGS, ROOT, pages, serve

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
# A common laptop screen: Material shows the navigation and the table of contents both.
VIEWPORT = {"width": 1366, "height": 900}
# Playwright's colour scheme -> Material's palette (it follows prefers-color-scheme: mkdocs.yml).
PALETTES = {"light": "default", "dark": "slate"}

# axe-core, pinned in package-lock.json, with the WCAG 2.0 and 2.1 A and AA rules.
AXE = ROOT / "node_modules/axe-core/axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# extra.css lets Chromium skip rendering code and results blocks out of view (content-visibility:
# auto); axe takes such a block for hidden and checks nothing inside it. Render them all first.
RENDER_ALL = "* { content-visibility: visible !important; }"
# Material's own markup that this site cannot fix: rule id -> exact selectors, each with its reason.
# None today; never a whole rule.
THEIRS: dict[str, set[str]] = {}
# axe starts on the next task, so this call returns at once and both palettes' pages run together.
AXE_START = """tags => { window.axeRun = new Promise(go => setTimeout(go)).then(() =>
    axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})) }"""
AXE_VIOLATIONS = """() => window.axeRun.then(r => r.violations.map(v => ({id: v.id, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '),
                              message: (n.any[0] || n.all[0] || n.none[0] || {}).message || ''}))})))"""


@dataclass
class Visits:
    problems: list[str] = field(default_factory=list)  # loading (both palettes) and page checks (light)
    axe: list[str] = field(default_factory=list)


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


def watch(page, problems: list[str]) -> None:
    page.on("console", lambda m: m.type == "error" and problems.append(f"{page.url}: console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"{page.url}: script error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"{page.url}: failed: {r.url}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{page.url}: {r.status} {r.url}"))


def open_page(browser, url, problems, scheme="light"):
    page = browser.new_page(color_scheme=scheme, viewport=VIEWPORT)
    watch(page, problems)
    page.goto(url, wait_until="networkidle")
    return page


def page_checks(page, url) -> list[str]:
    """Figures load and have alt text, no TeX is left in the prose, every formula is drawn, every
    code block has its copy button."""
    problems = []
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
    return problems


def start_axe(page) -> None:
    page.add_style_tag(content=RENDER_ALL)
    page.evaluate(AXE_START, WCAG)


def axe_report(page, path: str, scheme: str) -> list[str]:
    """One line per violated rule: page, palette, rule, how many elements and the first few."""
    lines = []
    for rule in page.evaluate(AXE_VIOLATIONS):
        nodes = [n for n in rule["nodes"] if n["target"] not in THEIRS.get(rule["id"], ())]
        if nodes:
            shown = "; ".join(n["target"] for n in nodes[:3])
            lines.append(f"/{path} ({scheme}) {rule['id']}: {rule['help']}; {len(nodes)} element(s), "
                         f"e.g. {shown} - {nodes[0]['message']}")
    return lines


@pytest.fixture(scope="module")
def visits(site, base, browser) -> Visits:
    found = Visits()
    contexts = {scheme: browser.new_context(color_scheme=scheme, viewport=VIEWPORT) for scheme in PALETTES}
    for context in contexts.values():
        context.add_init_script(path=str(AXE))  # on every page, before the page's own scripts
    tabs = {scheme: context.new_page() for scheme, context in contexts.items()}
    for tab in tabs.values():
        watch(tab, found.problems)
    for path in pages(site):
        url = base + path
        for scheme, tab in tabs.items():
            tab.goto(url, wait_until="load")
            if (palette := tab.get_attribute("body", "data-md-color-scheme")) != PALETTES[scheme]:
                found.problems.append(f"{url}: {scheme} colour scheme shows the {palette!r} palette")
        start_axe(tabs["dark"])
        found.problems += page_checks(tabs["light"], url)  # while axe runs in the dark page
        start_axe(tabs["light"])
        for scheme, tab in tabs.items():
            found.axe += axe_report(tab, path, scheme)
            tab.wait_for_load_state("networkidle")  # nothing still loading when the next page starts
    for context in contexts.values():
        context.close()
    return found


def test_every_page_loads_cleanly(visits):
    assert not visits.problems, "\n".join(visits.problems)


def test_every_page_passes_axe_in_both_palettes(visits):
    assert not visits.axe, "\n".join(visits.axe)


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


@pytest.fixture(scope="module")
def search_page(base, browser):
    problems = []
    page = open_page(browser, base, problems)
    yield page, problems
    page.close()


@pytest.mark.parametrize(("term", "chapter"), SEARCH.items())
def test_search_lists_the_chapter_first(base, search_page, term, chapter):
    page, problems = search_page  # one page for every term: the search index loads once
    # Material reads the query on keyup; Playwright enters Hangul as text without key events, so
    # each entry ends with a key press, as a reader's input method does.
    search = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item a")
    search.fill("")
    search.press("End")
    results.first.wait_for(state="detached", timeout=10_000)  # the last term's results are gone
    search.fill(term)
    search.press("End")
    results.first.wait_for(timeout=10_000)
    assert urlsplit(results.first.get_attribute("href")).path == urlsplit(base + chapter).path
    assert not problems, "\n".join(problems)
