"""The English edition: every Korean page has its English counterpart claiming the same things, the
snippets' English variants change only words, the English pages hold no Korean text a reader would
read as English, each page's language switch leads to the same page in the other language, and each
edition searches in its own language."""

import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from handbook import labs
from handbook.editions import (EditionRunner, alternates, claims_of, lab_code, pair_problems, variant,
                               variant_problems)
from handbook.snippets import Runner
from project import DOCS, LABS, ROOT, RUNNER, SNIPPETS
from website import pages

ENGLISH = ROOT / "docs-en"
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
# The one example about Korean tokens: the causal chapter's six-syllable sentence, one token each.
TOKENS = set("고요한모닥불")
TOKEN_PAGES = {"en/causal/", "en/labs/causal/"}


def test_every_page_has_a_counterpart_claiming_the_same_things():
    assert pair_problems(DOCS, ENGLISH) == []
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert len(pages) >= 17 and all((ENGLISH / p).is_file() for p in pages if not p.startswith("overrides"))


def test_a_missing_page_or_claim_is_reported(tmp_path):
    ko, en = tmp_path / "docs", tmp_path / "docs-en"
    for folder in (ko, en):
        folder.mkdir()
    claim = '`3`{ data-claim="a/x.py: n" } and `4`{ data-claim="a/x.py: m" }'
    (ko / "a.md").write_text(claim, encoding="utf-8")
    (en / "a.md").write_text('`3`{ data-claim="a/x.py: n" }', encoding="utf-8")
    (ko / "b.md").write_text("text", encoding="utf-8")
    assert pair_problems(ko, en) == [
        "docs/b.md has no counterpart docs-en/b.md",
        "docs-en/a.md claims other things than docs/a.md: missing ['a/x.py: m']",
    ]
    # the order of claims may differ: a sentence in another language may name them the other way round
    (en / "a.md").write_text('`4`{ data-claim="a/x.py: m" } and `3`{ data-claim="a/x.py: n" }', encoding="utf-8")
    (en / "b.md").write_text("text", encoding="utf-8")
    assert pair_problems(ko, en) == []


def test_a_quote_the_other_edition_does_not_make_is_reported(tmp_path):
    # Both editions state what a library's code does from the same quoted source, or one of them drifts.
    ko, en = tmp_path / "docs", tmp_path / "docs-en"
    for folder in (ko, en):
        folder.mkdir()
    quote = '`_dispatch`{ data-quote="torch.nn.attention.bias.CausalBias._dispatch: is_causal=True" }'
    (ko / "a.md").write_text(f"`3`{{ data-claim=\"a/x.py: n\" }}와 {quote}", encoding="utf-8")
    (en / "a.md").write_text('`3`{ data-claim="a/x.py: n" } and `_dispatch`', encoding="utf-8")
    assert pair_problems(ko, en) == ["docs-en/a.md claims other things than docs/a.md: missing "
                                     "['quote torch.nn.attention.bias.CausalBias._dispatch: is_causal=True']"]
    (en / "a.md").write_text(f'{quote} and `3`{{ data-claim="a/x.py: n" }}', encoding="utf-8")
    assert pair_problems(ko, en) == []


def test_claim_counts_match_in_each_language():
    for page in sorted(DOCS.glob("*.md")):
        counterpart = ENGLISH / page.name
        assert claims_of(page.read_text(encoding="utf-8")) == claims_of(counterpart.read_text(encoding="utf-8")), counterpart
    for lab in sorted(LABS.glob("*.py")):
        korean, english = (claims_of(labs.prose(lab, lang), labs.shown(lab)) for lang in ("ko", "en"))
        assert korean == english, lab


def test_every_lab_runs_once_for_both_editions():
    """A lab's run is keyed by its code cells, its snippets' code included (handbook/plugins/labs.py): an
    English lab whose code is the Korean one's shares its run. Each that differs runs twice in every
    build (0.6-2.5 s a lab, measured), which the budget of the English edition (at most 1.3 times the
    Korean build) cannot afford. So a lab prints and draws no words: the words are its Markdown's."""
    from project import runner_for

    def code(docs: Path, name: str) -> list[str]:
        return lab_code(LABS / f"{name}.py", "en" if docs == ENGLISH else "ko", runner_for(f"{docs.name}/x.md"))

    names = sorted(p.stem for p in LABS.glob("*.py"))
    assert len(names) >= 13
    differ = [name for name in names if code(DOCS, name) != code(ENGLISH, name)]
    assert not differ, f"labs whose English code differs from the Korean (words in code or a snippet's .en.py): {differ}"


