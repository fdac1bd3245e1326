"""Check an edition's pages against the Korean ones without building the site, for a translator:

    .venv/bin/python tools/edition.py check causal softmax     # docs-en/causal.md, labs, variants

For each chapter: its claims and bare numbers (the build's own check, with the English variants of
the snippets), its claim list against the Korean page's, Korean text outside <span lang="ko">, the
lab's claims (the lab runs in a kernel when it makes claims of its own, the Korean lab's too) and
code cells, and the chapter's snippet variants. Prints the problems, or "ok".
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jupytext  # noqa: E402
import nbformat  # noqa: E402

from handbook import labs  # noqa: E402
from handbook.claims import LabValues  # noqa: E402
from handbook.editions import (  # noqa: E402
    EditionRunner, claim_difference, claims_of, lab_code, page_text, variant_problems)
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
    for folder, suffix in (("", ".md"), ("labs/", ".py")):
        ours, theirs = ROOT / f"docs-{lang}/{folder}{name}{suffix}", ROOT / f"docs/{folder}{name}{suffix}"
        if not theirs.is_file():
            continue
        if not ours.is_file():
            problems.append(f"{ours.relative_to(ROOT)} is missing")
            continue
        file = str(ours.relative_to(ROOT))
        problems += check_page(page_text(ours), file, runner, _lab_run(ours, file, runner) if suffix == ".py" else None)
        if difference := claim_difference(claims_of(page_text(theirs)), claims_of(page_text(ours))):
            problems.append(f"{file}: claims differ from the Korean page's: {difference}")
        prose = ours.read_text(encoding="utf-8") if suffix == ".md" else page_text(ours)
        problems += korean_outside_spans(prose, file)
        if suffix == ".py":
            problems += _lab_code(ours, theirs, file, runner)
            korean, korean_file = EditionRunner(runner.runner, None), str(theirs.relative_to(ROOT))
            if lab := _lab_run(theirs, korean_file, korean):  # the Korean lab's own claims: else only a build checks them
                problems += [p for p in check_page(page_text(theirs), korean_file, korean, lab) if "(lab: " in p]
    problems += [p for p in variant_problems(ROOT / "snippets") if p.startswith(f"snippets/{name}/")]
    return problems


def _lab_run(source: Path, file: str, runner: EditionRunner) -> LabValues | None:
    """What the lab's own claims read: the lab run in a kernel, as the build runs it (only when it
    makes such claims)."""
    if not (claims := labs.lab_claims(source)):
        return None
    text = nbformat.writes(labs.notebook(source, ROOT / "snippets", resolve=runner.name))
    return labs.lab_values(source, labs.execute(file, labs.with_claims(text, claims), "tools/edition.py"))


def _lab_code(ours: Path, theirs: Path, file: str, runner: EditionRunner) -> list[str]:
    """The lab's cells are the Korean lab's kinds, and its code is the Korean code as run: words
    belong in the Markdown cells, or the lab runs once more in every build."""
    kinds = [[c.cell_type for c in jupytext.read(p, fmt="py:percent").cells] for p in (ours, theirs)]
    if kinds[0] != kinds[1]:
        return [f"{file}: not the same cells as the Korean lab (kinds {kinds[0]} vs {kinds[1]})"]
    korean = EditionRunner(runner.runner, None)
    pairs = zip(lab_code(ours, runner), lab_code(theirs, korean))
    return [f"{file}: code cell {number} differs from the Korean lab's as it runs (words in its code, or a "
            f"snippet with a variant): the lab would run twice" for number, (a, b) in enumerate(pairs) if a != b]


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
