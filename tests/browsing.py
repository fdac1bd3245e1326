"""What the browser tests share (test_browser, test_layout, test_reader, test_editions, test_serve):
the two screens, Chromium whose waits last as long as a busy slow machine needs, a page opened and
watched for errors, Korean typed as an input method types it, and the phone-width checks. Their
fixtures (``base``, ``browser``) are in conftest.py."""

from website import HANG_S

# A common laptop screen: Material shows the navigation and the table of contents both.
VIEWPORT = {"width": 1366, "height": 900}
# A phone held upright.
PHONE = {"width": 390, "height": 800}

# On a phone: the page never scrolls sideways; no code span, table cell or Korean word in a link
# breaks inside; a long formula that can break shows its broken form where it is too wide, and that
# fits; any other formula or table wider than its box scrolls in it, with a shadow as the hint.
# (After a frame: the page's script measures formulas as the browser reports sizes, between frames.)
CHECK_PHONE = """async () => {
  await new Promise(go => requestAnimationFrame(() => setTimeout(go)));
  const problems = [];
  for (const f of document.querySelectorAll('article .formula')) {
    const shown = [...f.children].find(m => getComputedStyle(m).display !== 'none');
    if (!shown || shown.scrollWidth > shown.clientWidth + 1)
      problems.push(`formula "${f.firstElementChild.getAttribute('alttext')}" wider than its column, broken or not`);
  }
  const de = document.documentElement;
  if (de.scrollWidth > window.innerWidth) problems.push(`page ${de.scrollWidth} px wide`);
  for (const e of document.querySelectorAll('article code:not(pre > code), article td, article th')) {
    const text = e.textContent.trim();
    if (!text || /\\s/.test(text) || e.querySelector('math, br')) continue;  // <br>: lines of their own
    const range = document.createRange();
    range.selectNodeContents(e);
    const tops = [...range.getClientRects()].filter(r => r.width).map(r => r.bottom).sort((a, b) => a - b);
    if (tops.length && tops[tops.length - 1] - tops[0] > 10) problems.push(`${e.tagName} "${text}" breaks inside`);
  }
  for (const a of document.querySelectorAll('article a')) {  // Korean words in links, too
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      for (const word of node.data.matchAll(/[\uac00-\ud7a3]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const bottoms = [...range.getClientRects()].filter(r => r.width).map(r => r.bottom);
        if (bottoms.length && Math.max(...bottoms) - Math.min(...bottoms) > 10)
          problems.push(`link "${a.textContent.trim()}": "${word[0]}" breaks inside`);
      }
    }
  }
  for (const m of document.querySelectorAll('article math[display=block], article .md-typeset__scrollwrap')) {
    if (m.scrollWidth <= m.clientWidth + 1) continue;
    const style = getComputedStyle(m);
    if (!/auto|scroll/.test(style.overflowX) || !style.backgroundImage.includes('gradient'))
      problems.push(`${m.tagName}.${m.className} wider than its box scrolls with no hint`);
  }
  for (const img of document.querySelectorAll('article picture > img')) {  // a chapter's figure fits
    const over = img.getBoundingClientRect().width - img.closest('p, .tabbed-block').clientWidth;
    if (over > 1) problems.push(`figure ${img.getAttribute('src').split('/').pop()} ${Math.round(over)} px wider than its column`);
  }
  return problems;
}"""


class Browser:
    """Chromium whose pages wait for what a test waits for (a load, a locator, a result) as long as
    it takes: Playwright's own 30 s limit fails a page that a busy slow machine loads in 31, while
    HANG_S ends only a hang, and Playwright's message names what never happened."""

    def __init__(self, chromium) -> None:
        self.chromium = chromium

    def new_context(self, **options):
        context = self.chromium.new_context(**options)
        context.set_default_timeout(HANG_S * 1000)
        return context

    def new_page(self, **options):
        page = self.chromium.new_page(**options)
        page.set_default_timeout(HANG_S * 1000)
        return page


def watch(page, problems: list[str]) -> None:
    page.on("console", lambda m: m.type == "error" and problems.append(f"{page.url}: console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"{page.url}: script error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"{page.url}: failed: {r.url}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"{page.url}: {r.status} {r.url}"))
    page.on("crash", lambda _: problems.append(f"{page.url}: the page crashed"))


def open_page(browser, url, problems, scheme="light"):
    page = browser.new_page(color_scheme=scheme, viewport=VIEWPORT)
    watch(page, problems)
    page.goto(url, wait_until="networkidle")
    return page


def type_korean(page, word: str) -> None:
    """``word`` entered as a Korean input method enters it: composition updates (no key events),
    then the committed text."""
    cdp = page.context.new_cdp_session(page)
    for end in range(1, len(word)):
        cdp.send("Input.imeSetComposition", {"text": word[:end], "selectionStart": end, "selectionEnd": end})
    cdp.send("Input.insertText", {"text": word})
    cdp.detach()
