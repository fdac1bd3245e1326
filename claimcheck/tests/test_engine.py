"""The engine: forms, numbers, pages, sources and checks. No MkDocs, no pytest plugin."""

import json
import math
import re

import pytest
from claimcheck import FORMS, Claim, Scripts, SourceError, Values, check, check_text, matches, numbers_in, parse, read_claims
from claimcheck.check import update_text, written_as
from claimcheck.forms import Approx, Bound, Form, Range, register


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_form_holds_for_its_examples_and_none_of_its_mutants_do(name):
    # The mutation test follows from the registry: a form that lets an edit of its literal pass
    # checks nothing.
    form = FORMS[name]
    assert form.examples, f"{name}: no example to test it on"
    for written, value in form.examples:
        if form.span is None:  # a literal: its syntax must say it is this form's
            assert parse(written).form == name, (written, parse(written).form)
        expected = form.value(written)
        assert matches(expected, value), (written, value)
        mutants = form.mutants(written, expected)
        assert mutants, f"{name}: {written!r} has no mutant"
        for kind, mutant in mutants:
            assert not matches(form.value(mutant), value), f"{name}: {kind} mutant {mutant!r} of {written!r} holds too"


@pytest.mark.parametrize(("literal", "value", "ok"), [
    ("0", -0.0, False), ("-0", -0.0, True), ("0.3333", 1 / 3, True), ("0.333", 1 / 3, True), ("0.3334", 1 / 3, False),
    ("1/3", 0.33333334, True), ("25%", 0.25, True), ("1", True, False), ("(2, 3)", [2, 3], True),
    ("[1, 0]", [1.0, 0.0, 0.0], False), ("1.0000", [1.0, 0.99999997], True), ("< 1e-6", 1e-6, False),
    ("≤ 1e-6", 1e-6, True), ("40% … 60%", 0.514, True), ("0.514 ± 0.02", 0.54, False), ("[0, < 1e-6]", [0, 3e-7], True),
    ("'2.13.0+cpu'", "2.13.0+cpu", True), ("−∞", -math.inf, True), ("nan", math.nan, True),
])
def test_literals_mean_what_they_say(literal, value, ok):
    assert matches(parse(literal).value, value) is ok


@pytest.mark.parametrize("bad", ["0.6 … 0.5", "1 ± 0", "< x", "<", "1 ±", "1/0", "{1: 2}"])
def test_a_literal_no_form_reads_is_an_error(bad):
    with pytest.raises(ValueError, match="cannot read"):
        parse(bad)


def test_a_range_that_mixes_units_is_an_error():
    with pytest.raises(ValueError, match="mixes a percentage and a plain number: 40% … 60"):
        parse("40% … 60")


def test_parsed_values():
    assert parse("< 1e-6").value == Bound("<", 1e-6)
    assert parse("0.40 … 0.60").value == Range(0.4, 0.6)
    assert parse("0.514 ± 0.02").value == Approx(0.514, 0.02)


def test_a_new_form_is_one_register_call_and_a_name_is_registered_once():
    form = Form("hex", "``0x1f``: an integer written in hex", lambda node, source, convert: None,
                lambda literal, value: [], ())
    with pytest.raises(ValueError, match="a form named 'number' is registered already"):
        register(Form("number", *[getattr(form, f) for f in ("meaning", "read", "mutants", "examples")]))
    with pytest.raises(ValueError, match="reads a literal's syntax .* or a span of its own"):
        register(Form("neither", "nothing", None, lambda literal, value: [], ()))
    with pytest.raises(ValueError, match="needs the groups literal and target"):
        register(Form("half", "a span", None, lambda literal, value: [], (), span=re.compile("<b>(?P<literal>.*)</b>"),
                      reading=float))


@pytest.mark.parametrize(("text", "found"), [
    ("16GB at float16, -1e9", ["16GB", "1e9"]), ("fp16 x2 2D h100 d_k sm_90", []), ("3.4028e+38 and 0.94.", ["3.4028e+38", "0.94"]),
    ("2.7× faster, 50%, 2e5 rows, 3 ms", ["2.7×", "50%", "2e5", "3"]), ("v2.13.0 in 2026", ["2026"]),
])
def test_what_a_number_in_text_is(text, found):
    assert numbers_in(text) == found


PAGE = """# A page

Each weight is `0.3333`{ data-claim="demo.py: weights[0]" } and the sum `1`{ data-claim="demo.py: sum(weights)" }.

```
`9`{ data-claim="demo.py: weights" } in a fence is an example
```

There are 3 weights, `0.5`{ data-clam="demo.py: x" } and `2`{ data-claim="demo.py" }.
"""


