"""Lighthouse on a representative few pages, served like GitHub Pages.

The gate is Lighthouse's desktop preset: at least 95 in each of the four categories (performance:
the median of three runs when the first is lower, see ``measured``), on the home page, the
heaviest chapter and the heaviest lab (by HTML size: the most elements to lay out and the most
code to paint, so the hardest for performance). Each page costs about 8 s; `make audit`
measures every page, as a desktop and as a phone. As a phone sees them (Lighthouse's default: slow
4G, CPU slowed four times) performance varies from run to run on the longest chapters (91 to 99
seen), so that table is printed, not gated: Material's start-up relayout of a page with thousands
of elements costs 250-350 ms of blocking time there. Accessibility on every page, in both palettes,
is test_browser's axe-core check.
"""

from pathlib import Path

import pytest
from website import CATEGORIES, lighthouse, pages, serve, table

pytestmark = pytest.mark.audit
FLOOR = 95


def representative(site: Path) -> list[str]:
    """The home page, the largest chapter and the largest lab page (by the size of their HTML), and
    the English edition's largest chapter: its pages share every template and script with the
    Korean ones, and the largest is where performance differs most."""
    size = {page: (site / page / "index.html").stat().st_size for page in pages(site)}
    korean = [p for p in size if not p.startswith("en/")]
    labs = [p for p in korean if p.startswith("labs/")]
    chapters = [p for p in korean if p and p not in labs]
    english = [p for p in size if p.startswith("en/") and p != "en/" and not p.startswith("en/labs/")]
    return ["", max(chapters, key=size.get), max(labs, key=size.get), max(english, key=size.get)]


def test_representative_pages_are_a_home_a_chapter_a_lab_and_an_english_chapter(site):
    home, chapter, lab, english = representative(site)
    assert home == "" and chapter.count("/") == 1 and lab.startswith("labs/")
    assert english.startswith("en/") and english.count("/") == 2 and not english.startswith("en/labs/")
    assert {chapter, lab, english} <= set(pages(site))


def measured(urls: list[str]) -> dict[str, dict]:
    """Lighthouse on each URL as a desktop. Performance is the one category that depends on how busy
    the machine is (desktop Lighthouse does not slow the CPU, so total blocking time counts every
    millisecond another process takes: the largest chapter was seen at 94 and 96 with the other
    categories at 100). A page whose performance is below the floor is measured twice more and the
    median of the three counts, as Lighthouse's variability notes advise (docs/variability.md: the
    median of several runs is far more stable than one)."""
    results = lighthouse(urls, "desktop")
    low = [url for url in urls if results[url]["performance"] < FLOOR]
    if low:
        again = [lighthouse(low, "desktop") for _ in range(2)]
        for url in low:
            runs = sorted([results[url], again[0][url], again[1][url]], key=lambda s: s["performance"])
            results[url] = runs[1]
    return results


@pytest.fixture(scope="module")
def results(site):
    with serve(site) as base:
        urls = {page or "/": base + page for page in representative(site)}
        scores = measured(list(urls.values()))
        return {page: scores[url] for page, url in urls.items()}


def test_lighthouse_scores(results):
    print("\n" + table(results, "desktop"))
    low = [f"{page} {c} {s[c]}" for page, s in results.items() for c in CATEGORIES if s[c] < FLOOR]
    assert not low, f"below {FLOOR}: {low}\n{table(results, 'desktop')}"
