"""The printable book of each edition (handbook/book.py): linked from the home page; every chapter in
reading order, each from a new page under its title, with a bookmark; links inside it lead to a place
in it; every font embedded; figures drawn as vectors; and a line the paper's width would cut fails the
print, rather than leaving the PDF with half a line (a small made-up site shows it)."""

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from handbook.book import BOOK, assemble, pages, print_books
from pypdf import PdfReader

EDITIONS = ("", "en/")


def _words(text: str) -> str:
    """Letters and digits alone: a dash may come back as another (a font's glyph for several)."""
    return re.sub(r"[\W_]+", "", text)


def _title(site: Path, url: str) -> str:
    h1 = BeautifulSoup((site / url / "index.html").read_text(encoding="utf-8"), "html.parser").select_one("article h1")
    for link in h1.select(".headerlink"):
        link.decompose()
    return h1.get_text(" ", strip=True)


@pytest.fixture(scope="module")
def books(site):
    return {edition: PdfReader(site / edition / BOOK) for edition in EDITIONS}


def test_the_home_page_links_to_its_editions_book(site):
    for edition in EDITIONS:
        home = BeautifulSoup((site / edition / "index.html").read_text(encoding="utf-8"), "html.parser")
        assert home.select_one(f'article a[href="{BOOK}"]'), edition
        assert (site / edition / BOOK).read_bytes().startswith(b"%PDF-")


def test_every_chapter_starts_a_page_in_reading_order_under_its_title(site, books):
    for edition, reader in books.items():
        chapters = pages(site / edition)
        titles = [_title(site / edition, url) for url in chapters]
        assert len(chapters) >= 25 and not any(url.startswith("labs/") for url in chapters)
        assert [item.title for item in reader.outline] == titles
        starts = [reader.get_destination_page_number(item) for item in reader.outline]
        assert starts == sorted(set(starts)) and starts[0] >= 2  # after the title page and the contents
        assert len(reader.pages) > starts[-1] >= len(titles) + 1
        for title, start in zip(titles, starts):
            top = reader.pages[start].extract_text()
            assert _words(title) in _words(top)[:200], (edition, title, start)
            assert not re.search(r"[\x00-\x08\x0b-\x1f]", top), (edition, title)  # copied text has its spaces
        assert reader.metadata.title == BeautifulSoup((site / edition / "index.html").read_text(encoding="utf-8"),
                                                      "html.parser").title.get_text(strip=True)
        assert "/CreationDate" not in reader.metadata  # two prints of one commit: the same bytes


def test_links_inside_the_book_lead_to_a_place_in_it(books):
    for edition, reader in books.items():
        destinations, inside, outside = reader.named_destinations, 0, []
        for page in reader.pages:
            for annotation in page.get("/Annots") or []:
                action = annotation.get_object().get("/A") or {}
                if "/Dest" in annotation.get_object() or action.get("/S") == "/GoTo":
                    name = annotation.get_object().get("/Dest") or action.get("/D")
                    assert str(name) in destinations, (edition, name)
                    inside += 1
                elif action.get("/S") == "/URI":
                    outside.append(str(action["/URI"]))
        assert inside >= len(reader.outline) * 2, edition  # the contents, and the chapters' links to each other
        assert outside and all(url.startswith(("https://", "http://")) for url in outside), edition


def test_every_font_is_embedded(books):
    for edition, reader in books.items():
        for number, page in enumerate(reader.pages):
            for font in (page["/Resources"].get("/Font") or {}).values():
                font = font.get_object()
                if font["/Subtype"] == "/Type3":  # drawn with the PDF's own operators
                    continue
                described = font["/DescendantFonts"][0].get_object() if font["/Subtype"] == "/Type0" else font
                descriptor = described["/FontDescriptor"].get_object()
                assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), (edition, number, font["/BaseFont"])


def _images(xobjects) -> int:
    count = 0
    for xobject in (xobjects or {}).values():
        xobject = xobject.get_object()
        if xobject["/Subtype"] == "/Image":
            count += 1
        elif xobject["/Subtype"] == "/Form":
            count += _images(xobject.get("/Resources", {}).get("/XObject"))
    return count


