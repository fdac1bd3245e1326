"""The built site in a real browser (Debian's Chromium driven by Playwright), served like GitHub Pages.

Every page is visited once: loaded at a laptop's width and checked there (code fits), resized to a
phone's width and checked there, then its folded answers opened, the page checked, and run through
axe-core (WCAG 2.1 A/AA) in one palette: the one it opened in, or the other, switched with
Material's palette toggle as a reader switches it. A Korean page and its English counterpart are
the same templates, styles and generated blocks with other words, so one of the two is checked in
the light palette and the other in the dark: every block in both palettes, each page once (axe is
most of a visit's cost, 0.3-1.0 s a run on the largest chapter). The work runs in the page while
the test loads the next page in a second tab: the two cores work at once.
"""

import io
import json
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

import pytest
from PIL import Image
from project import WORDS
from playwright.sync_api import Error as PlaywrightError
from browsing import CHECK_PHONE, PHONE, VIEWPORT, open_page, type_korean, watch
from website import HANG_S, ROOT, pages

pytestmark = pytest.mark.browser

# Each key term must bring up its chapter first in the site search.
SEARCH = {
    "마스크": "causal/",  # the first chapter about masks
    "인과": "causal/",
    "어텐션": "attention/",
    "소프트맥스": "softmax/",
    "softmax": "softmax/",  # a lab's heading has the word too: the chapter still comes first
    "스케일링": "scaling/",
    "패딩": "padding/",
    "지수함수": "exp/",
    "용어집": "glossary/",
}
# Material's palettes (body[data-md-color-scheme]) as a reader calls them.
PALETTES = {"default": "light", "slate": "dark"}
# Left in the prose (code aside: it may well hold TeX for matplotlib), these mean MathML is missing.
TEX = ["\\(", "\\[", "$$", "\\frac", "\\sqrt"]

# axe-core, pinned in package-lock.json, with the WCAG 2.0 and 2.1 A and AA rules.
AXE = ROOT / "node_modules/axe-core/axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# extra.css lets Chromium skip rendering code and results blocks out of view (content-visibility:
# auto); axe takes such a block for hidden and checks nothing inside it. Render them all first, and
# switch palettes without colour transitions, so axe never reads a colour half-way.
RENDER_ALL = "*, *::before, *::after { content-visibility: visible !important; transition: none !important; }"
# Material's own markup that this site cannot fix: rule id -> exact selectors, each with its reason.
# None today; never a whole rule.
THEIRS: dict[str, set[str]] = {}

# In chapters and labs, at the laptop width the pages open in: code of up to 88 columns fits and the
# copy button covers none of it; outputs (a snippet's terminal output, a lab cell's) may be longer,
# and wrap. The names of output blocks come in each language (each edition's config's words).
CODE_FITS = """([outputs, terminals]) => {
  const problems = [];
  const isOutput = code => {  // a lab cell's output ("출력"), or a snippet's terminal tab
    const title = code.closest('.highlight').querySelector('.filename');
    if (title) return outputs.includes(title.textContent.trim());
    const block = code.closest('.tabbed-block'), set = block && block.closest('.tabbed-set');
    if (!set) return false;
    const i = [...block.parentElement.children].indexOf(block);
    return terminals.includes(set.querySelectorAll(':scope > .tabbed-labels > label')[i]?.textContent.trim());
  };
  for (const code of document.querySelectorAll('article pre > code')) {
    const lines = code.textContent.split('\\n');
    const output = isOutput(code), wide = lines.find(l => l.length > 88);
    if (wide && !output) { problems.push(`code wider than 88 columns: ${wide}`); continue; }
    if (code.scrollWidth > code.clientWidth)
      problems.push(`${output ? 'output' : 'code'} scrolls: ${lines.find(l => l.length > 88) || lines[0]}`);
    const button = code.parentElement.querySelector('button');
    if (!button || !button.offsetParent) continue;
    // where a line of text can reach (the content box) ends before the button starts
    const box = code.getBoundingClientRect(), b = button.getBoundingClientRect();
    const end = box.left + code.clientWidth - parseFloat(getComputedStyle(code).paddingRight);
    if (end > b.left) problems.push(`copy button covers the end of: ${lines[0]}`);
  }
  return problems;
}"""
NAMES = [[w["output"] for w in WORDS.values()], [w["terminal"] for w in WORDS.values()]]

