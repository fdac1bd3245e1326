"""Growing the site: a new chapter touches only its own files and one nav line per language, and a
new language is a folder of pages and a config block. Each builds a small copy of the project made
of the fixtures in tests/fixtures/ (`mkdocs build --strict`, as a deployment builds)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from project import ROOT, WORDS
from workspace import project_copy

pytestmark = pytest.mark.build
FIXTURES = ROOT / "tests/fixtures"
THIRD = FIXTURES / "third"  # a two-page site in each language, and a third language: its pages and config block
CHAPTER = FIXTURES / "chapter"  # a new chapter: its snippet, its page in each language and its lab


def _small_site(tmp_path: Path, german: bool = False) -> Path:
    """A small copy of the project whose pages are the fixture's two (a home page and a chapter) in
    Korean and English; with ``german``, the German edition too: its pages, mkdocs.de.yml, and `de`
    among the editions of the two configs."""
    small = project_copy(tmp_path / "project", pages=("index.md",))
    for folder in ("docs", "docs-en", "docs-de") if german else ("docs", "docs-en"):
        shutil.copytree(THIRD / folder, small / folder, dirs_exist_ok=True)
    if german:
        shutil.copy(THIRD / "mkdocs.de.yml", small)
    for config, nav in (("mkdocs.yml", "홈: index.md\n  - 작은 장"), ("mkdocs.en.yml", "Home: index.md\n  - A small chapter")):
        path = small / config
        text = path.read_text(encoding="utf-8")
        assert text.count("editions: {ko: 한국어, en: English}") == 1, config
        if german:
            text = text.replace("editions: {ko: 한국어, en: English}", "editions: {ko: 한국어, en: English, de: Deutsch}")
        path.write_text(re.sub(r"(?ms)^nav:\n.*?(?=^\S)", f"nav:\n  - {nav}: small.md\n\n", text), encoding="utf-8")
    return small


def _build(project: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "REPO_URL")}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project,
                          env={**env, "NO_MKDOCS_2_WARNING": "1", "LABS_CACHE_DIR": ".cache/labs"},
                          capture_output=True, text=True)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "site" not in p.parts and ".cache" not in p.parts and "__pycache__" not in p.parts}


def test_a_new_chapter_touches_its_own_files_and_one_nav_line_per_language(tmp_path):
    small = _small_site(tmp_path)
    before = _files(small)
    for part in ("snippets", "docs", "docs-en", "labs"):  # the chapter's own files, one name across them
        shutil.copytree(CHAPTER / part, small / part, dirs_exist_ok=True)
    for config, line in (("mkdocs.yml", "  - 아주 작은 장: tiny.md\n"), ("mkdocs.en.yml", "  - A tiny chapter: tiny.md\n")):
        path = small / config
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("small.md\n", "small.md\n" + line, 1), encoding="utf-8")
    after = _files(small)
    added = sorted(after.keys() - before.keys())
    assert added == ["docs-en/tiny.md", "docs/tiny.md", "labs/tiny.py", "snippets/tiny/halves.py"]
    changed = {name: (before[name].decode(), after[name].decode()) for name in before if before[name] != after[name]}
    assert sorted(changed) == ["mkdocs.en.yml", "mkdocs.yml"]
    for old, new in changed.values():  # one line each
        assert len(new.splitlines()) == len(old.splitlines()) + 1 and set(old.splitlines()) <= set(new.splitlines())

    result = _build(small)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr
    site = small / "site"
    for folder, title, lab in (("", "아주 작은 장", "실습: 아주 작은 장"), ("en/", "A tiny chapter", "Lab: A tiny chapter")):
        chapter = (site / folder / "tiny/index.html").read_text(encoding="utf-8")
        assert "0.5" in chapter and "halves" not in chapter.split("<article")[0]  # its table, built
        page = (site / folder / "labs/tiny/index.html").read_text(encoding="utf-8")
        assert lab in page and "0.7311" in page  # the lab ran, in this edition's words
        # the lab is in the nav though no config lists it: in a labs section, titled as its chapter
        nav = chapter.split('<nav class="md-nav md-nav--primary"')[1]
        section = WORDS["en" if folder else "ko"]["labs"]  # the word for a labs section the nav lacks
        assert re.search(rf'(?s)md-ellipsis">\s*{section}\s*</span>.*?href="\.\./labs/tiny/"[^>]*>\s*'
                         rf'<span class="md-ellipsis">\s*{re.escape(title)}\s*</span>', nav), folder
    assert (site / "labs/tiny/tiny.ipynb").is_file() and (site / "en/labs/tiny/tiny.ipynb").is_file()


@pytest.mark.build
def test_a_third_language_needs_a_folder_of_pages_and_a_config_block_and_no_code(tmp_path):
    small = _small_site(tmp_path, german=True)
    result = _build(small)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr
    site = small / "site"
    page = (site / "de/small/index.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in page and 'aria-label="Menü öffnen"' in page  # its theme language, its words
    assert ">Spalte 2</th>" in page and ">Ergebnis</label>" in page  # the table, in the page's and the config's German
    switch = re.findall(r'hreflang="(\w+)" lang="\w+" class="md-select__link"', page)
    assert switch == ["ko", "en", "de"]  # the language switch leads to this page in each edition
    for folder, up in (("", "../"), ("en/", "../../")):  # and each other edition's switch leads here
        assert f'href="{up}de/small/" hreflang="de"' in (site / folder / "small/index.html").read_text(encoding="utf-8")

    # Its claims, links and pairing are checked as the others' are: a changed literal, a link to no
    # page and a page with no counterpart each fail the build, named at the German source.
    german = small / "docs-de/small.md"
    german.write_text(german.read_text(encoding="utf-8").replace("`0.5`", "`0.25`") + "\n[Nirgends](nowhere.md)\n",
                      encoding="utf-8")
    (small / "docs-de/extra.md").write_text("# Extra\n", encoding="utf-8")
    result = _build(small)
    assert result.returncode != 0
    assert "docs-de/small.md:4: claim `0.25` (causal/weights.py: weights[1, 0]) does not hold" in result.stderr
    assert "docs-de/extra.md has no counterpart docs/extra.md" in result.stderr
    assert "broken link: docs-de/small.md:14: nowhere.md (no such file), in de/small/index.html" in result.stderr


def _switch(project: Path, seams: dict[str, bool]) -> None:
    """Set each ``handbook/<seam>``'s ``enabled`` in mkdocs.yml."""
    path = project / "mkdocs.yml"
    text = path.read_text(encoding="utf-8")
    for seam, on in seams.items():
        text, count = re.subn(rf"(?m)^  - handbook/{seam}(:?)$", f"  - handbook/{seam}:\n      enabled: {str(on).lower()}", text)
        assert count == 1, seam
    path.write_text(text, encoding="utf-8")


