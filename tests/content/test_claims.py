"""Every claim the prose makes holds, every number in the prose is a claim, and the checker can fail:
every mutant of every claim (digits, signs, zeros, inf/nan, bound directions, elements) is caught.
Every quote of library source the prose makes is in the installed source, and a changed one is caught."""

import dataclasses
import shutil

import markdown
import pytest
from claimcheck import words
from handbook.claims import Claim
from claimcheck.forms import FORMS, Approx, Bound, Exactly, Range, Sequence, matches, parse, parse_literal
from handbook.labs import prose as lab_prose
from handbook.prose import check_page, prose_numbers, read_claims
from handbook.values import fmt
from handbook.editions import EditionRunner
from handbook.snippets import Runner
from project import EDITIONS, LABS, LANGS, ROOT, RUNNER, SNIPPETS, runner_for
from hypothesis import given
from hypothesis import strategies as st

PAGES = {}  # every edition's chapters and labs; a lab's text in each language, read from its one source
for folder, lang in zip(EDITIONS, LANGS.values()):
    PAGES |= {f"{folder}/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / folder).glob("*.md"))}
    PAGES |= {f"{folder}/labs/{p.name}": lab_prose(p, lang) for p in sorted(LABS.glob("*.py"))}


def _claims():
    for file, text in PAGES.items():
        problems = []
        # A lab's own claims read its executed notebook: tests/content/test_labs.py checks them on the site's runs.
        yield from (c for c in read_claims(text, file, problems) if c.snippet != "lab")
        assert not problems, problems


CLAIMS = list(_claims())  # quotes of library source among them
QUOTES = [c for c in CLAIMS if c.form == "quote"]


def test_quotes_guard_the_sentences_about_library_code():
    assert sum(q.file == "docs/decoding.md" for q in QUOTES) >= 3
    assert {q.target.split(".")[0] for q in QUOTES} >= {"torch", "transformers", "keras"}


@pytest.mark.parametrize("quote", list({(q.target, q.expr): q for q in QUOTES}.values()), ids=lambda q: q.where)
def test_every_quote_reaches_the_reader_as_plain_code(quote):
    # Markdown must take the attribute list whole: no emphasis inside the passage, nothing left as text.
    span = f'`{quote.literal}`{{ data-quote="{quote.target}: {quote.expr}" }}'
    extensions = ["attr_list", "pymdownx.inlinehilite", "pymdownx.arithmatex"]  # mkdocs.yml's inline ones
    html = markdown.markdown(f"Text {span} text.", extensions=extensions, extension_configs={
        "pymdownx.arithmatex": {"generic": True}})
    assert "data-quote=" in html and "{" not in html.split("</code>")[-1], html


def test_the_causal_chapter_makes_claims():
    assert sum(c.file == "docs/causal.md" for c in CLAIMS) >= 30


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.where)
def test_claim_holds(claim):
    problem = claim.check(runner_for(claim.file))
    assert problem is None, problem


def mutants(claim: Claim) -> list[tuple[str, Claim]]:
    """(kind, claim) for each edit of what a claim states that must break it: its form's mutants
    (claimcheck's registry: a form brings its own, and claimcheck/tests checks each on the form's
    examples). A quote's passage is what it states: its edit is the source a version bump changed."""
    form = FORMS[claim.form] if claim.form else FORMS[parse(claim.literal).form]
    written = getattr(claim, form.states)
    return [(kind, dataclasses.replace(claim, **{form.states: edit})) for kind, edit in form.mutants(written, form.value(written))]


# Another edition's claim with the same literal and expression is the same check: mutated once.
_DISTINCT = list({(c.snippet, c.expr, c.literal): c for c in reversed(CLAIMS)}.values())[::-1]
MUTANTS = [(claim, kind, mutant) for claim in _DISTINCT for kind, mutant in mutants(claim)]


