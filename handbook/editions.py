"""One site in more than one language. Each language is an edition: the first one named in the
plugin's ``editions`` (Korean) is built from ``mkdocs.yml`` and ``docs/`` at the site's root; every
other one from ``mkdocs.<lang>.yml`` and ``docs-<lang>/`` into ``<lang>/`` under it, in the same
process, right after it. The editions share the snippets, their runs and the labs' runs, so each
snippet and each notebook executes once however many languages show it.

The editions differ only in words. A page of one edition has its counterpart, under the same name,
in every other; the two claim the same things of the same snippets and quote the same library
source. Where a snippet prints or draws words, ``<chapter>/x.<lang>.py`` beside ``x.py`` is that
language's variant: the same code with other strings (``variant_problems``), which the other
edition's pages show in place of ``x.py``. A lab is one source, ``labs/<chapter>.py``, with its text
cells in every language and its code once (``lab_pair_problems``); it includes no variant and
prints nothing that changes with the language, so its code is the same in every edition and runs
once (tests/test_editions.py checks it).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

from . import labs
from .labs import notebook
from .prose import read_claims, read_quotes
from .snippets import Run, Runner

# What the build itself writes on a page, in each edition's language.
WORDS = {
    "ko": {
        "result": "결과",
        "terminal": "터미널 출력",
        "output": "출력",
        "menu": "메뉴 열기",
        "search": "검색 열기",
        "download": "노트북 내려받기 (.ipynb)",
        "scroll": "옆으로 넘겨 보는 표",
        "lab figure": "실습 셀이 그린 그림",
        "example failed": "예제가 실패했습니다",
        "lab failed": "실습이 실패했습니다 (mkdocs serve에서만 보입니다)",
        "lab running": "실습을 실행하는 중입니다. 끝나면 셀마다 출력이 채워집니다 (mkdocs serve에서만 보입니다)",
        "checks failed": "이 페이지의 검사 {}건이 실패했습니다 (mkdocs serve에서만 보입니다)",
    },
    "en": {
        "result": "Result",
        "terminal": "Terminal output",
        "output": "Output",
        "menu": "Open the menu",
        "search": "Open search",
        "download": "Download the notebook (.ipynb)",
        "scroll": "Table, scrolls sideways",
        "lab figure": "A figure drawn by the lab cell",
        "example failed": "The example failed",
        "lab failed": "The lab failed (shown only by mkdocs serve)",
        "lab running": "The lab is still running; each cell's output appears when it ends (shown only by mkdocs serve)",
        "checks failed": "{} check(s) on this page failed (shown only by mkdocs serve)",
    },
}


def variant(name: str, lang: str | None) -> str:
    """``chapter/x.py`` as ``lang``'s variant's name, ``chapter/x.<lang>.py``."""
    if not name.endswith(".py"):
        raise ValueError(f"a snippet's name ends in .py, not {name!r}")
    return f"{name[:-3]}.{lang}.py" if lang else name


def is_variant(name: str) -> bool:
    """Whether ``chapter/x.<lang>.py`` is some language's variant of ``chapter/x.py``."""
    return Path(name).suffixes[-2:-1] in ([f".{lang}"] for lang in WORDS)


def lab_code(lab: Path, lang: str, runner: EditionRunner) -> list[str]:
    """A lab's code cells as the ``lang`` edition (its ``runner``) runs them, each ``# snippet:``
    cell as the code that edition shows. Two editions' labs whose code is equal share one run
    (handbook/plugin.py)."""
    book = notebook(lab, runner.folder, lang, resolve=runner.name)
    return [c.source for c in book.cells if c.cell_type == "code"]


class EditionRunner:
    """A ``Runner`` as one edition's pages see it: ``x.py`` is its language's variant where one
    exists. Runs stay the shared runner's, so a snippet both editions show runs once."""

    def __init__(self, runner: Runner, lang: str | None) -> None:
        self.runner, self.lang, self.folder = runner, lang, runner.folder

    def name(self, name: str) -> str:
        if self.lang and (self.folder / variant(name, self.lang)).is_file():
            return variant(name, self.lang)
        return name

    def run(self, name: str) -> Run:
        return self.runner.run(self.name(name))

    def source(self, name: str) -> str | None:
        return self.runner.source(self.name(name))

    def ran(self, source: str) -> str | None:
        return self.runner.ran(source)


def _blanked(source: str) -> str:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