def test_each_seam_turns_off_on_its_own(tmp_path):
    # Labs, the other editions, typesetting and link checks off: the Korean edition alone, no lab,
    # TeX left as Markdown gave it; the snippets still run and the claims still hold.
    small = _small_site(tmp_path)
    page = small / "docs/small.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n나누는 값은 $\\sqrt{d_k}$입니다.\n", encoding="utf-8")
    _switch(small, {"labs": False, "editions": False, "typeset": False, "links": False})
    built = _build(small)
    assert built.returncode == 0, built.stderr
    site = small / "site"
    assert not (site / "en").exists() and not (site / "labs").exists()
    html = (site / "small/index.html").read_text(encoding="utf-8")
    assert '<span class="arithmatex">' in html and "<math" not in html
    assert "<table" in html  # the snippet's table


def test_claims_off_lets_a_draft_build_and_a_seam_that_needs_one_that_is_off_says_so(tmp_path):
    small = _small_site(tmp_path)
    page = small / "docs/small.md"
    page.write_text(page.read_text(encoding="utf-8").replace("`0.5`{", "`0.7`{"), encoding="utf-8")
    assert "does not hold" in _build(small).stderr  # on: the wrong claim stops the build
    _switch(small, {"claims": False})
    built = _build(small)
    assert built.returncode == 0, built.stderr
    _switch(small, {"snippets": False})
    built = _build(small)
    assert built.returncode != 0
    assert "handbook/labs needs handbook/snippets: list it in plugins, enabled, or turn handbook/labs off (it is off)" \
        in built.stderr
