"""The printable book: one PDF per edition (``book.pdf`` at the edition's root), every page of its
navigation in reading order but the labs, printed by headless Chromium from the built site
(handbook/plugins/book.py prints it at the end of a build; tests/site/test_book.py checks it).

It reads the built pages, not the Markdown: what a reader prints is what the site shows, claims,
figures and MathML included. Each chapter becomes a section whose ids carry the chapter's name
(``padding--summary``), so a link between chapters is a link inside the PDF; a link to a page the book
leaves out (a lab) points at the site where the build knows its address (``site_url``), and is plain
text where it does not. Why not mkdocs-print-site-plugin: CONTRIBUTING.md.
"""

from __future__ import annotations

import html
import logging
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup

BOOK = "book.pdf"
EXPLORER = '<div class="explorer"'  # handbook/explorer.py's page
CHROMIUM = "/usr/bin/chromium"
# As the machine's probe starts Chromium: headless, and no background calls to Google's hosts.
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# A4 less the page's side margins (210 - 2 x 15 mm) at 96 px an inch: the width the pages are laid out
# at; what runs past it into the margin shows, what runs past the margin is cut by the paper's edge.
MARGIN = round(15 / 25.4 * 96)
PRINT_WIDTH = round(210 / 25.4 * 96) - 2 * MARGIN
STAGE = "_book"  # the HTML that is printed, beside the chapters (one folder deep, as they are); removed after
# Links that point at an element by id: rewritten with the chapter's prefix.
ID_REFS = ("for", "aria-labelledby", "aria-describedby", "aria-controls")
CSS = """
@page { size: A4; margin: 16mm 15mm 18mm; }
* { content-visibility: visible !important; }
html { font-size: 112%; }
.book-chapter, .book-contents { break-before: page; }
.md-typeset h1, .md-typeset h2, .md-typeset h3 { break-after: avoid; }
/* a figure is an inline image in a paragraph, where break-inside does not reach: its paragraph keeps it whole */
.md-typeset tr, .md-typeset p:has(> img, > picture), .md-typeset figure, .md-typeset .admonition { break-inside: avoid; }
.md-typeset table:not([class]) { font-size: .64rem; }
.md-typeset table .nobreak { white-space: normal; }  /* on paper no box scrolls: a cell may break a token */
.md-typeset pre > code { font-size: .58rem; }
.md-typeset .output pre > code { white-space: pre-wrap; }
.md-typeset .tabbed-content > .tabbed-block { display: block; }
.md-typeset .tabbed-set > input, .md-typeset .tabbed-labels, .claim-source { display: none !important; }
.md-typeset .md-clipboard, .md-content__button, .headerlink { display: none !important; }
.book-title { text-align: center; padding-top: 30vh; }
.book-title h1 { font-size: 2.2rem; margin: 0 0 1rem; }
.book-title p { max-width: 32rem; margin: 0 auto; color: var(--md-default-fg-color--light); }
.book-contents ol { list-style: none; padding: 0; }
"""


def pages(site: Path) -> list[str]:
    """The edition's pages in the order of its navigation, labs and the explorer left out: URLs
    relative to its root ("" for the home page, "padding/" for a chapter)."""
    soup = BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
    nav = soup.select_one("nav.md-nav--primary")
    if nav is None:
        raise ValueError(f"{site / 'index.html'} has no primary navigation to read the chapters' order from")
    found: list[str] = []
    for link in nav.select("a.md-nav__link[href]"):
        url = urlsplit(urljoin("/", link["href"])).path.lstrip("/")  # ".." -> "", "../x/" -> "x/"
        if "#" not in link["href"] and not url.startswith("labs/") and url not in found:
            found.append(url)
    # a page the site lacks (a small copy's navigation names chapters it does not hold) is not in the
    # book, nor is the explorer: it is to be moved, not printed, and its frames as a list fill pages
    return [url for url in found if (site / url / "index.html").is_file()
            and EXPLORER not in (site / url / "index.html").read_text(encoding="utf-8")]


def _slug(url: str) -> str:
    return url.strip("/") or "index"