def test_figures_stay_vectors(site, books):
    # A figure's SVG may hold a bitmap of its own (matplotlib's imshow): those, and nothing else, are
    # images in the PDF, each once. A figure printed as a picture of itself would be one more, and one
    # that a page break cuts in two is drawn on both pages (seen: its paragraph now keeps it whole).
    for edition, reader in books.items():
        bitmaps = 0
        for url in pages(site / edition):
            html = BeautifulSoup((site / edition / url / "index.html").read_text(encoding="utf-8"), "html.parser")
            for figure in html.select("article img.snippet-figure"):
                sources = [figure["src"], *(s["srcset"] for s in figure.parent.select("source"))]
                bitmaps += max((site / edition / url / src).read_text(encoding="utf-8").count("<image") for src in sources)
        images = sum(_images(page["/Resources"].get("/XObject")) for page in reader.pages)
        assert 0 < images == bitmaps, edition  # more: a figure printed as a picture, or split across two pages


def _small_site(root: Path, line: str) -> Path:
    """Two chapters and a lab, as the built site's pages are shaped (a navigation, an article)."""
    nav = ('<nav class="md-nav md-nav--primary"><a class="md-nav__link" href="./">Home</a>'
           '<a class="md-nav__link" href="a/">A</a><a class="md-nav__link" href="b/">B</a>'
           '<a class="md-nav__link" href="labs/a/">Lab</a></nav>')
    articles = {
        "": '<h1 id="home">Home</h1><p><a href="a/#x">to a</a></p>',
        "a/": f'<h1 id="a">A</h1><h2 id="x">X</h2><pre><code style="display:block;overflow:auto">{line}</code></pre>'
              '<p><a href="../b/#x">to b</a> <a href="../labs/a/">to the lab</a> <a href="#x">up</a></p>',
        "b/": '<h1 id="b">B</h1><h2 id="x">X</h2><img src="../f.svg" loading="lazy" alt="f">',
    }
    (root / "f.svg").parent.mkdir(parents=True, exist_ok=True)
    (root / "f.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>')
    for url, article in articles.items():
        (root / url).mkdir(parents=True, exist_ok=True)
        (root / url / "index.html").write_text(
            f'<!doctype html><html lang="en"><head><title>Small</title></head><body>{nav}'
            f'<article class="md-content__inner md-typeset">{article}</article></body></html>', encoding="utf-8")
    return root


def test_chapters_link_inside_the_book_and_a_lab_to_the_site_or_nowhere(tmp_path):
    site = _small_site(tmp_path, "x = 1")
    assert pages(site) == ["", "a/", "b/"]
    document, title, chapters = assemble(site, "https://example.org/handbook/")
    assert title == "Small" and chapters == [("", "Home"), ("a/", "A"), ("b/", "B")]
    html = BeautifulSoup(document, "html.parser")
    assert [a["href"] for a in html.select("#a a")] == ["#b--x", "https://example.org/handbook/labs/a/", "#a--x"]
    assert html.select_one("#index a")["href"] == "#a--x" and html.select_one("#a--x") and html.select_one("#b--x")
    assert html.select_one("#b img")["src"] == "../f.svg" and not html.select_one("#b img").has_attr("loading")
    unlinked = BeautifulSoup(assemble(site)[0], "html.parser")
    assert "to the lab" in unlinked.select_one("#a").get_text() and len(unlinked.select("#a a")) == 2


@pytest.mark.browser
def test_a_line_the_paper_would_cut_fails_the_print(tmp_path):
    [book] = print_books([(_small_site(tmp_path / "fits", "x = 1"), None)])
    reader = PdfReader(book)
    assert [item.title for item in reader.outline] == ["Home", "A", "B"]
    with pytest.raises(ValueError, match=r"cut off at the print width: a: <code> 'y = \[0, 0, 0"):
        print_books([(_small_site(tmp_path / "cut", "y = [" + ", ".join(["0"] * 200) + "]"), None)])
    assert not (tmp_path / "cut" / BOOK).exists() and not (tmp_path / "cut" / "_book").exists()