def test_the_translators_check_passes_a_chapter_and_names_a_lab_that_would_run_twice(tmp_path):
    import edition  # tools/edition.py

    assert edition.main(["check", "causal"]) == 0  # a chapter with a lab (test_claims checks them all)
    (tmp_path / "s/a").mkdir(parents=True)
    (tmp_path / "s/a/x.py").write_text('print("하나")\n', encoding="utf-8")
    (tmp_path / "s/a/en.yml").write_text('x.py: {하나: one}\n', encoding="utf-8")
    lab = tmp_path / "labs/x.py"
    lab.parent.mkdir()
    lab.write_text('# %% [markdown] lang="ko"\n# 제목\n\n# %% [markdown] lang="en"\n# Title\n\n'
                   "# %%\nprint(1)\n\n# %%\n# snippet: a/x.py\n", encoding="utf-8")
    runner = EditionRunner(Runner(tmp_path / "s"), "en")
    assert edition._lab_code(lab, "en", runner) == [
        "labs/x.py: code cell 2 differs from the Korean edition's as it runs (a snippet with a variant): the "
        "lab would run twice"]


def test_variants_change_only_words():
    assert variant_problems(SNIPPETS, ["ko", "en"]) == []
    variants = [n for n in RUNNER.all() if n.endswith(".en.py")]
    assert len(variants) >= 18, "the English catalogues make too few variants: the checks below would pass on little"
    assert not list(SNIPPETS.rglob("*.en.py")), "a variant is made from its catalogue, never a file of its own"
    for name in variants:  # English words: Korean only as the causal chapter's tokens
        korean = set(HANGUL.findall(RUNNER.source(name)))
        assert korean <= TOKENS, f"snippets/{name}: Korean text {sorted(korean)}"


def _catalogue(tmp_path, words: str, snippet: str = 'n = 3  # 셋\nprint("셋", n, f"{n}개")\n') -> list[str]:
    (tmp_path / "a").mkdir(exist_ok=True)
    (tmp_path / "a/x.py").write_text(snippet, encoding="utf-8")
    (tmp_path / "a/en.yml").write_text(words, encoding="utf-8")
    return variant_problems(tmp_path, ["ko", "en"])


def test_a_catalogue_replaces_whole_strings_and_comments_and_nothing_else(tmp_path):
    assert _catalogue(tmp_path, "x.py:\n  셋: three\n  '{n}개': '{n} of them'\n") == []
    runner = Runner(tmp_path)
    assert runner.source("a/x.en.py") == 'n = 3  # three\nprint("three", n, f"{n} of them")\n'
    assert EditionRunner(runner, "en").name("a/x.py") == "a/x.en.py"
    assert EditionRunner(runner, "de").name("a/x.py") == "a/x.py"  # no German words: the snippet itself
    assert runner.all() == ["a/x.en.py", "a/x.py"]
    assert runner.run("a/x.en.py").stdout == "three 3 3 of them\n"
    # Part of a string is not replaced (an entry is a whole string's text)
    assert _catalogue(tmp_path, "x.py: {셋: three, 개: ' of them'}\n") == [
        "snippets/a/en.yml: x.py: no string or comment of the snippet reads ['개'] (an entry replaces a whole "
        "string's text, or a comment's after '#')"]


def test_a_catalogue_that_changes_code_or_names_no_snippet_is_reported(tmp_path):
    assert _catalogue(tmp_path, "x.py: {'{n}개': '{n + 1} of them'}\ny.py: {a: b}\n") == [
        "snippets/a/en.yml: x.py: its words change the snippet's code (an f-string's expressions, or text that is "
        "not a string's): a catalogue changes words only",
        "snippets/a/en.yml: words for snippets/a/y.py, which does not exist"]
    (tmp_path / "a/x.en.py").write_text('n = 3\nprint("three", n)\n', encoding="utf-8")
    (tmp_path / "a/de.yml").write_text("x.py: {셋: drei}\n", encoding="utf-8")
    assert _catalogue(tmp_path, "x.py: {셋: '3\"'}\n") == [
        "snippets/a/x.en.py: a copy of snippets/a/x.py for 'en': its words go in snippets/a/en.yml, the code stays once",
        "snippets/a/de.yml: a catalogue for 'de', which is not one of the other editions ['en']",
        "snippets/a/en.yml: x.py: its words change the snippet's code (an f-string's expressions, or text that is "
        "not a string's): a catalogue changes words only"]


