"""The strict build succeeds, holds what the pages promise, and is the same byte for byte every time."""

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
import yaml
from handbook.editions import EditionRunner
from handbook.plugins.snippets import RUN_CALL
from project import RAW_NAMES, RUNNER
from website import ROOT, pages
from workspace import project_copy
from bs4 import BeautifulSoup


def page(site: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup((site / name / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_causal_page_has_generated_tables_and_figures(site):
    article = page(site, "causal").find("article")
    numeric = re.compile(r"^(-?\d[\d., e+-]*|-?inf|nan)$")
    generated = [t for t in article.find_all("table") if t.find("td", string=numeric)]
    assert len(generated) >= 5
    figures = article.find_all("img", class_="snippet-figure")
    assert len(figures) >= 2
    assert all((site / "causal" / img["src"]).resolve().read_text().startswith("<?xml") for img in figures)
    assert all(img.get("alt", "").strip() for img in article.find_all("img"))


def test_code_is_shown_with_its_path_and_output(site):
    article = page(site, "causal").find("article")
    titles = [t.get_text() for t in article.select(".highlight .filename")]
    assert "snippets/causal/weights.py" in titles
    assert any(label.get_text() == "터미널 출력" for label in article.select(".tabbed-labels label"))


@pytest.mark.parametrize("source", sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs-en").glob("*.md")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_front_matter_is_yaml(source):
    # Front matter that YAML rejects (a plain value with ": " inside) is not an error to MkDocs:
    # the page shows it as a heading, and the page loses its description.
    text = source.read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"{source.name} has no front matter"
    meta = yaml.safe_load(text.split("---\n")[1])
    assert isinstance(meta, dict) and meta.get("description"), meta


def test_math_is_mathml_with_no_tex_left(site):
    home = page(site, "")
    assert home.find("math", attrs={"display": "block"}) is not None
    assert "\\frac" not in home.find("article").get_text()
    for html in site.rglob("*.html"):
        assert "arithmatex" not in html.read_text(encoding="utf-8"), html




def reader_view(soup: BeautifulSoup) -> tuple[list[str], BeautifulSoup]:
    """What a reader sees of a page besides its code: its description and title (search engines show
    them) and its alt, title and aria-label texts; and the page (changed in place) without head, code
    blocks, scripts and a code block's path (.filename: snippets/pitfalls/d_model.py), its code spans
    and math each replaced by the word X."""
    seen = [m["content"] for m in soup.find_all("meta", attrs={"name": "description"})] + [soup.title.get_text()]
    for e in soup.find_all(["head", "pre", "script", "style"]) + soup.select(".filename"):
        e.decompose()
    for e in soup.find_all(["code", "math"]):
        e.replace_with("X")
    seen += [e[a] for a in ("alt", "title", "aria-label") for e in soup.find_all(attrs={a: True})]
    return seen, soup


def raw_names(path: str, seen: list[str], soup: BeautifulSoup) -> list[str]:
    # Code and math read as the word X: get_text(" ") sets it apart, and no raw name can contain it.
    seen = [" ".join(text.split()) for text in seen + [soup.get_text(" ")]]
    return [f"/{path}: {m[0]} in …{text[max(m.start() - 30, 0):m.end() + 10]}…"
            for text in seen for m in RAW_NAMES.finditer(text)]


# A Korean particle set apart from the word, code or formula it belongs to ("`mask` 는", "SDPA 의",
# "$d_k$ 로"): Korean writes it attached ("`mask`는").
PARTICLE = re.compile(r"[A-Za-z0-9_)\]%∞−\u2080-\u209c] (은|는|이|가|을|를|의|에|에서|로|으로|와|과|도|만|마다|인|부터|까지|보다"
                      r"|처럼|입니다|이다|이고|이며|이면|이라|라는|이라는)(?=[\s.,:;)\]\"'*]|$)")


def detached_particles(path: str, seen: list[str], soup: BeautifulSoup) -> list[str]:
    # X: what stands before the particle (a code span, a formula); the space after it is what counts
    blocks = soup.find_all(["p", "li", "td", "th", "h1", "h2", "h3", "summary", "figcaption"])
    found = []
    for text in seen + [e.get_text() for e in blocks]:
        text = " ".join(text.split())
        found += [f"/{path}: …{text[max(m.start() - 25, 0):m.end() + 5]}…" for m in PARTICLE.finditer(text)]
    return found


def test_what_a_reader_reads_has_no_claim_markup_raw_tex_names_or_detached_particles(site):
    """Four checks of every page's text, in one test so that each page is parsed once (0.1-0.3 s
    a page): claims and quotes reach the reader as plain code (no attribute list that Markdown did not take);
    no TeX name a reader would see raw; no TeX in the navigation and table of contents (a heading's math
    reaches them as its source, \\(4\\), seen); Korean particles attached to the word before them."""
    assert len(page(site, "causal").select("code[data-claim]")) >= 30
    markup, names, particles, toc = [], [], [], []
    for path in pages(site):
        soup = page(site, path.rstrip("/"))
        prose = " ".join(p.get_text() for p in soup.select("article p, article li, article td"))
        if "data-claim" in prose or "data-quote" in prose:
            markup.append(f"/{path}")
        toc += [f"/{path}: {a.get_text(' ', strip=True)}" for a in soup.select("nav a.md-nav__link")
                if re.search(r"\\[(\[]|\$", a.get_text())]
        seen, soup = reader_view(soup)
        names += raw_names(path, seen, soup)
        particles += detached_particles(path, seen, soup)
    assert not markup, f"an attribute list left as text on {markup}"
    assert not names, "raw TeX names:\n" + "\n".join(names[:30])
    assert not particles, "particles set apart:\n" + "\n".join(sorted(set(particles))[:40])
    assert not toc, "TeX in the navigation or a table of contents:\n" + "\n".join(sorted(set(toc))[:10])


def test_no_traceback_or_external_request_anywhere(site):
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "Traceback (most recent call last)" not in text, html  # a snippet that raised
        assert "fonts.googleapis.com" not in text and "cdn.jsdelivr" not in text, html


@pytest.mark.early
@pytest.mark.site
def test_two_builds_are_byte_identical(request, tmp_path):
    # The second build runs every lab again (no reuse of outputs), on another day as far as the
    # sitemap knows: the dates come from the commit.
    # A copy of the project, so its lab runs do not touch the ones other tests read; outside git,
    # it is given the commit's time as the build in the repository takes it. It builds before it
    # asks for the site, so the two builds can run at once.
    commit = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True).stdout
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "LABS_CACHE": "false", "SOURCE_DATE_EPOCH": commit.strip()}
    copy = project_copy(tmp_path / "project")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "again")],
                           cwd=copy, env=env, check=True, capture_output=True, text=True)
    # Each snippet a page shows and each lab ran once, for both editions (a second run warns, and
    # --strict fails on it): every run is of another snippet or lab, a lab per source, and at least
    # the snippets the pages name in their blocks (a page may also run them by a variable's name).
    [(snippets, labs, runs)] = re.findall(r"handbook: (\d+) snippets and (\d+) labs ran in this build, (\d+) runs in all",
                                          built.stderr)
    named = set()
    for folder, lang in (("docs", None), ("docs-en", "en")):
        for page in (ROOT / folder).glob("*.md"):
            for name in RUN_CALL.findall(page.read_text(encoding="utf-8")):
                named.add(EditionRunner(RUNNER, lang).name(name))
    assert int(runs) == int(snippets) + int(labs) and int(labs) == len(list((ROOT / "labs").glob("*.py")))
    assert len(named) <= int(snippets) <= len(RUNNER.all())
    again, site = tmp_path / "again", request.getfixturevalue("site")
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for path in files:  # pages, labs, figures, downloads, sitemap
        assert (site / path).read_bytes() == (again / path).read_bytes(), path