# One test a snippet (or quoted module), trying every mutant of the claims about it: 2,423 mutants as
# 2,423 tests spent more on pytest's and xdist's bookkeeping of each than on the check (3-6 ms a test,
# 0.2-2 ms a check).
BY_SNIPPET: dict[str, list[tuple[Claim, str, Claim]]] = {}
for _mutant in MUTANTS:
    BY_SNIPPET.setdefault(_mutant[0].snippet, []).append(_mutant)


@pytest.mark.parametrize("snippet", sorted(BY_SNIPPET))
def test_every_mutant_fails(snippet):
    passing = [f"{claim.where}: {kind} mutant `{mutant.literal}` ({mutant.expr}) passes as well as `{claim.literal}`"
               for claim, kind, mutant in BY_SNIPPET[snippet] if mutant.check(runner_for(claim.file)) is None]
    assert not passing, "\n".join(passing)


def test_mutants_of_every_kind_are_tried():
    kinds = {kind for _, kind, _ in MUTANTS}
    assert {"last digit", "sign", "signed zero", "inf/nan/bool", "bound direction", "range moved",
            "element added", "number word", "bound direction in words", "source changed"} <= kinds, kinds
    # The forms the pages write: each one's mutants are tried on them (the rest on their own
    # examples, in claimcheck/tests/test_engine.py)
    used = {c.form or parse(c.literal).form for c in _DISTINCT}
    assert {"number", "bound", "range", "sequence", "string", "bool", "words", "quote"} <= used <= set(FORMS), used


@pytest.mark.parametrize("file", PAGES)
def test_every_number_in_prose_is_a_claim(file):
    assert prose_numbers(PAGES[file], file) == []


# The checker itself --------------------------------------------------------------------------


def _check(markdown: str) -> list[str]:
    return check_page(markdown, "docs/x.md", RUNNER)


def test_wrong_claim_names_file_line_and_both_values():
    text = 'Intro.\n\nThe second row is `[0.5, 0.6, 0, 0]`{ data-claim="causal/weights.py: weights[1]" }.\n'
    [problem] = _check(text)
    assert problem.startswith("docs/x.md:3:")
    assert "the prose says [0.5, 0.6, 0, 0]" in problem
    assert "the snippet gives [0.5, 0.5, 0.0, 0.0]" in problem


def test_claims_inside_code_blocks_are_examples_not_claims():
    assert _check('```md\n`9`{ data-claim="causal/weights.py: T" }\n```\n') == []


def test_display_math_followed_by_text_hides_nothing():
    # A line that opens with $$…$$ and goes on with prose used to open a "fence" to the end of page.
    text = '$$x$$ 다음 줄부터.\n\n`5`{ data-claim="causal/weights.py: T" } 와 42.\n'
    problems = _check(text)
    assert any("claim `5`" in p for p in problems) and any("'42'" in p for p in problems)


def test_an_unclosed_fence_is_reported():
    assert any("never closed" in p for p in _check("Intro.\n\n$$\nx = 1\n\n`5`{ data-claim=\"causal/weights.py: T\" }\n"))
    assert any("never closed" in p for p in _check("```python\nx = 1\n"))


def test_every_problem_of_a_page_is_reported_in_one_pass():
    text = ('`4`{ data-claim="causal/weights.py T" }\n'  # malformed
            '`5`{ data-claim="causal/weights.py: T" }\n'  # wrong
            'and 42\n')  # bare
    problems = _check(text)
    assert len(problems) == 3, problems


@pytest.mark.parametrize(
    "bad",
    [
        '`4`{ data-claim="causal/weights.py T" }',  # no ": "
        '`4`{ data-claim="weights: T" }',  # not a .py file
        '`4`{data-claim=causal/weights.py: T}',  # unquoted
        '`2.13`{ data-claim="x/y.py: torch.__version__" }',  # Markdown would read __ as bold
        '`2.0`{ data-claim="causal/steps.py: 4**0.5" }',  # ** touching a name: bold
        "`-65504`{ data-claim=\"apis/fully_masked.py: forms['finfo.min'](torch.float16).min()\" }",  # a link
    ],
)
def test_malformed_claims_are_problems(bad):
    problems = []
    assert read_claims(bad, "docs/x.md", problems) == []
    assert problems and problems[0].startswith("docs/x.md:1")