# One visit, in the page: every folded answer opened (its figures, formulas and colours are checked
# too), the page checks, then Material's palette toggle clicked if the page opened in the other
# palette than the one asked for, and axe run. Started with setTimeout, so `evaluate` returns at once and the test drives
# the other tab meanwhile; the result waits in window.visitResult, and each stage is logged (console
# .debug), so a page that hangs or crashes still says how far it got.
VISIT = """([tex, tags, wanted]) => { window.visitResult = null;
 const stage = name => console.debug(`visit stage: ${name}`);
 new Promise(go => setTimeout(go)).then(async () => {
  const problems = [], runs = [];
  stage('images');
  document.querySelectorAll('article details').forEach(d => d.open = true);  // folded answers, opened
  for (const [i, img] of [...document.querySelectorAll('article img')].entries()) {
    img.scrollIntoView({block: 'center'});  // figures load lazily, as the reader scrolls
    // loaded or failed; a decode that the page's resize to a phone and back cut short (a figure's
    // <picture> switched its file) waits for the file now chosen instead
    const loaded = await img.decode().then(() => true, () => new Promise(go => {
      if (img.complete) return go(true);
      img.addEventListener('load', () => go(true), {once: true});
      img.addEventListener('error', () => go(false), {once: true});
    })).then(ok => ok && img.naturalWidth > 0);
    const alt = (img.getAttribute('alt') || '').trim();
    if (!loaded || !alt) problems.push(`image ${i} loaded=${loaded} alt=${JSON.stringify(alt)}`);
  }
  stage('checks');
  const prose = document.querySelector('article').cloneNode(true);
  prose.querySelectorAll('pre, code').forEach(e => e.remove());
  tex.filter(t => prose.textContent.includes(t)).forEach(t => problems.push(`raw TeX ${t} left on the page`));
  const flat = [...document.querySelectorAll('article math')].filter(e => !e.getBoundingClientRect().width)
    .filter(e => !e.parentElement.matches('.formula') || getComputedStyle(e).display !== 'none');  // the form not shown
  if (flat.length) problems.push(`${flat.length} formula(s) not rendered`);
  const blocks = document.querySelectorAll('article pre > code').length;
  const buttons = document.querySelectorAll('article pre button[data-md-type=copy]').length;
  if (blocks !== buttons) problems.push(`${blocks} code blocks but ${buttons} copy buttons`);
  const nodes = document.getElementsByTagName('*').length;
  const opened = document.body.getAttribute('data-md-color-scheme');
  stage(`palette ${wanted}`);
  if (opened !== wanted) {  // the other palette, switched as a reader switches it: wait for the switch
    const switched = new Promise(go => new MutationObserver((_, observer) => {
      if (document.body.getAttribute('data-md-color-scheme') !== opened) { observer.disconnect(); go(); }
    }).observe(document.body, {attributes: true, attributeFilter: ['data-md-color-scheme']}));
    [...document.querySelectorAll('form[data-md-component=palette] label')].find(l => l.offsetParent).click();
    await switched;
  }
  // one frame first, as any reader's page has had: the page's own observers (a table that
  // scrolls becomes focusable once laid out) run between frames
  await new Promise(go => requestAnimationFrame(() => setTimeout(go)));
  const scheme = document.body.getAttribute('data-md-color-scheme');
  stage(`axe in ${scheme}`);
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  const violations = result.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => ({
    target: n.target.join(' '), message: (n.any[0] || n.all[0] || n.none[0] || {}).message || ''}))}));
  return {problems, scheme, violations, nodes};
}).then(result => { window.visitResult = result; },
        error => { window.visitResult = {problems: [`the visit failed: ${error}`], scheme: null, violations: [], nodes: 0}; })
}"""


