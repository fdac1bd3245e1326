"""Every claim the prose makes holds, every number in the prose is a claim, and the checker can fail."""

import re

import glue
import pytest
from hypothesis import given
from hypothesis import strategies as st

PAGES = sorted(glue.DOCS.rglob("*.md"))


def _claims():
    for page in PAGES:
        yield from glue.claims(page.read_text(encoding="utf-8"), f"docs/{page.relative_to(glue.DOCS)}")


CLAIMS = list(_claims())


def test_the_causal_chapter_makes_claims():
    assert sum(c.file == "docs/causal.md" for c in CLAIMS) >= 30


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.where)
def test_claim_holds(claim):
    problem = claim.check()
    assert problem is None, problem


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.where)
def test_claim_fails_when_the_prose_changes(claim):
    # Editing the literal must break the claim: no claim is true whatever the prose says.
    edited = glue.Claim(claim.file, claim.line, _edit(claim.literal), claim.snippet, claim.expr)
    assert edited.check() is not None, f"{claim.where}: `{edited.literal}` passes as well as `{claim.literal}`"


def _edit(literal: str) -> str:
    """The same literal with its last digit changed; without digits, its last word flipped."""
    digits = list(re.finditer(r"\d", literal))
    if digits:
        last = digits[-1]
        return literal[: last.start()] + str((int(last[0]) + 1) % 10) + literal[last.end() :]
    words = list(re.finditer(r"True|False|nan|inf", literal))
    if words:
        last = words[-1]
        flipped = {"True": "False", "False": "True", "nan": "0", "inf": "0"}[last[0]]
        return literal[: last.start()] + flipped + literal[last.end() :]
    return "'?'"  # a string without digits


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_number_in_prose_is_a_claim(page):
    assert glue.prose_numbers(page.read_text(encoding="utf-8"), f"docs/{page.name}") == []


# The checker itself --------------------------------------------------------------------------


def _check(markdown: str) -> list[str]:
    return [p for c in glue.claims(markdown, "docs/x.md") if (p := c.check())]


def test_wrong_claim_names_file_line_and_both_values():
    text = 'Intro.\n\nThe second row is `[0.5, 0.6, 0, 0]`{ data-claim="causal/weights.py: weights[1]" }.\n'
    [problem] = _check(text)
    assert problem.startswith("docs/x.md:3:")
    assert "the prose says [0.5, 0.6, 0, 0]" in problem
    assert "the snippet gives [0.5, 0.5, 0.0, 0.0]" in problem


def test_claims_inside_code_blocks_are_examples_not_claims():
    text = '```md\n`9`{ data-claim="causal/weights.py: T" }\n```\n'
    assert glue.claims(text, "docs/x.md") == []


@pytest.mark.parametrize(
    "bad",
    [
        '`4`{ data-claim="causal/weights.py T" }',  # no ": "
        '`4`{ data-claim="weights: T" }',  # not a .py file
        '`4`{data-claim=causal/weights.py: T}',  # unquoted
        '`2.13`{ data-claim="x/y.py: torch.__version__" }',  # Markdown would read __ as bold
        '`2.0`{ data-claim="causal/steps.py: 4**0.5" }',  # ** touching a name: bold
    ],
)
def test_malformed_claims_are_errors(bad):
    with pytest.raises(ValueError, match="docs/x.md:1"):
        glue.claims(bad, "docs/x.md")


def test_missing_snippet_or_bad_expression_is_reported():
    assert "cannot be checked" in _check('`4`{ data-claim="causal/nope.py: T" }')[0]
    assert "cannot be checked" in _check('`4`{ data-claim="causal/weights.py: no_such_name" }')[0]


@pytest.mark.parametrize(
    ("literal", "value", "ok"),
    [
        ("0", 0.0, True),
        ("0", 1e-9, False),  # an integer means exactly that integer
        ("0.3333", 1 / 3, True),
        ("0.3333", 0.33336, False),
        ("1/3", 1 / 3, True),
        ("1/3", 0.3333, False),
        ("100%", 1.0, True),
        ("33.3%", 1 / 3, True),
        ("-inf", float("-inf"), True),
        ("−inf", float("-inf"), True),  # the typographic minus sign reads the same
        ("inf", float("-inf"), False),
        ("nan", float("nan"), True),
        ("1e-9", 1.2e-9, True),
        ("1e-9", 2e-9, False),
        ("True", True, True),
        ("1", True, False),  # a bool is not a number
        ("(2, 3)", [2, 3], True),
        ("[1, 0]", [1.0, 0.0, 0.0], False),
        ("1.0000", [1.0, 0.99999997], True),  # one number against every element
        ("'한'", "한", True),
    ],
)
def test_literal_precision(literal, value, ok):
    assert glue.matches(glue.parse_literal(literal), value) is ok


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_what_the_tables_show_reads_back_as_a_claim(x):
    # A number copied from a generated table into the prose is a claim that holds.
    assert glue.matches(glue.parse_literal(glue.fmt(x)), x)


def test_prose_numbers_are_found():
    text = "Rows sum to 1.\nA `1` in code, $1$ in math, float16 in a name, and `2`{ data-claim=\"a.py: b\" }.\n"
    assert glue.prose_numbers(text, "docs/x.md") == ["docs/x.md:1: number '1' in prose is not a claim: Rows sum to 1."]


def test_changing_the_snippet_breaks_its_claims(tmp_path, monkeypatch):
    # Same snippet, one number changed, so its output changes: some claim about it must fail
    # (not all: "masked weights are exactly 0" rightly holds for any length).
    (tmp_path / "causal").mkdir()
    source = (glue.SNIPPETS / "causal/weights.py").read_text(encoding="utf-8")
    (tmp_path / "causal/weights.py").write_text(source.replace("T = 4", "T = 5"), encoding="utf-8")
    monkeypatch.setattr(glue, "SNIPPETS", tmp_path)
    monkeypatch.setattr(glue, "_runs", {})
    about_weights = [c for c in CLAIMS if c.snippet == "causal/weights.py"]
    assert about_weights and any(c.check() is not None for c in about_weights)