def variant_problems(folder: Path) -> list[str]:
    """Each variant that is more than other words for its snippet: it must exist beside ``x.py``
    and differ from it only in string constants (f-string text, labels, comments)."""
    problems = []
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(folder).as_posix()
        if not is_variant(name):
            continue
        stem, lang = name.rsplit(".", 2)[0], path.suffixes[-2][1:]
        base = folder / f"{stem}.py"
        if not base.is_file():
            problems.append(f"snippets/{name}: a {lang} variant of snippets/{stem}.py, which does not exist")
        elif _blanked(path.read_text(encoding="utf-8")) != _blanked(base.read_text(encoding="utf-8")):
            problems.append(f"snippets/{name} differs from snippets/{stem}.py in more than its strings: "
                            "a variant may change words, never code")
    return problems


def claims_of(text: str, file: str = "") -> Counter[str]:
    """What a page (``file``, which says whether it is a lab) claims: ``snippet: expression`` for
    each claim and ``quote module.name: passage`` for each quote of library source, counted (a
    sentence in another language may state two of them in the other order)."""
    return (Counter(f"{c.snippet}: {c.expr}" for c in read_claims(text, file, []))
            + Counter(f"quote {q.name}: {q.passage}" for q in read_quotes(text, file, [])))


def claim_difference(mine: Counter[str], theirs: Counter[str]) -> str | None:
    """How ``theirs`` differs from ``mine``, in words, or None."""
    if mine == theirs:
        return None
    missing, extra = list((mine - theirs).elements()), list((theirs - mine).elements())
    return "; ".join(filter(None, [f"missing {missing}" if missing else "", f"extra {extra}" if extra else ""]))


def pair_problems(root: Path, other: Path) -> list[str]:
    """How two editions' pages (``docs`` and ``docs-en``) fail to pair up: a page with no
    counterpart, or a counterpart that claims other things (a lab's languages pair up in its one
    source: ``lab_pair_problems``)."""
    def sources(folder: Path) -> dict[str, Path]:
        return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*.md"))
                if "overrides" not in p.parts}

    mine, theirs = sources(root), sources(other)
    problems = [f"{root.name}/{n} has no counterpart {other.name}/{n}" for n in mine if n not in theirs]
    problems += [f"{other.name}/{n} has no counterpart {root.name}/{n}" for n in theirs if n not in mine]
    for name in sorted(mine.keys() & theirs.keys()):
        difference = claim_difference(claims_of(_read(mine[name])), claims_of(_read(theirs[name])))
        if difference:
            problems.append(f"{other.name}/{name} claims other things than {root.name}/{name}: {difference}")
    return problems


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def lab_pair_problems(source: Path, langs: list[str]) -> list[str]:
    """How the languages of a lab source fail to pair up: between two code cells, one language has
    more text cells than another (its text would sit beside other code), or a language's text
    claims other things than the first language's."""
    gaps: list[dict[str, int]] = [{}]
    for cell in labs.cells_of(source):
        if cell.lang is None:
            gaps.append({})
        else:
            gaps[-1][cell.lang] = gaps[-1].get(cell.lang, 0) + 1
    problems = []
    for number, gap in enumerate(gaps):
        if len({gap.get(lang, 0) for lang in langs}) > 1:
            where = "before the first code cell" if number == 0 else f"after code cell {number}"
            counts = ", ".join(f"{lang} {gap.get(lang, 0)}" for lang in langs)
            problems.append(f"{labs.shown(source)}: {where}, the languages have different numbers of text cells ({counts})")
    first = claims_of(labs.prose(source, langs[0]), labs.shown(source))
    for lang in langs[1:]:
        if difference := claim_difference(first, claims_of(labs.prose(source, lang), labs.shown(source))):
            problems.append(f"{labs.shown(source)}: its {lang} text claims other things than its {langs[0]} text: {difference}")
    return problems


def alternates(editions: dict[str, str], lang: str, url: str, site_url: str | None) -> list[dict[str, Any]]:
    """Each edition's link to the page at ``url`` (its URL within an edition): absolute under
    ``site_url`` (the root edition's) when that is known, else relative to the page."""
    root = next(iter(editions))
    folder = {code: "" if code == root else f"{code}/" for code in editions}
    links = []
    for code, name in editions.items():
        if site_url:
            href = f"{site_url.rstrip('/')}/{folder[code]}{url}"
        else:
            href = "../" * f"{folder[lang]}{url}".count("/") + f"{folder[code]}{url}" or "./"
        links.append({"lang": code, "name": name, "href": href, "current": code == lang})
    return links