@dataclass
class Visits:
    problems: list[str] = field(default_factory=list)  # while loading, and the page checks
    axe: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)  # CODE_FITS, at the laptop width
    phone: list[str] = field(default_factory=list)  # CHECK_PHONE, at the phone width
    schemes: dict[str, str] = field(default_factory=dict)  # page -> the palette axe ran in
    requests: dict[str, list[str]] = field(default_factory=dict)  # page -> every URL it requested
    nodes: dict[str, int] = field(default_factory=dict)  # page -> its elements, answers unfolded
    base: str = ""  # the URL the pages were served at
    current: dict = field(default_factory=dict)  # tab -> the page it is visiting (not kept)
    stage: dict = field(default_factory=dict)  # tab -> the last stage its visit logged (not kept)


def palette(path: str, korean: list[str]) -> str:
    """The palette axe checks a page in: Korean pages take turns, and an English page takes the
    palette its Korean counterpart does not. (A page opens in the palette the last one was left in:
    Material keeps the reader's choice.)"""
    turn = korean.index(path.removeprefix("en/")) % 2
    return list(PALETTES)[turn ^ path.startswith("en/")]


def visit(tab, base: str, path: str, found: Visits, wanted: str):
    """One page: load it, start the visit in it, pause (yield) while it runs, then read what it found."""
    url = base + path
    found.current[tab] = path
    tab.goto(url, wait_until="load")
    tab.add_style_tag(content=RENDER_ALL)
    if path not in ("", "en/"):  # chapters and labs, as they open
        found.code += [f"/{path}: {p}" for p in tab.evaluate(CODE_FITS, NAMES)]
    # The same page at a phone's width: CSS lays it out again and the page's scripts follow resizes
    # (ResizeObserver), so this is the page as a phone shows it (on all 60 pages, the same findings
    # as loading it at that width, measured); test_layout also loads pages at that width.
    tab.set_viewport_size(PHONE)
    found.phone += [f"/{path}: {problem}" for problem in tab.evaluate(CHECK_PHONE)]
    tab.set_viewport_size(VIEWPORT)
    tab.evaluate(VISIT, [TEX, WCAG, wanted])
    yield
    # A visit takes 0.5-3 s on a quiet machine; one that has not ended after HANG_S never will:
    # say at which stage it hung (an image that never decoded, a palette that never switched).
    # Playwright enforces this limit itself, so it holds even if the page crashed (an evaluate
    # that waits in the page would wait for ever then).
    try:
        result = tab.wait_for_function("() => window.visitResult", polling=100, timeout=HANG_S * 1000).json_value()
    except PlaywrightError as error:
        found.problems.append(f"{url}: the visit never finished, last stage {found.stage.get(tab)!r}: "
                              f"{str(error).splitlines()[0]}")
        return
    found.problems += [f"{url}: {problem}" for problem in result["problems"]]
    found.schemes[path] = scheme = result["scheme"]
    found.nodes[path] = result["nodes"]
    if scheme != wanted:
        found.problems.append(f"{url}: axe ran in the {scheme} palette, not {wanted}")
    for rule in result["violations"]:
        nodes = [n for n in rule["nodes"] if n["target"] not in THEIRS.get(rule["id"], ())]
        if nodes:  # page, palette, rule, how many elements and the first few
            shown = "; ".join(n["target"] for n in nodes[:3])
            found.axe.append(f"/{path} ({PALETTES.get(scheme)}) {rule['id']}: {rule['help']}; "
                             f"{len(nodes)} element(s), e.g. {shown} - {nodes[0]['message']}")
    tab.wait_for_load_state("networkidle")  # nothing still loading when the next page starts


@pytest.fixture(scope="module")
def visits(site, base, browser, testrun_uid) -> Visits:
    """Every page visited once a run: the first test process to ask visits them, the others wait
    for its findings and read them (xdist spreads this module's tests over the workers, and each
    visited every page: minutes of two cores done twice)."""
    from filelock import FileLock

    saved = site.parent / f"visits.{testrun_uid}.json"
    with FileLock(str(site.parent / "visits.lock")):
        if saved.is_file():
            return Visits(**json.loads(saved.read_text(encoding="utf-8")))
        found = visit_all(site, base, browser)
        kept = {k: v for k, v in vars(found).items() if k not in ("current", "stage")}
        saved.write_text(json.dumps(kept), encoding="utf-8")
    return found