@pytest.mark.parametrize("span", ['`22`{ data-clam="causal/weights.py: T" }', '`22`{ }', '`0.5`{ .claim }'])
def test_a_code_span_with_another_attribute_than_a_claim_is_a_problem(span):
    # It looks like a checked number on the page and is checked by nothing.
    [problem] = _check(f"Intro.\n\nIt has {span} cells.\n")
    assert problem.startswith("docs/x.md:3: a code span with the attribute")


def test_a_constant_expression_proves_nothing():
    [problem] = _check('`0.514`{ data-claim="causal/weights.py: 0.514" }')
    assert "reads no name the snippet defines" in problem
    [problem] = _check('`2`{ data-claim="causal/weights.py: len([1, 2])" }')
    assert "reads no name" in problem


def test_missing_snippet_or_bad_expression_is_reported():
    assert "cannot be checked" in _check('`4`{ data-claim="causal/nope.py: T" }')[0]
    assert "cannot be checked" in _check('`4`{ data-claim="causal/weights.py: no_such_name" }')[0]


def test_a_raising_snippet_is_one_line_naming_it_and_the_line(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/bad.py").write_text("x = 1\nraise ValueError('boom')\n", encoding="utf-8")
    [problem] = check_page('`1`{ data-claim="a/bad.py: x" }', "docs/x.md", Runner(tmp_path))
    assert "snippets/a/bad.py raised ValueError: boom at line 2" in problem
    assert "invalid literal" not in problem and "\n" not in problem


@pytest.mark.parametrize(
    ("literal", "value", "ok"),
    [
        ("0", 0.0, True),
        ("0", 1e-9, False),  # an integer means exactly that integer
        ("0", -0.0, False),  # and the sign of a zero counts
        ("-0", -0.0, True),
        ("-0", 0.0, False),
        ("[-0, -0]", [0.0, 0.0], False),
        ("0.3333", 1 / 3, True),
        ("0.3333", 0.33336, False),
        ("1/3", 1 / 3, True),
        ("1/3", 0.3333, False),
        ("100%", 1.0, True),
        ("33.3%", 1 / 3, True),
        ("-inf", float("-inf"), True),
        ("−inf", float("-inf"), True),  # the typographic minus sign reads the same
        ("inf", float("-inf"), False),
        ("inf", float("nan"), False),
        ("nan", float("inf"), False),
        ("nan", float("nan"), True),
        ("1e-9", 1.2e-9, True),
        ("1e-9", 2e-9, False),
        ("True", True, True),
        ("1", True, False),  # a bool is not a number
        ("(2, 3)", [2, 3], True),
        ("[1, 0]", [1.0, 0.0, 0.0], False),
        ("1.0000", [1.0, 0.99999997], True),  # one number against every element
        ("'한'", "한", True),
        ("< 1e-6", 3.6e-7, True),
        ("< 1e-6", 0.0, True),
        ("< 1e-6", 1e-6, False),
        ("≤ 1e-6", 1e-6, True),
        ("> 0", 0.0, False),
        ("≥ 0", [0.0, 2.0], True),
        ("< 1e-6", float("nan"), False),
        ("40% … 60%", 0.514, True),
        ("40% … 60%", 0.62, False),
        ("0.5 ... 0.6", 0.6, True),
        ("0.514 ± 0.02", 0.533, True),
        ("0.514 ± 0.02", 0.54, False),
        ("[0, < 1e-6]", [0, 3e-7], True),
    ],
)
def test_literal_forms(literal, value, ok):
    assert matches(parse_literal(literal), value) is ok


@pytest.mark.parametrize("bad", ["0.6 … 0.5", "1 ± 0", "< x", "<", "1 ±"])
def test_unreadable_literals_are_errors(bad):
    with pytest.raises(ValueError, match="cannot read"):
        parse_literal(bad)


def test_parsed_forms():
    assert parse_literal("< 1e-6") == Bound("<", 1e-6)
    assert parse_literal("≥ -1") == Bound(">=", -1.0)
    assert parse_literal("0.40 … 0.60") == Range(0.4, 0.6)
    assert parse_literal("0.514 ± 0.02") == Approx(0.514, 0.02)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_what_the_tables_show_reads_back_as_a_claim(x):
    # A number copied from a generated table into the prose is a claim that holds, -0 included.
    assert matches(parse_literal(fmt(x)), x)


def test_prose_numbers_are_found():
    text = "Rows sum to 1.\nA `1` in code, $1$ in math, float16 in a name, and `2`{ data-claim=\"a.py: b\" }.\n"
    assert prose_numbers(text, "docs/x.md") == ["docs/x.md:1: number '1' in prose is not a claim: Rows sum to 1."]


def test_measured_values_in_math_are_found():
    [problem] = prose_numbers(r"Entropy nears $\log 4 \approx 1.3863$.", "docs/x.md")
    assert "\\approx" in problem


@pytest.mark.parametrize("hidden", [r"$= 0.514$", r"$x \approx\, 0.5$", r"$x \sim 3$", r"$x ≈ 2$",
                                    r"$x \approx {16}$", r"$x \simeq -0.5$", r"$\approx \; 1e9$"])
def test_a_measured_value_in_math_is_found_however_it_is_spaced(hidden):
    [problem] = prose_numbers(f"The mean is {hidden} here.", "docs/x.md")
    assert "in math is not checked" in problem
    assert prose_numbers(r"Since $e^0 = 1$ and $\sim$ is a relation, $x \simeq y$.", "docs/x.md") == []


@pytest.mark.parametrize("text", ["It has &#x31;6 rows.", "It has &#49;6 rows.", '<img src="a.svg" alt="8 keys">',
                                  '<abbr title="16 bytes">word</abbr>'])
def test_digits_in_character_references_and_text_attributes_are_prose(text):
    [problem] = prose_numbers(text, "docs/x.md")
    assert "in prose is not a claim" in problem


@pytest.mark.parametrize(("line", "values"), [
    ("It has `22` cells and `[2, 5, 3]` lengths, `-0.7 × 65500` fill, `(배치, 16)` shape.",
     ["22", "[2, 5, 3]", "-0.7 × 65500"]),
    ("API literals `0`, `1`, `-1`, `-inf`, `-1e9`, `0 / 0`, `== 1`, `M == 0`, `dim=-1`.", []),
    ("References `#131863`, `§3.1.1`, `0251105a`, `2024-08`, `2023`, `2.13.0`, `torch 2.1`.", []),
    ("A claimed `22`{ data-claim=\"causal/grid.py: n\" } and a quoted `512`{ data-quote=\"torch.x: y\" }.", []),
    ("Not references: `2.1`, `2048`, `17179869184`.", ["2.1", "2048", "17179869184"]),
])
def test_a_value_in_code_font_must_be_a_claim(line, values):
    from handbook.prose import span_values

    assert span_values(line) == values
    if values:  # and the page check reports it at its line
        assert f"docs/x.md:3: the value `{values[0]}` in code font is not a claim" in prose_numbers(f"a\n\n{line}\n", "docs/x.md")[0]


def test_lab_prose_keeps_the_source_line_numbers(tmp_path):
    lab = tmp_path / "x.py"
    lab.write_text('# %% [markdown] lang="en"\n# # Title\n#\n# A 7 here.\n\n# %%\nx = 7\n', encoding="utf-8")
    assert prose_numbers(lab_prose(lab, "en"), "labs/x.py") == ["labs/x.py:4: number '7' in prose is not a claim: A 7 here."]


def test_changing_the_snippet_breaks_its_claims(tmp_path):
    # Same snippet, one number changed, so its output changes: some claim about it must fail
    # (not all: "masked weights are exactly 0" rightly holds for any length).
    (tmp_path / "causal").mkdir()
    source = (SNIPPETS / "causal/weights.py").read_text(encoding="utf-8")
    (tmp_path / "causal/weights.py").write_text(source.replace("T = 4", "T = 5"), encoding="utf-8")
    about_weights = [c for c in CLAIMS if c.snippet == "causal/weights.py"]
    assert about_weights and any(c.check(Runner(tmp_path)) is not None for c in about_weights)


# The edits an attack on the claims made while the prose, the strict build and the tests stayed as they
# were (the causal lab's is in tests/content/test_labs.py): each now breaks a claim on the page in both editions.
@pytest.mark.parametrize(("snippet", "old", "new", "editions"), [
    ("exp/product.py", "pairs, low, high = 100_000, -300, 300", "pairs, low, high = 1_000, -3, 3", ["docs", "docs-en"]),
    ("scaling/dk_frames.py", "n_keys = 8", "n_keys = 6", ["docs", "docs-en"]),
])
def test_a_snippet_edit_that_leaves_the_prose_false_breaks_a_claim(tmp_path, snippet, old, new, editions):
    shutil.copytree(SNIPPETS, tmp_path, dirs_exist_ok=True)
    source = (SNIPPETS / snippet).read_text(encoding="utf-8")
    assert old in source
    (tmp_path / snippet).write_text(source.replace(old, new), encoding="utf-8")
    for folder in editions:
        about = [c for c in CLAIMS if c.snippet == snippet and c.file.startswith(f"{folder}/")]
        runner = EditionRunner(Runner(tmp_path), EDITIONS[folder])
        assert about and any(c.check(runner) is not None for c in about), (folder, snippet)


def test_a_string_claim_is_text_not_a_version():
    # torch.__version__ compares as a version: 'v2.13+CPU' == '2.13.0+cpu' is True for it.
    from torch.torch_version import TorchVersion

    version = TorchVersion("2.13.0+cpu")
    assert matches(parse_literal("'2.13.0+cpu'"), version)
    assert not matches(parse_literal("'v2.13+CPU'"), version)
    assert not matches(parse_literal("'2.13.0+cpu'"), ["2.13.0+cpu"])


@pytest.mark.parametrize("mixed", ["40% … 60", "0.4 … 60%", "50% ± 0.02", "0.5 ± 2%"])
def test_a_range_or_tolerance_that_mixes_percent_and_plain_numbers_is_an_error(mixed):
    with pytest.raises(ValueError, match="mixes a percentage and a plain number"):
        parse_literal(mixed)


@pytest.mark.parametrize("x", [123456.78125, -0.00015, 2.5e-5 + 0.00005, 1.00005])
def test_a_tie_the_table_rounds_to_even_reads_back_as_a_claim(x):
    assert matches(parse_literal(fmt(x)), x), fmt(x)


# Quotes ---------------------------------------------------------------------------------------

_DISPATCH = "torch.nn.attention.bias.CausalBias._dispatch"


def test_a_quote_that_holds_is_no_problem():
    text = ('`_dispatch`{ data-quote="torch.nn.attention.bias.CausalBias._dispatch: '
            'if can_use_flash_attention(sdpa_params): … is_causal=True,   # TODO: Flash accepts causal = True" }\n')
    assert _check(text) == []  # whitespace made one space; pieces in order


def test_a_quote_the_source_does_not_hold_names_page_module_file_and_passage():
    [problem] = _check(f'Intro.\n\nSee `_dispatch`{{ data-quote="{_DISPATCH}: it means upper left" }}.\n')
    assert problem.startswith("docs/x.md:3: quote `_dispatch`")
    assert "module torch.nn.attention.bias" in problem and "torch/nn/attention/bias.py" in problem
    assert "'it means upper left'" in problem and "does not hold" in problem


def test_a_quote_checks_the_order_of_its_pieces_and_the_definition_it_names():
    # both pieces are in _dispatch, but the flash call comes after the check, not before
    [problem] = _check(f'`x`{{ data-quote="{_DISPATCH}: _scaled_dot_product_flash_attention( … can_use_flash_attention" }}')
    assert "after '_scaled_dot_product_flash_attention('" in problem
    # the warning is in CausalBias's constructor, not in _dispatch
    assert _check('`x`{ data-quote="torch.nn.attention.bias.CausalBias: will produce NaNs in the output" }') == []
    [problem] = _check(f'`x`{{ data-quote="{_DISPATCH}: will produce NaNs in the output" }}')
    assert "has no 'will produce NaNs in the output'" in problem


@pytest.mark.parametrize(("target", "error"), [
    ("no_such_package.x: passage", "no module named 'no_such_package' is installed"),
    ("torch.nn.attention.biass: passage", "module torch.nn.attention (") ,
    ("torch.nn.attention.bias.NoSuchClass: passage", "defines no 'NoSuchClass'"),
    ("torch._C: passage", "has no Python source to read"),
])
def test_a_quote_of_what_does_not_exist_is_a_clear_error(target, error):
    [problem] = _check(f'`x`{{ data-quote="{target}" }}')
    assert problem.startswith("docs/x.md:1: quote `x`") and "cannot be checked" in problem and error in problem


@pytest.mark.parametrize(("bad", "error"), [
    ('`x`{ data-quote="torch.nn.attention.bias" }', "reads \"target: expression\""),  # no ": passage"
    ('`x`{ data-quote="torch.nn.attention.bias:   " }', "reads \"target: expression\""),
    ('`x`{data-quote=torch.nn.attention.bias: x}', "malformed quote"),  # unquoted
    ('`x`{ data-quote="torch.nn.functional: def f(**kwargs)" }', "emphasis"),
    ('`x`{ data-quote="torch.nn.attention.bias.CausalBias.__init__: x" }', "emphasis"),  # __init__ is bold
])
def test_malformed_quotes_are_problems(bad, error):
    problems = []
    assert read_claims(bad, "docs/x.md", problems) == []
    assert problems and problems[0].startswith("docs/x.md:1") and error in problems[0], problems


def test_a_quote_names_a_module_not_a_path():
    [problem] = _check('`x`{ data-quote="torch/nn/attention/bias.py: x" }')
    assert "cannot be checked: 'torch/nn/attention/bias.py' is not a dotted name" in problem


def test_an_empty_piece_is_an_error():
    [problem] = _check(f'`x`{{ data-quote="{_DISPATCH}: is_causal … … scale" }}')
    assert "piece of the passage is empty" in problem


def test_quotes_in_a_lab_markdown_cell_are_checked(tmp_path):
    lab = tmp_path / "x.py"
    lab.write_text('# %% [markdown] lang="en"\n# # Title\n#\n# See `_dispatch`{ data-quote="' + _DISPATCH
                   + ': it means upper left" }.\n\n# %%\nx = 7\n', encoding="utf-8")
    [problem] = check_page(lab_prose(lab, "en"), "labs/x.py", RUNNER)
    assert problem.startswith("labs/x.py:4: quote")


def test_checking_a_quote_imports_nothing():
    import subprocess
    import sys
    code = ("import sys; from claimcheck import Claim, check; "
            "r = check(Claim('a.md', 1, 'x', 'transformers.masking_utils.and_masks', 'def and_masks', 'quote'), None); "
            "assert r.holds, r.problem; print('transformers' in sys.modules, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]


# Numbers in words ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("여덟", 8), ("스물여덟", 28), ("열두", 12), ("스무", 20), ("십만", 100_000), ("천이백", 1200), ("두 배", 2),
    ("열 배", 10), ("절반", 0.5), ("eight", 8), ("twenty-eight", 28), ("a hundred thousand", 100_000),
    ("One hundred", 100), ("twice", 2), ("three times", 3), ("half", 0.5)])
