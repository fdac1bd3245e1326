"""The strict build succeeds, holds what the pages promise, and is the same byte for byte every time."""

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from audit import ROOT, base_path, build, pages
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


def test_claims_reach_the_reader_as_plain_code(site):
    assert len(page(site, "causal").select("code[data-claim]")) >= 30
    for path in pages(site):
        prose = " ".join(p.get_text() for p in page(site, path.rstrip("/")).select("article p, article li, article td"))
        assert "data-claim" not in prose, path  # an attribute list Markdown did not take


def test_math_is_mathml_with_no_tex_left(site):
    home = page(site, "")
    assert home.find("math", attrs={"display": "block"}) is not None
    assert "\\frac" not in home.find("article").get_text()
    for html in site.rglob("*.html"):
        assert "arithmatex" not in html.read_text(encoding="utf-8"), html


def test_no_traceback_or_external_request_anywhere(site):
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "Traceback (most recent call last)" not in text, html  # a snippet that raised
        assert "fonts.googleapis.com" not in text and "cdn.jsdelivr" not in text, html


def test_two_builds_are_byte_identical(site, tmp_path):
    again = build(tmp_path / "again")
    for path in pages(site):  # chapters and labs
        assert (site / path / "index.html").read_bytes() == (again / path / "index.html").read_bytes(), path


def test_internal_links_and_anchors_resolve(site):
    ids = {}
    for html in site.rglob("*.html"):
        soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
        ids[html] = ({e["id"] for e in soup.find_all(id=True)}, soup)
    broken = []
    for html, (_, soup) in ids.items():
        for tag, attr in (("a", "href"), ("link", "href"), ("img", "src"), ("script", "src")):
            for element in soup.find_all(tag, attrs={attr: True}):
                url = urlsplit(element[attr])
                if url.scheme or url.netloc or element[attr].startswith("#") and not url.fragment:
                    continue  # external, data: and mailto: links; the bare "#" of theme buttons
                path = unquote(url.path)
                if path.startswith("/"):  # absolute, as on 404.html: under site_url's path
                    path = str(site / path.removeprefix(base_path()))
                target = (html.parent / path).resolve() if path else html
                if target.is_dir():
                    target = target / "index.html"
                if not target.is_file():
                    broken.append(f"{html.relative_to(site)}: {element[attr]} (no such file)")
                elif url.fragment and target in ids and unquote(url.fragment) not in ids[target][0]:
                    broken.append(f"{html.relative_to(site)}: {element[attr]} (no such anchor)")
    assert not broken, "\n".join(broken)


def test_every_chapter_is_a_page(site):
    sources = {p.with_suffix("").as_posix() for p in Path("docs").glob("*.md")}
    assert {"" if s == "docs/index" else s.removeprefix("docs/") + "/" for s in sources} <= set(pages(site))


def test_generated_html_is_valid(site, tmp_path):
    # What we generate (each page's article: prose, tables, figures, claims, MathML) must pass the
    # Nu HTML checker. The theme's own markup is Material's; `make audit` lists what it reports there.
    for path in pages(site):
        article = BeautifulSoup((site / path / "index.html").read_text(encoding="utf-8"), "html.parser").article
        wrapped = f'<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>t</title></head><body>{article}</body></html>'
        (tmp_path / f"{path.strip('/').replace('/', '_') or 'index'}.html").write_text(wrapped, encoding="utf-8")
    result = subprocess.run(
        ["java", "-jar", str(ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True, text=True,
    )
    errors = [f"{Path(m['url']).name}:{m.get('lastLine')}: {m['message']}" for m in json.loads(result.stderr)["messages"]]
    assert not errors, "\n".join(errors)


def test_labs_offer_their_notebook(site):
    for lab in (ROOT / "docs/labs").glob("*.py"):  # tests/test_labs.py checks the notebook itself
        page = (site / "labs" / lab.stem / "index.html").read_text(encoding="utf-8")
        assert f'labs/{lab.stem}/{lab.stem}.ipynb" title="노트북 내려받기' in page