def test_a_page_yields_its_claims_and_names_each_malformed_one():
    problems = []
    assert read_claims(PAGE, "docs/a.md", problems) == [
        Claim("docs/a.md", 3, "0.3333", "demo.py", "weights[0]"), Claim("docs/a.md", 3, "1", "demo.py", "sum(weights)")]
    assert problems == [
        "docs/a.md:9: a code span with the attribute 'data-clam': did you mean data-claim?",
        "docs/a.md:9: a claim's target reads \"target: expression\", not 'demo.py'"]


def test_a_number_in_words_is_a_claim_in_a_span_of_its_own(tmp_path):
    text = 'Of <span data-claim="demo.py: len(weights)">three</span> weights, <span data-claim="demo.py: n">절반 넘게</span>.'
    problems = []
    claims = read_claims(text, "a.md", problems)
    assert [(c.literal, c.form) for c in claims] == [("three", "words"), ("절반 넘게", "words")] and not problems
    source = _scripts(tmp_path, "weights = [1 / 3] * 3\nn = 0.4\n")
    first, second = (check(c, source) for c in claims)
    assert first.holds and first.form == "words"
    assert second.problem == ("a.md:1: claim `절반 넘게` (demo.py: n) does not hold: the prose says 절반 넘게, "
                              "the source gives 0.4")
    [result] = check_text(text.replace("three", "a few").split(", ")[0], "a.md", source)[0]
    assert "cannot read 'a few' as a number in words" in result.problem


@pytest.mark.parametrize(("line", "error"), [
    ('`1`{ data-claim="demo.py: x**2" }', "Markdown reads as emphasis"),
    ('`1`{ data-claim="demo.py: w.__len__()" }', "Markdown reads as emphasis"),
    ('`1`{ data-claim="demo.py: f[0](1)" }', "Markdown reads as a link"),
    ('<span data-claim="demo.py: n">three</span', "malformed claim (want `literal`"),
])
def test_a_target_markdown_would_change_is_a_problem(line, error):
    assert read_claims(line, "a.md", problems := []) == []
    assert problems and problems[0].startswith("a.md:1: ") and error in problems[0], problems
    assert read_claims('`1`{ data-claim="demo.py: x ** 2 * y" }', "a.md", problems := []) and not problems