def test_number_words_are_read(text, value):
    assert words.value(text) == value


@pytest.mark.parametrize(("text", "op", "number"), [("절반 넘게", ">", 0.5), ("백 배 이상", ">=", 100),
                                                ("more than half", ">", 0.5), ("under ten", "<", 10), ("여덟", None, 8)])
def test_a_bound_in_words_is_read(text, op, number):
    assert words.bound(text) == (op, number)
    if op:  # and its mutant, the other direction, is read as the other bound
        assert words.bound(words.mutants(text)[0][1])[0] not in (None, op)


@pytest.mark.parametrize("bad", ["이", "스무여덟", "8", "eight-ish", "", "many"])
def test_what_is_not_a_number_in_words_is_an_error_naming_it(bad):
    with pytest.raises(ValueError, match=r"cannot read|has digits|no text"):
        words.value(bad)


def test_a_number_in_words_is_a_claim_in_plain_text():
    text = 'One query against <span data-claim="causal/weights.py: T">four</span> keys.\n'
    [claim] = read_claims(text, "docs/x.md", problems := [])
    assert (claim.form, claim.literal, claim.expr) == ("words", "four", "T") and not problems
    assert _check(text) == []
    [problem] = _check(text.replace("four", "five"))
    assert problem == ("docs/x.md:1: claim `five` (causal/weights.py: T) does not hold: the prose says five, "
                       "the snippet gives 4")
    assert "cannot read 'lots'" in _check(text.replace("four", "lots"))[0]
    html = markdown.markdown(text, extensions=["attr_list", "md_in_html"])
    assert '<span data-claim="causal/weights.py: T">four</span>' in html  # plain text on the page


