"""What a reader meets on a phone and in the search: named header buttons, readable search
previews, and figures a reader can move (a slider over frames rendered at build time)."""

import pytest
from test_browser import base, browser  # noqa: F401
from test_browser import type_korean

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(base, browser):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    problems = []
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.goto(base + "causal/", wait_until="networkidle")
    yield page, problems
    page.close()


@pytest.mark.parametrize("key", ["Enter", " "])
@pytest.mark.parametrize(("name", "toggle"), [("메뉴 열기", "__drawer"), ("검색 열기", "__search")])
def test_header_icons_are_named_buttons_a_keyboard_works(phone, name, toggle, key):
    page, problems = phone
    button = page.get_by_role("button", name=name, exact=True)
    assert button.count() == 1 and button.is_visible()
    assert button.get_attribute("for") == toggle
    button.focus()
    page.keyboard.press(key)  # as a keyboard user opens it
    assert page.locator(f"#{toggle}").is_checked()
    assert not problems, "\n".join(problems)