def test_python_source_reads_installed_code_without_importing_it():
    import subprocess
    import sys

    from claimcheck import PythonSource
    module, path, text = PythonSource.lookup("claimcheck.forms.Form.value")
    assert module == "claimcheck.forms" and path.endswith("forms.py") and text.startswith("def value(self")
    assert "def register(" in PythonSource().value(Claim("a.md", 1, "x", "claimcheck.forms", "…"))
    for name, error in [("claimcheck/forms.py", "not a dotted name"), ("no_such_package.x", "no module named"),
                        ("claimcheck.forms.Nothing", "defines no 'Nothing'"), ("math.sqrt", "no Python source")]:
        with pytest.raises(SourceError, match=error):
            PythonSource.lookup(name)
    code = ("import sys; from claimcheck import PythonSource; PythonSource.lookup('xml.dom.minidom.Document.createElement'); "
            "print('xml.dom.minidom' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def _scripts(tmp_path, body="weights = [1 / 3] * 3\n"):
    (tmp_path / "demo.py").write_text(body, encoding="utf-8")
    return Scripts(tmp_path)


def test_a_claim_is_checked_against_a_script_and_a_failure_names_both_values(tmp_path):
    source = _scripts(tmp_path, "weights = [0.3333] * 3\n")
    results, problems = check_text(PAGE, "docs/a.md", source)
    assert [r.problem for r in results] == [
        None, "docs/a.md:3: claim `1` (demo.py: sum(weights)) does not hold: the prose says 1, the source gives 0.9999"]
    assert problems[-1] == "docs/a.md:9: number '3' in prose is not a claim: There are 3 weights, `0.5`{ data-clam=\"demo.py: x\" } and `2`{ data-claim=\"demo.py\" }."
    assert check(Claim("a.md", 1, "1.000", "demo.py", "sum(weights)"), source).holds
    assert read_claims("`2`{ data-claim=\"demo.py\" }", "a.md", problems := []) == [] and len(problems) == 1


@pytest.mark.parametrize(("target", "expr", "error"), [
    ("none.py", "x", "no script none.py under"), ("demo.py", "1 + 1", "reads no name demo.py defines"),
    ("demo.py", "weights[9]", "raised IndexError"), ("demo.py", "weights[", "cannot read the expression"),
])
def test_a_value_that_cannot_be_had_says_why(tmp_path, target, expr, error):
    result = check(Claim("a.md", 1, "1", target, expr), _scripts(tmp_path))
    assert result.problem.startswith("a.md:1: claim `1`") and error in result.problem, result.problem


def test_a_script_that_raises_is_named(tmp_path):
    result = check(Claim("a.md", 1, "1", "demo.py", "x"), _scripts(tmp_path, "x = 1 / 0\n"))
    assert "demo.py raised ZeroDivisionError: division by zero" in result.problem


def test_values_from_a_file_made_elsewhere(tmp_path):
    (tmp_path / "gpu.json").write_text(json.dumps({"flash.py": {"speedup": 2.71}}), encoding="utf-8")
    values = Values(tmp_path / "gpu.json")
    assert check(Claim("a.md", 1, "2.7 … 2.8", "flash.py", "speedup"), values).holds
    assert "has no value of 'slowdown'" in check(Claim("a.md", 1, "2", "flash.py", "slowdown"), values).problem
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(SourceError, match="the values are an object of targets"):
        Values(tmp_path / "bad.json")


@pytest.mark.parametrize(("literal", "value", "written"), [
    ("0.3333", 0.41666, "0.4167"), ("3", 4, "4"), ("3", 4.5, None), ("1e-9", 2.4e-9, "2e-9"), ("1.5e-9", 2.44e-9, "2.4e-9"),
    ("0.5", True, None), ("0.5", math.inf, None),
])
def test_an_exact_literal_is_rewritten_at_its_written_precision(literal, value, written):
    assert written_as(literal, value) == written


def test_update_rewrites_exact_literals_and_leaves_bounds_and_ranges_to_the_author(tmp_path):
    source = _scripts(tmp_path, "weights = [0.25] * 4\nn = 4\n")
    page = ('`0.3333`{ data-claim="demo.py: weights[0]" } of `3`{ data-claim="demo.py: n" }, '
            'under `0.1`{ data-claim="demo.py: weights[1]" }; `< 0.2`{ data-claim="demo.py: weights[2]" }, '
            '`0.3 … 0.4`{ data-claim="demo.py: weights[3]" }.')
    new, changed, left = update_text(page, "a.md", source)
    assert new == page.replace("`0.3333`", "`0.2500`").replace("`3`", "`4`").replace("`0.1`", "`0.2`")
    assert changed == ["a.md:1: `0.3333` -> `0.2500`", "a.md:1: `3` -> `4`", "a.md:1: `0.1` -> `0.2`"]
    assert [line.split(" does not hold")[0] for line in left] == ["a.md:1: `< 0.2` (bound)", "a.md:1: `0.3 … 0.4` (range)"]
    assert check_text(new, "a.md", source, bare=False)[0][0].holds


def test_the_readme_lists_every_form_as_it_is_registered():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| `") and line.count("|") == 3]
    assert rows == [f"| `{f.name}` | {f.meaning.replace('``', '`')} |" for f in FORMS.values()]


def test_a_claim_on_the_page_is_focusable_and_described_by_its_source():
    from claimcheck.reveal import reveal, without_tips

    page = ('<p>Each <code data-claim="demo.py: w[0]">0.3333</code>, <span data-claim="demo.py: n">three</span> '
            '<code>plain</code> <code data-claim="a&amp;b.py: x &lt; 1" class="nobreak">True</code></p>')
    shown = reveal(page, "Checked <against>")
    assert shown == (
        '<p>Each <code data-claim="demo.py: w[0]" tabindex="0" aria-describedby="claim-source-1">0.3333</code>'
        '<span class="claim-source" id="claim-source-1" role="tooltip">Checked &lt;against&gt; <code>demo.py: w[0]</code></span>, '
        '<span data-claim="demo.py: n" tabindex="0" aria-describedby="claim-source-2">three</span>'
        '<span class="claim-source" id="claim-source-2" role="tooltip">Checked &lt;against&gt; <code>demo.py: n</code></span> '
        '<code>plain</code> <code data-claim="a&amp;b.py: x &lt; 1" class="nobreak" tabindex="0" '
        'aria-describedby="claim-source-3">True</code>'
        '<span class="claim-source" id="claim-source-3" role="tooltip">Checked &lt;against&gt; <code>a&amp;b.py: x &lt; 1</code></span></p>')
    assert reveal(shown, "again") == shown  # once only
    assert without_tips(shown).count("claim-source\"") == 0 and "Checked" not in without_tips(shown)
