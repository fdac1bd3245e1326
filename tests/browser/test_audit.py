"""Lighthouse on a representative few pages, served like GitHub Pages: accessibility, best practices
and SEO, at least 95 each, as a desktop sees them.

Performance is not scored here: its largest part, total blocking time, is CPU time the page's
scripts take on this machine, so the same page scores 94 on a slow or busy machine and 100 on a
quiet fast one (seen). ``make audit`` and ``make bench`` measure it; ``make test`` guards what makes
a page fast with fixed limits that no machine's speed can move: bytes, requests and elements per
page (tests/site/test_site.py's and tests/browser/test_browser.py's budgets). The three categories scored here
depend on the page alone. The pages: the home page, the heaviest chapter and the heaviest lab (by
HTML size: the most elements and the most code), the English edition's heaviest chapter, and the
mask explorer (a page of controls its own script makes).
Accessibility on every page, in both palettes, is test_browser's axe-core check.
"""

from pathlib import Path

import pytest
from website import lighthouse, pages, serve, table

pytestmark = pytest.mark.audit
FLOOR = 95
# The categories that depend on the page alone, not on how fast the machine runs it.
SCORED = ("accessibility", "best-practices", "seo")


def representative(site: Path) -> list[str]:
    """The home page, the largest chapter and the largest lab page (by the size of their HTML), and
    the English edition's largest chapter: its pages share every template and script with the
    Korean ones, and the largest has the most of what could fail; and the mask explorer, whose
    controls and grid its own script makes."""
    size = {page: (site / page / "index.html").stat().st_size for page in pages(site)}
    korean = [p for p in size if not p.startswith("en/")]
    labs = [p for p in korean if p.startswith("labs/")]
    chapters = [p for p in korean if p and p not in labs]
    english = [p for p in size if p.startswith("en/") and p != "en/" and not p.startswith("en/labs/")]
    return ["", max(chapters, key=size.get), max(labs, key=size.get), max(english, key=size.get), "explorer/"]


def test_representative_pages_are_a_home_a_chapter_a_lab_an_english_chapter_and_the_explorer(site):
    home, chapter, lab, english, explorer = representative(site)
    assert home == "" and chapter.count("/") == 1 and lab.startswith("labs/")
    assert english.startswith("en/") and english.count("/") == 2 and not english.startswith("en/labs/")
    assert {chapter, lab, english, explorer} <= set(pages(site))


@pytest.fixture(scope="module")
def results(site):
    with serve(site) as base:
        urls = {page or "/": base + page for page in representative(site)}
        scores = lighthouse(list(urls.values()), "desktop", SCORED)
        return {page: scores[url] for page, url in urls.items()}


def test_lighthouse_scores(results):
    print("\n" + table(results, "desktop", SCORED))
    assert all(set(s) - {"failing"} == set(SCORED) for s in results.values()), results  # no other category
    low = [f"{page} {c} {s[c]}" for page, s in results.items() for c in SCORED if s[c] < FLOOR]
    assert not low, f"below {FLOOR}: {low}\n{table(results, 'desktop', SCORED)}"
