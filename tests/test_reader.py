"""What a reader meets on a phone and in the search: named header buttons, readable search
previews, and figures a reader can move (a slider over frames rendered at build time)."""

from urllib.parse import parse_qs, quote, urlsplit

import pytest
from test_browser import base, browser  # noqa: F401
from test_browser import PHONE, type_korean

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(base, browser):  # noqa: F811
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
def searching(base, browser):  # noqa: F811
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
def test_a_slider_moves_the_figure_by_keyboard(base, browser, chapter, name, first, last):  # noqa: F811
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
def test_without_script_every_frame_is_a_tab(base, browser, chapter, name, first, last):  # noqa: F811
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
        base, browser, edition, term, chapter):  # noqa: F811
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
def test_the_search_index_loads_when_search_is_first_used(base, browser, edition, term, chapter):  # noqa: F811
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
