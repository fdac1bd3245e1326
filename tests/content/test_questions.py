"""Predict, then reveal: every chapter asks its reader at least two questions before it shows the run
that answers them, each a folded block (``??? question "…"``: a click opens it, no script) whose answer
is checked, as any number in prose is (at least one claim in it), and both editions ask as many."""

import re

import pytest
from project import LABS, ROOT

CHAPTERS = sorted(p.stem for p in LABS.glob("*.py"))  # one lab per chapter
# A folded question and its indented body (blank lines inside it included).
QUESTION = re.compile(r'(?m)^\?\?\? question "([^"\n]+)"\n((?:(?: {4}.*)?\n)+)')


def questions(text: str) -> list[tuple[str, str]]:
    return QUESTION.findall(text)


def test_a_question_is_read_with_its_answer_and_an_open_one_is_not_a_question():
    text = '??? question "Which row?"\n\n    Guess.\n\n    Row `1`{ data-claim="a.py: x" }.\n\nAfter.\n'
    assert questions(text) == [("Which row?", '\n    Guess.\n\n    Row `1`{ data-claim="a.py: x" }.\n\n')]
    assert questions(text.replace("???", "???+")) == []


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_asks_before_it_reveals_and_checks_each_answer(chapter):
    counts = {}
    for folder in ("docs", "docs-en"):
        found = questions((ROOT / folder / f"{chapter}.md").read_text(encoding="utf-8"))
        assert len(found) >= 2, f"{folder}/{chapter}.md: {len(found)} question(s)"
        for title, body in found:
            assert "data-claim=" in body, f"{folder}/{chapter}.md: {title!r} has no checked answer"
        counts[folder] = len(found)
    assert counts["docs"] == counts["docs-en"], counts