def _chapter(site: Path, url: str, book: list[str], site_url: str | None) -> tuple[str, str]:
    """A page's article as a section of the book, and its title."""
    soup = BeautifulSoup((site / url / "index.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article.md-content__inner")
    if article is None:
        raise ValueError(f"{site / url / 'index.html'} has no article")
    for junk in article.select("script, .md-source-file, .md-content__button, .headerlink"):
        junk.decompose()
    prefix = _slug(url) + "--"
    for element in article.find_all(True):
        if element.has_attr("id"):
            element["id"] = prefix + element["id"]
        for name in ID_REFS:
            if element.has_attr(name):
                value = element[name]
                element[name] = " ".join(prefix + v for v in (value if isinstance(value, list) else value.split()))
        for name in ("src", "srcset", "href"):
            if element.has_attr(name):
                _relink(element, name, url, book, site_url)
        if element.name == "img" and element.get("loading") == "lazy":
            del element["loading"]  # printing does not wait for an image the screen never reached
        if element.name == "details":
            element["open"] = ""  # folded answers are printed open
    title = article.find("h1")
    return f'<section class="book-chapter" id="{_slug(url)}">{"".join(map(str, article.contents))}</section>', (
        title.get_text(" ", strip=True) if title else _slug(url))


def _relink(element, name: str, url: str, book: list[str], site_url: str | None) -> None:
    value = element[name]
    if name == "href" and value.startswith("#"):
        element[name] = f"#{_slug(url)}--{value[1:]}"
        return
    if urlsplit(value).scheme or value.startswith(("//", "data:", "mailto:")):
        return
    target = urlsplit(urljoin(f"/{url}", value))
    path = target.path.lstrip("/")
    if element.name != "a":  # a file the page loads: from the staged book, one folder deep
        element[name] = " ".join(("../" + urlsplit(urljoin(f"/{url}", part)).path.lstrip("/")) if i % 2 == 0 else part
                                 for i, part in enumerate(value.split(" ")))
        return
    page = path.removesuffix("index.html")
    if page in book:
        element[name] = f"#{_slug(page)}" + (f"--{target.fragment}" if target.fragment else "")
    elif site_url:
        element[name] = urljoin(site_url, path) + (f"#{target.fragment}" if target.fragment else "")
    else:
        element.unwrap()  # no address to give it: its text stays


def assemble(site: Path, site_url: str | None = None) -> tuple[str, str, list[tuple[str, str]]]:
    """The book of the edition built in ``site``, as one HTML document to print from ``site/_book/``;
    its title; and each chapter's URL and title, in order."""
    book = pages(site)
    chapters = [_chapter(site, url, book, site_url) for url in book]
    home = BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
    for tag in home.head.select("script"):
        tag.decompose()
    for tag in home.head.select("link[href]"):
        _relink(tag, "href", "", book, None)
    title = home.title.get_text(strip=True)
    about = home.select_one('meta[name="description"]')
    about = f'<p>{html.escape(about["content"])}</p>' if about else ""
    toc = home.select_one('label.md-nav__title[for="__toc"]')  # Material's words for it, in the edition's language
    toc = f"<h1>{html.escape(toc.get_text(strip=True))}</h1>" if toc else ""
    contents = "".join(f'<li><a href="#{_slug(url)}">{html.escape(text)}</a></li>' for url, (_, text) in zip(book, chapters))
    attrs = " ".join(f'{k}="{v}"' for k, v in home.body.attrs.items() if k != "data-md-color-scheme")
    return (f'<!doctype html><html lang="{home.html.get("lang", "")}"><head>{"".join(map(str, home.head.contents))}'
            f"<style>{CSS}</style></head>"
            f'<body {attrs} data-md-color-scheme="default"><div class="md-content"><div class="md-typeset book">'
            f'<div class="book-title"><h1>{html.escape(title)}</h1>{about}</div>'
            f'<nav class="book-contents">{toc}<ol>{contents}</ol></nav>'
            + "".join(section for section, _ in chapters) + "</div></div></body></html>",
            title, [(url, text) for url, (_, text) in zip(book, chapters)])


# What the print width cuts off: a box whose content is wider than it and that does not let it show
# (a code block, a table's scroll box, a display formula), named by its chapter and its text; and the
# page itself, where something runs past the paper's edge.
CLIPPED = """() => [...document.querySelectorAll('.book-chapter *')].filter(e =>
  e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
).map(e => [e.closest('.book-chapter').id, e.tagName.toLowerCase(), e.textContent.trim().slice(0, 80)]
).concat(document.scrollingElement.scrollWidth > innerWidth + %d ? [['', 'page', 'wider than the paper']] : [])""" % MARGIN


def print_book(site: Path, browser, site_url: str | None = None) -> Path:
    """Write ``site/book.pdf`` from the pages built in ``site`` with a Playwright ``browser``."""
    stage = site / STAGE
    stage.mkdir(exist_ok=True)
    try:
        document, title, chapters = assemble(site, site_url)
        (stage / "index.html").write_text(document, encoding="utf-8")
        page = browser.new_page()
        page.goto((stage / "index.html").as_uri(), wait_until="load")
        page.emulate_media(media="print")
        page.set_viewport_size({"width": PRINT_WIDTH, "height": 1000})
        if clipped := page.evaluate(CLIPPED):
            raise ValueError(f"{site / BOOK}: cut off at the print width: " + "; ".join(
                f"{chapter}: <{tag}> {text!r}" for chapter, tag, text in clipped[:5]) + f" ({len(clipped)} in all)")
        # Not tagged: the structure tree made the PDF 3.2 times as large (28.3 MB against 8.8 MB)
        page.pdf(path=str(site / BOOK), format="A4", print_background=True, outline=False, tagged=False,
                 prefer_css_page_size=True, display_header_footer=True, header_template="<span></span>",
                 footer_template='<div style="font-size:8px;width:100%;text-align:center">'
                                 '<span class="pageNumber"></span></div>')
        page.close()
    finally:
        shutil.rmtree(stage)
    finish(site / BOOK, title, [(_slug(url), text) for url, text in chapters])
    return site / BOOK


def finish(pdf: Path, title: str, chapters: list[tuple[str, str]]) -> None:
    """The printed PDF with what Chromium leaves out or makes differ from one print to the next: a
    bookmark per chapter (at its section's destination), the book's title, and no dates, so two
    builds of one commit give the same bytes."""
    from pypdf import PdfReader, PdfWriter

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # Chromium's trailer undercounts its objects: rewritten here
    reader = PdfReader(pdf)
    writer = PdfWriter(clone_from=reader)
    destinations = reader.named_destinations
    for slug, text in chapters:
        if f"/{slug}" not in destinations:
            raise ValueError(f"{pdf}: no destination for the chapter {slug!r}: its section did not print")
        writer.add_outline_item(title=text, page_number=reader.get_destination_page_number(destinations[f"/{slug}"]))
    _spaces(writer)
    writer.metadata = {"/Title": title, "/Producer": "handbook/book.py (headless Chromium, pypdf)"}
    with pdf.open("wb") as out:
        writer.write(out)


# A font whose space glyph also draws the control characters (NanumGothic's glyph 1: U+0000-0004 and
# U+0020) is given the first of them in the PDF's map back to text, and a reader copying a sentence got
# U+0001 between its words. The site's text holds no control character: such a glyph is the space.
CONTROL = re.compile(rb"(<[0-9A-Fa-f]{4}> )<00[01][0-9A-Fa-f]>")


def _spaces(writer) -> None:
    seen = set()
    for page in writer.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            stream = font.get_object().get("/ToUnicode")
            if stream is None or id(stream.get_object()) in seen:
                continue
            stream = stream.get_object()
            seen.add(id(stream))
            if (data := stream.get_data()) != (fixed := CONTROL.sub(rb"\1<0020>", data)):
                stream.set_data(fixed)


def print_books(sites: list[tuple[Path, str | None]]) -> list[Path]:
    """Print the book of each edition built in a folder of ``sites`` (with its ``site_url``, or None)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            return [print_book(site.resolve(), browser, site_url) for site, site_url in sites]
        finally:
            browser.close()