@pytest.mark.parametrize(("text", "message"), [
    ("x.py: [a, b]\n", r"snippets/a/en.yml: x.py: its words are a mapping of text to text, not \['a', 'b'\]"),
    ("- x.py\n", "snippets/a/en.yml: a catalogue maps a snippet's file name to its words, not list"),
    ("a/x.py: {셋: three}\n", r"snippets/a/en.yml: 'a/x.py' is not a snippet's file name in this chapter \(x.py\)"),
    ("x.py: {셋: 3}\n", "snippets/a/en.yml: x.py: '셋': 3: both sides are non-empty text"),
    ("x.py: {셋: [}\n", "snippets/a/en.yml: not YAML: "),
])
def test_a_catalogue_that_is_not_one_is_a_clear_error(tmp_path, text, message):
    from handbook.catalogue import CatalogueError

    [problem] = _catalogue(tmp_path, text)  # what the build reports
    assert re.match(message, problem), problem
    with pytest.raises(CatalogueError, match=message):  # and what a page that shows the variant gets
        Runner(tmp_path).run("a/x.en.py")


def test_variant_names_and_bad_names():
    assert variant("causal/grid.py", "en") == "causal/grid.en.py"
    assert variant("causal/grid.py", None) == "causal/grid.py"
    with pytest.raises(ValueError, match="ends in .py"):
        variant("causal/grid", "en")


def test_switch_links_are_relative_without_a_site_url_and_absolute_with_one():
    editions = {"ko": "한국어", "en": "English"}
    assert [a["href"] for a in alternates(editions, "ko", "causal/", None)] == ["../causal/", "../en/causal/"]
    assert [a["href"] for a in alternates(editions, "en", "causal/", None)] == ["../../causal/", "../../en/causal/"]
    assert [a["href"] for a in alternates(editions, "en", "", None)] == ["../", "../en/"]
    assert [a["href"] for a in alternates(editions, "ko", "", None)] == ["./", "en/"]
    assert [a["href"] for a in alternates(editions, "en", "labs/x/", "https://h.org/book/")] == [
        "https://h.org/book/labs/x/", "https://h.org/book/en/labs/x/"]