def visit_all(site, base, browser) -> Visits:
    """Every page, two tabs taking turns: while one tab's page works, the other loads."""
    found = Visits(base=base)
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(path=str(AXE))  # on every page, before the page's own scripts
    tabs = [context.new_page() for _ in range(2)]
    for tab in tabs:
        watch(tab, found.problems)
        tab.on("request", lambda request, tab=tab: found.requests.setdefault(found.current[tab], []).append(request.url))
        tab.on("console", lambda m, tab=tab: m.text.startswith("visit stage: ")
               and found.stage.__setitem__(tab, m.text.removeprefix("visit stage: ")))
    todo, running = pages(site), {}
    korean = [p for p in todo if not p.startswith("en/")]
    while todo or running:
        for tab in tabs:
            if tab not in running and todo:
                path = todo.pop(0)
                running[tab] = visit(tab, base, path, found, palette(path, korean))
            if tab in running and next(running[tab], "done") == "done":
                del running[tab]
    context.close()
    return found


def test_every_page_loads_cleanly(visits):
    assert not visits.problems, "\n".join(visits.problems)


def test_laptop_code_fits_88_columns_and_the_copy_button_covers_nothing(visits):
    assert not visits.code, "\n".join(visits.code[:20])


def test_phone_pages_never_scroll_sideways_and_tokens_stay_whole(visits):
    assert len(visits.schemes) >= 60 and not visits.phone, "\n".join(visits.phone)


def test_every_page_passes_axe_and_each_pair_in_both_palettes(visits):
    """Each page in one palette; a Korean page and its English counterpart in the two palettes."""
    assert not visits.axe, "\n".join(visits.axe)
    korean = {p: s for p, s in visits.schemes.items() if not p.startswith("en/")}
    assert len(korean) >= 30 and len(visits.schemes) == 2 * len(korean), visits.schemes
    for path, scheme in korean.items():
        assert {scheme, visits.schemes["en/" + path]} == set(PALETTES), (path, scheme)
    assert set(korean.values()) == set(PALETTES)  # each edition has both, by turns


# What makes a page fast, as limits no machine's speed can move (Lighthouse's performance score,
# which a slow or busy machine does move, is make audit's): the requests a page makes, its figures
# all loaded, and the elements it has with every answer unfolded. Each limit sits about a quarter
# above the largest page today, so that it fails on a real regression (a script or font that
# starts loading, a figure drawn as thousands of elements), not on a new paragraph. The largest
# when the limits were set:
REQUESTS = 25  # softmax/: 20 (the page, its styles, scripts, search index and figures)
NODES = 9200  # apis/: 7394


def test_every_page_requests_only_its_own_site_and_stays_within_its_budgets(visits):
    host = urlsplit(visits.base).netloc
    assert len(visits.requests) == len(visits.schemes), "a page made no request at all"
    foreign = [f"/{p}: {u}" for p, urls in visits.requests.items() for u in urls
               if not u.startswith("data:") and urlsplit(u).netloc != host]
    assert not foreign, "requests to another host:\n" + "\n".join(foreign)
    most = max(visits.requests, key=lambda p: len(visits.requests[p]))
    largest = max(visits.nodes, key=visits.nodes.get)
    measured = (f"/{most} makes {len(visits.requests[most])} requests (limit {REQUESTS}); "
                f"/{largest} has {visits.nodes[largest]} elements (limit {NODES})")
    assert len(visits.requests[most]) <= REQUESTS and visits.nodes[largest] <= NODES, measured


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
    # Material reads the query on keyup, which an input method never sends: the words arrive by
    # composition and input events only, and the site's script passes them on.
    search = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item a")
    search.fill("")
    results.first.wait_for(state="detached")  # the last term's results are gone
    search.focus()
    type_korean(page, term)
    # Results for a part of the word may show first; these are the whole word's.
    page.locator(f'.md-search-result__item a[href*="h={quote(term)}"]').first.wait_for()
    assert urlsplit(results.first.get_attribute("href")).path == urlsplit(base + chapter).path
    assert not problems, "\n".join(problems)