def test_a_claim_naming_the_lab_belongs_in_a_lab():
    [problem] = _check('It is `4`{ data-claim="lab: T" }.')
    assert 'names "lab", and this page is not a lab' in problem
    problems = []
    [claim] = read_claims('It is `4`{ data-claim="lab: T" }.', "docs/labs/x.py", problems)
    assert not problems and claim.snippet == "lab"
    assert "no executed lab was given" in claim.check(RUNNER)


def test_a_misspelt_name_in_a_claim_is_named_with_the_snippets_nearest_names():
    [problem] = _check('`[0.5, 0.5, 0, 0]`{ data-claim="causal/weights.py: wieghts[1]" }')
    assert problem.endswith("cannot be checked: the snippet defines no name 'wieghts'; did you mean weights?"), problem
    # names a comprehension binds, and Python's own, are known
    assert _check('`4`{ data-claim="causal/weights.py: len([w for w in weights])" }') == []


@pytest.mark.parametrize("tag", ['<span data-clam="causal/weights.py: T">four</span>', '<span data-value="4">four</span>'])
def test_a_tag_with_another_data_attribute_than_a_claim_is_a_problem(tag):
    [problem] = prose_numbers(f"Intro.\n\nIt has {tag} rows.\n", "docs/x.md")
    assert problem.startswith("docs/x.md:3: a tag with the attribute 'data-")


def test_a_string_claim_is_read_as_text_whatever_it_holds():
    # A bound, a range, a percent or a minus sign inside quotes is part of the text, not a form.
    assert parse_literal("'cache overflow: 6 + 1 > 6 rows'") == Exactly("cache overflow: 6 + 1 > 6 rows")
    assert parse_literal("['50% … 60%', '−1']") == Sequence((Exactly("50% … 60%"), Exactly("−1")))
    assert parse_literal("−0 … 1") == Range(0.0, 1.0) and parse_literal("≤ −1") == Bound("<=", -1.0)


def test_a_number_in_a_pages_title_or_description_is_found():
    # A search result and a link preview show them, and no claim can sit there.
    text = "---\ntitle: Masks\ndescription: It takes 30 rows, Keras 3, softmax(dim=-1) and 0.\n---\n\nText.\n"
    [problem] = prose_numbers(text, "docs/x.md")
    assert problem.startswith("docs/x.md:3: number '30' in the page's description")
