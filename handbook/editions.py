"""One site in more than one language. Each language is an edition: the first one named in the
plugin's ``editions`` (Korean) is built from ``mkdocs.yml`` and ``docs/`` at the site's root; every
other one from ``mkdocs.<lang>.yml`` and ``docs-<lang>/`` into ``<lang>/`` under it, in the same
process, right after it. The editions share the snippets, their runs and the labs' runs, so each
snippet and each notebook executes once however many languages show it.

The editions differ only in words. A page of one edition has its counterpart, under the same name,
in every other; the two claim the same things of the same snippets and quote the same library
source. Where a snippet prints or draws words, its chapter's catalogue ``<chapter>/<lang>.yml``
gives them in that language, and ``x.<lang>.py`` names the variant it makes: the same code with
those strings (``catalogue.py``), which the other edition's pages show in place of ``x.py``. A lab is one source, ``labs/<chapter>.py``, with its text
cells in every language and its code once (``lab_pair_problems``); it includes no variant and
prints nothing that changes with the language, so its code is the same in every edition and runs
once (tests/site/test_editions.py checks it).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from . import labs
from .catalogue import Catalogues
from .labs import notebook
from .prose import read_claims
from .snippets import Run, Runner

# What the build itself writes on a page: each edition's config gives them in its language (the
# handbook/editions plugin's ``words``), and names every one of these.
WORD_KEYS = {
    "result": "the tab of a snippet's rendered result",
    "terminal": "the tab of what a snippet printed",
    "output": "the title of a lab cell's output",
    "menu": "the name of the header's menu button",
    "search": "the name of the header's search button",
    "download": "the title of a lab's notebook download",
    "scroll": "the name of a table that scrolls sideways",
    "lab figure": "the alt text of a lab figure no chapter shows",
    "example failed": "the title over a snippet that failed (mkdocs serve)",
    "lab failed": "the title over a lab that failed (mkdocs serve)",
    "lab running": "the notice on a lab page whose run goes on (mkdocs serve)",
    "example running": "the notice in place of an example whose snippet still runs (mkdocs serve)",
    "checks failed": "the title over a page's failed checks, {} their count (mkdocs serve)",
    "labs": "the nav's section of labs, where the config's nav has none",
    "claim source": "what a checked number's tooltip says before the snippet and expression it comes from",
}


def word_problems(words: dict[str, str], where: str) -> list[str]:
    """What is wrong with an edition's ``words``: a key it lacks or one the build does not use, or
    a word that is not text (``checks failed`` holds ``{}``, the count)."""
    problems = [f"{where}: no word for {key!r} ({what})" for key, what in WORD_KEYS.items() if key not in words]
    problems += [f"{where}: {key!r} is not a word the build writes (it writes {sorted(WORD_KEYS)})"
                 for key in words if key not in WORD_KEYS]
    problems += [f"{where}: the word for {key!r} is not text: {value!r}" for key, value in words.items()
                 if key in WORD_KEYS and not (isinstance(value, str) and value.strip())]
    if isinstance(words.get("checks failed"), str) and words["checks failed"].count("{}") != 1:
        problems.append(f"{where}: the word for 'checks failed' holds {{}} once, where the count goes")
    return problems


def read_words(config_file: Path) -> dict[str, str]:
    """The ``words`` an edition's config (``mkdocs.yml``, ``mkdocs.en.yml``) gives the handbook
    plugin, read as MkDocs reads the file (``INHERIT``, ``!ENV``), for tools and tests."""
    from mkdocs.utils.yaml import get_yaml_loader, yaml_load

    with open(config_file, encoding="utf-8") as f:
        config = yaml_load(f, loader=get_yaml_loader())
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "handbook/editions" in plugin:
            return dict(plugin["handbook/editions"].get("words", {}))
    raise ValueError(f"{config_file}: no handbook/editions plugin with words")


def variant(name: str, lang: str | None) -> str:
    """``chapter/x.py`` as ``lang``'s variant's name, ``chapter/x.<lang>.py``."""
    if not name.endswith(".py"):
        raise ValueError(f"a snippet's name ends in .py, not {name!r}")
    return f"{name[:-3]}.{lang}.py" if lang else name


def is_variant(name: str, langs: list[str]) -> bool:
    """Whether ``chapter/x.<lang>.py`` is the variant of ``chapter/x.py`` for one of ``langs``."""
    return Path(name).suffixes[-2:-1] in ([f".{lang}"] for lang in langs)


def lab_code(lab: Path, lang: str, runner: EditionRunner) -> list[str]:
    """A lab's code cells as the ``lang`` edition (its ``runner``) runs them, each ``# snippet:``
    cell as the code that edition shows. Two editions' labs whose code is equal share one run
    (handbook/plugins/labs.py)."""
    book = notebook(lab, runner.folder, lang, shows=runner.source)
    return [c.source for c in book.cells if c.cell_type == "code"]


class EditionRunner:
    """A ``Runner`` as one edition's pages see it: ``x.py`` is its language's variant where one
    exists. Runs stay the shared runner's, so a snippet both editions show runs once."""

    def __init__(self, runner: Runner, lang: str | None) -> None:
        self.runner, self.lang, self.folder = runner, lang, runner.folder

    def name(self, name: str) -> str:
        if self.lang and name.endswith(".py") and self.runner.source(variant(name, self.lang)) is not None:
            return variant(name, self.lang)
        return name

    def run(self, name: str) -> Run:
        return self.runner.run(self.name(name))

    def source(self, name: str) -> str | None:
        return self.runner.source(self.name(name))

    def waiting(self, name: str) -> Any:
        return self.runner.waiting(self.name(name))

    def ran(self, source: str) -> str | None:
        return self.runner.ran(source)


def variant_problems(folder: Path, langs: list[str]) -> list[str]:
    """What is wrong with the snippets' words in other languages: a catalogue's problems
    (``catalogue.py``), and a variant written as a file of its own (``x.en.py``), a copy of the
    code that would drift from the snippet's."""
    problems = [f"snippets/{name}: a copy of snippets/{name.rsplit('.', 2)[0]}.py for {name.rsplit('.', 2)[1]!r}: "
                f"its words go in snippets/{name.split('/')[0]}/{name.rsplit('.', 2)[1]}.yml, the code stays once"
                for name in (p.relative_to(folder).as_posix() for p in sorted(folder.rglob("*.py")))
                if is_variant(name, langs[1:])]
    return problems + Catalogues(folder).problems(langs)


def claims_of(text: str, file: str = "") -> Counter[str]:
    """What a page (``file``, which says whether it is a lab) claims: ``snippet: expression`` for
    each claim and ``quote module.name: passage`` for each quote of library source, counted (a
    sentence in another language may state two of them in the other order)."""
    return Counter(f"{'quote ' if c.form == 'quote' else ''}{c.snippet}: {c.expr}" for c in read_claims(text, file, []))


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
