"""Check an edition's pages against the Korean ones without building the site, for a translator:

    .venv/bin/python tools/edition.py check causal softmax     # docs-en/causal.md, labs/causal.py, variants

For each chapter: its claims and bare numbers (the build's own check, with the English variants of
the snippets), its claim list against the Korean page's, Korean text outside <span lang="ko">; its
lab's English text the same way (the lab runs in a kernel when a language's text makes claims of its
own), paired with the Korean text cell for cell, and its code as each edition runs it; and the
chapter's snippet variants. Prints the problems, or "ok".
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402

from handbook import labs, runs  # noqa: E402
from handbook.claims import LabValues  # noqa: E402
from handbook.kernels import Server  # noqa: E402
from handbook.editions import (  # noqa: E402
    EditionRunner, claim_difference, claims_of, lab_code, lab_pair_problems, variant_problems)
from handbook.prose import check_page  # noqa: E402
from handbook.snippets import Runner  # noqa: E402

HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
KOREAN_SPAN = re.compile(r'<span lang="ko">[^<]*</span>')


def korean_outside_spans(text: str, file: str) -> list[str]:
    """Lines of an English page holding Hangul that no <span lang="ko"> marks as Korean."""
    return [f"{file}:{n}: Korean text outside <span lang=\"ko\">: {line.strip()[:80]}"
            for n, line in enumerate(text.split("\n"), 1) if HANGUL.search(KOREAN_SPAN.sub("", line))]


def check(name: str, lang: str, runner: EditionRunner) -> list[str]:
    problems = []
    ours, theirs = ROOT / f"docs-{lang}/{name}.md", ROOT / f"docs/{name}.md"
    if theirs.is_file() and not ours.is_file():
        problems.append(f"{ours.relative_to(ROOT)} is missing")
    elif theirs.is_file():
        file, text = str(ours.relative_to(ROOT)), ours.read_text(encoding="utf-8")
        problems += check_page(text, file, runner)
        if difference := claim_difference(claims_of(theirs.read_text(encoding="utf-8")), claims_of(text)):
            problems.append(f"{file}: claims differ from the Korean page's: {difference}")
        problems += korean_outside_spans(text, file)
    lab = ROOT / "labs" / f"{name}.py"
    if lab.is_file():  # one source: its text in each language, its code once
        file, korean = labs.shown(lab), EditionRunner(runner.runner, None)
        try:
            problems += check_page(labs.prose(lab, lang), file, runner, _lab_run(lab, lang, runner))
            problems += lab_pair_problems(lab, ["ko", lang])
            problems += korean_outside_spans(labs.prose(lab, lang), file)
            problems += _lab_code(lab, lang, runner)
            if values := _lab_run(lab, "ko", korean):  # the Korean text's own claims: else only a build checks them
                problems += [p for p in check_page(labs.prose(lab, "ko"), file, korean, values) if "(lab: " in p]
        except labs.LabError as error:
            problems.append(str(error))
    problems += [p for p in variant_problems(ROOT / "snippets", ["ko", lang]) if p.startswith(f"snippets/{name}/")]
    return problems


def _lab_run(source: Path, lang: str, runner: EditionRunner) -> LabValues | None:
    """What the lab's own claims in ``lang`` read: the lab run in a kernel, as the build runs it
    (only when that text makes such claims)."""
    if not (claims := labs.lab_claims(source, lang)):
        return None
    text = nbformat.writes(labs.notebook(source, ROOT / "snippets", lang, shows=runner.source))
    with Server() as server:
        book = runs.execute(labs.shown(source), runs.with_claims(text, claims), "tools/edition.py", server)
    return labs.lab_values(source, lang, book)


def _lab_code(source: Path, lang: str, runner: EditionRunner) -> list[str]:
    """The lab's code as ``lang``'s edition runs it is the Korean edition's: a snippet with a
    variant in it would make the lab run once more in every build."""
    pairs = zip(lab_code(source, lang, runner), lab_code(source, "ko", EditionRunner(runner.runner, None)))
    return [f"{labs.shown(source)}: code cell {number} differs from the Korean edition's as it runs (a snippet "
            f"with a variant): the lab would run twice" for number, (a, b) in enumerate(pairs) if a != b]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "check":
        print(__doc__)
        return 2
    runner = EditionRunner(Runner(ROOT / "snippets"), "en")
    problems = [p for name in argv[1:] for p in check(name, "en", runner)]
    print("\n".join(problems) if problems else "ok")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
