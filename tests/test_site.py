"""The strict build succeeds, holds what the pages promise, and is the same byte for byte every time."""

import os
import re
import subprocess
import sys
from pathlib import Path

import glue
import pytest
from bs4 import BeautifulSoup

MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"]


def build(site_dir: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([*MKDOCS, "-d", str(site_dir)], cwd=glue.ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return site_dir


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("site"))


def page(site: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup((site / name / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_causal_page_has_generated_tables_and_figures(site):
    article = page(site, "causal").find("article")
    numeric = re.compile(r"^(-?\d[\d., e+-]*|-?inf|nan)$")
    generated = [t for t in article.find_all("table") if t.find("td", string=numeric)]
    assert len(generated) >= 5
    figures = article.find_all("img", src=lambda s: s.startswith("data:image/svg+xml;base64,"))
    assert len(figures) >= 2
    assert all(img.get("alt", "").strip() for img in article.find_all("img"))


def test_code_is_shown_with_its_path_and_output(site):
    article = page(site, "causal").find("article")
    titles = [t.get_text() for t in article.select(".highlight .filename")]
    assert "snippets/causal/weights.py" in titles
    assert any(label.get_text() == "터미널 출력" for label in article.select(".tabbed-labels label"))


def test_claims_reach_the_reader_as_plain_code(site):
    claims = page(site, "causal").select("code[data-claim]")
    assert len(claims) >= 30
    prose = " ".join(p.get_text() for p in page(site, "causal").select("article p, article li"))
    assert "data-claim" not in prose and "}" not in prose


def test_math_is_mathml_with_no_tex_left(site):
    home = page(site, "")
    assert home.find("math", attrs={"display": "block"}) is not None
    assert "\\frac" not in home.find("article").get_text()
    for html in site.rglob("*.html"):
        assert "arithmatex" not in html.read_text(encoding="utf-8"), html


def test_no_traceback_or_external_request_anywhere(site):
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "Traceback" not in text and "Error" not in BeautifulSoup(text, "html.parser").get_text(), html
        assert "fonts.googleapis.com" not in text and "cdn.jsdelivr" not in text, html


def test_two_builds_are_byte_identical(site, tmp_path):
    again = build(tmp_path / "again")
    for name in ("causal/index.html", "index.html"):
        assert (site / name).read_bytes() == (again / name).read_bytes(), name