def test_sitemap_dates_come_from_the_commit(site):
    commit = int(subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True).stdout)
    day = datetime.fromtimestamp(commit, timezone.utc).strftime("%Y-%m-%d")
    assert set(re.findall(r"<lastmod>([^<]+)</lastmod>", (site / "sitemap.xml").read_text())) == {day}
    midnight = int(datetime.fromisoformat(day).replace(tzinfo=timezone.utc).timestamp())  # MkDocs keeps the day
    assert int.from_bytes((site / "sitemap.xml.gz").read_bytes()[4:8], "little") == midnight


def test_every_chapter_is_a_page(site):
    sources = {p.stem for p in (ROOT / "docs").glob("*.md")} | {f"labs/{p.stem}" for p in (ROOT / "labs").glob("*.py")}
    assert len(sources) >= 20
    assert {"" if s == "index" else s + "/" for s in sources} <= set(pages(site))


def test_generated_html_is_valid(site, tmp_path):
    # What we generate (each page's article: prose, tables, figures, claims, MathML) must pass the
    # Nu HTML checker. The theme's own markup is Material's; `make audit` lists what it reports there.
    # The article as written, not as a parser re-serialises it (which also cost 0.1 s a page).
    for path in pages(site):
        html = (site / path / "index.html").read_text(encoding="utf-8")
        start, end = html.find("<article"), html.find("</article>")
        assert html.count("<article") == 1 and 0 <= start < end, f"/{path}: not one <article>"
        article, lang = html[start:end + len("</article>")], "en" if path.startswith("en/") else "ko"
        wrapped = f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>t</title></head><body>{article}</body></html>'
        (tmp_path / f"{path.strip('/').replace('/', '_') or 'index'}.html").write_text(wrapped, encoding="utf-8")
    result = subprocess.run(
        ["java", "-jar", str(ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True, text=True,
    )
    errors = [f"{Path(m['url']).name}:{m.get('lastLine')}: {m['message']}" for m in json.loads(result.stderr)["messages"]]
    assert not errors, "\n".join(errors)


def test_labs_offer_their_notebook(site):
    for lab in (ROOT / "labs").glob("*.py"):  # tests/content/test_labs.py checks the notebook itself
        page = (site / "labs" / lab.stem / "index.html").read_text(encoding="utf-8")
        assert f'href="{lab.stem}.ipynb" title="노트북 내려받기' in page  # beside the page: any base path


def test_a_lab_download_works_wherever_the_site_is_served(site):
    # The button's link is relative to the page, so it works under any path, not only site_url's.
    from urllib.request import urlopen

    from website import serve

    for prefix in ("/", "/some/other/place/"):
        with serve(site, prefix) as base:
            for lab in (ROOT / "labs").glob("*.py"):
                href = page(site, f"labs/{lab.stem}").select_one("a[download]")["href"]
                with urlopen(f"{base}labs/{lab.stem}/{href}") as response:
                    assert response.status == 200 and json.loads(response.read())["cells"], (prefix, lab.stem)


def test_no_repository_link_where_no_repository_is_known(site):
    # The tests build without REPO_URL, as a local build does: no placeholder address in the header.
    if os.environ.get("REPO_URL"):
        pytest.skip("REPO_URL is set")
    for path in ("", "causal/"):
        html = (site / path / "index.html").read_text(encoding="utf-8")
        assert "md-source" not in html and "github.com" not in html and "example.github.io" not in html


# What a page costs a reader to fetch, in gzip bytes as the server sends them, as limits no machine's
# speed can move (Lighthouse's performance score, which a slow or busy machine does move, is make
# audit's): each about a quarter above the heaviest page today (HTML 35 KB, scripts 37 KB, styles
# 28 KB, all it loads 208 KB), so that a real regression fails (a new script or font, figures
# saved as bitmaps) and a new paragraph does not. Requests and elements: tests/browser/test_browser.py.
BUDGET_KB = {"html": 45, "scripts": 46, "styles": 35, "total": 260}


def test_every_page_stays_within_its_byte_budgets(site):
    from website import transferred

    over = []
    for path in pages(site):
        cost = transferred(site, site / path / "index.html")
        over += [f"/{path}: {part} {cost[part] / 1024:.1f} KB (limit {limit} KB)"
                 for part, limit in BUDGET_KB.items() if cost[part] > limit * 1024]
    assert not over, "\n".join(over)


def test_byte_budgets_count_what_a_page_names_and_refuse_a_missing_file(tmp_path):
    from website import transferred

    (tmp_path / "a.js").write_text("let x = 1;\n" * 200)
    (tmp_path / "a.css").write_text("p { color: red }\n" * 200)
    (tmp_path / "f.svg").write_text("<svg/>")
    page = tmp_path / "index.html"
    page.write_text('<link rel="stylesheet" href="a.css?v=1"><script src="a.js"></script>'
                    '<script>let inline = 2;</script><style>b { }</style><img src="f.svg" alt="">')
    import gzip

    gz = {name: len(gzip.compress((tmp_path / name).read_bytes(), mtime=0)) for name in ("a.js", "a.css", "f.svg", "index.html")}
    inline = {t: len(gzip.compress(t.encode(), mtime=0)) for t in ("let inline = 2;", "b { }")}
    assert transferred(tmp_path, page) == {
        "html": gz["index.html"], "scripts": gz["a.js"] + inline["let inline = 2;"],
        "styles": gz["a.css"] + inline["b { }"], "total": gz["index.html"] + gz["a.js"] + gz["a.css"] + gz["f.svg"]}
    page.write_text('<img src="gone.svg" alt="">')
    with pytest.raises(FileNotFoundError, match="gone.svg"):
        transferred(tmp_path, page)