class _Reading(HTMLParser):
    """The Hangul a reader meets outside any element marked lang="ko", and each switch link."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.korean: list[tuple[str, str]] = []  # (innermost tag, text)
        self.lang: str | None = None
        self.switch: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang")
        if tag == "a" and "md-select__link" in (values.get("class") or ""):
            self.switch[values["hreflang"]] = values["href"]
        inherited = self.stack[-1][1] if self.stack else None
        lang = values.get("lang", inherited)
        for name in ("alt", "title", "aria-label", "content", "placeholder"):
            if values.get(name) and HANGUL.search(values[name]) and lang != "ko":
                self.korean.append((f"{tag}[{name}]", values[name]))
        if tag not in self.VOID:
            self.stack.append((tag, lang))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        lang = self.stack[-1][1] if self.stack else None
        if HANGUL.search(data) and lang != "ko":
            self.korean.append((" ".join(t for t, _ in self.stack[-3:]), data.strip()[:60]))


def _read(site: Path, path: str) -> _Reading:
    reading = _Reading()
    reading.feed((site / path / "index.html").read_text(encoding="utf-8"))
    return reading


def _english(site: Path) -> list[str]:
    return [p for p in pages(site) if p.startswith("en/")]


def test_english_pages_hold_no_korean_a_reader_would_read_as_english(site):
    found = []
    for path in _english(site):
        for where, text in _read(site, path).korean:
            in_code = "code" in where or "pre" in where
            if path in TOKEN_PAGES and in_code and set(HANGUL.findall(text)) <= TOKENS:
                continue  # the Korean tokens of the causal example, in its code and output
            found.append(f"/{path} {where}: {text}")
    assert len(_english(site)) >= 30
    assert not found, "\n".join(found[:30])


def test_english_notebooks_are_english(site):
    for path in sorted((site / "en/labs").glob("*/*.ipynb")):
        book = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        for cell in book.cells:
            text = re.sub(r'<span lang="ko">[^<]*</span>', "", cell.source)
            korean = set(HANGUL.findall(text))
            allowed = TOKENS if path.parent.name == "causal" and cell.cell_type == "code" else set()
            assert korean <= allowed, f"{path.relative_to(site)}: {sorted(korean - allowed)} in {cell.source[:80]!r}"


def test_each_page_switches_to_itself_in_the_other_language(site):
    korean = [p for p in pages(site) if not p.startswith("en/")]
    assert len(korean) == len(_english(site))
    site_url = os.environ["SITE_URL"]  # the tests' build has one: links are absolute under it
    for path in korean + _english(site):
        reading = _read(site, path)
        assert reading.lang == ("en" if path.startswith("en/") else "ko"), path
        inner = path.removeprefix("en/")
        assert set(reading.switch) == {"ko", "en"}, path
        for lang, href in reading.switch.items():
            want = inner if lang == "ko" else f"en/{inner}"
            assert href == site_url + want, f"/{path}: the {lang} switch goes to {href}"
            assert _read(site, want).lang == lang


def test_sitemaps_name_each_pages_languages(site):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    for edition in ("", "en/"):
        urls = ET.parse(site / edition / "sitemap.xml").getroot().findall("s:url", ns)
        assert len(urls) >= 30
        for url in urls:
            loc = url.find("s:loc", ns).text
            links = {link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)}
            assert set(links) == {"ko", "en", "x-default"} and loc in links.values(), loc
            assert links["x-default"] == links["ko"] and links["en"] == links["ko"].replace("/handbook/", "/handbook/en/", 1)


def test_each_edition_has_its_own_search_in_its_language(site):
    korean = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    english = json.loads((site / "en/search/search_index.json").read_text(encoding="utf-8"))
    assert korean["config"]["lang"] == ["ko", "en"] and english["config"]["lang"] == ["en"]
    assert not any(HANGUL.search(d["title"]) for d in english["docs"])
    assert all(not d["location"].startswith(("en/", "../")) for d in english["docs"])
    # a checked number's tooltip (where its value comes from) is no text of the page's to search
    from project import WORDS

    for index, lang in ((korean, "ko"), (english, "en")):
        assert not any(WORDS[lang]["claim source"] in d["text"] for d in index["docs"]), lang


@pytest.mark.browser
@pytest.mark.parametrize(("term", "forms"), [("mask", {"mask", "masks", "masked"}), ("scaling", {"scaling"}),
                                             ("padded", {"padded"})])
def test_english_search_finds_every_form_that_starts_with_a_word(base, browser, term, forms):
    """A search is a prefix search: "mask" finds masks and masked too. (lunr's stemmer, which would
    turn "scaling" in the index into "scale", is left out: with it, "scaling" found nothing.)"""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(base + "en/", wait_until="networkidle")
    page.locator("input.md-search__input").focus()
    page.keyboard.type(term)  # as a person types: key events, which Material listens for
    # The whole word's results (a link carries the words it matched), not a part's. Not the first
    # mark's visibility: with code kept out of previews the best result may mark nothing in view.
    page.locator(f'.md-search-result__item a[href*="h={term}"]').first.wait_for(state="attached")
    marked = {m.lower() for m in page.locator(".md-search-result__item mark").all_inner_texts()}
    assert forms <= marked, marked
    page.close()


def test_an_editions_words_are_checked_against_what_the_build_writes():
    from handbook.editions import WORD_KEYS, word_problems
    from project import WORDS

    assert all(word_problems(words, lang) == [] for lang, words in WORDS.items()) and set(WORDS["en"]) == set(WORD_KEYS)
    words = {k: v for k, v in WORDS["en"].items() if k != "menu"} | {"menus": "Menu", "scroll": "", "checks failed": "Failed"}
    assert word_problems(words, "mkdocs.fr.yml: handbook: words") == [
        "mkdocs.fr.yml: handbook: words: no word for 'menu' (the name of the header's menu button)",
        "mkdocs.fr.yml: handbook: words: 'menus' is not a word the build writes (it writes "
        f"{sorted(WORD_KEYS)})",
        "mkdocs.fr.yml: handbook: words: the word for 'scroll' is not text: ''",
        "mkdocs.fr.yml: handbook: words: the word for 'checks failed' holds {} once, where the count goes"]
