"""TeX to MathML: the typography the post-processing in handbook/mathml.py fixes."""

import re

import pytest
from handbook.mathml import broken_tex, math_as_text, mathml, tex_to_mathml


def test_unary_minus_has_no_operator_space():
    text = tex_to_mathml(r"(-\infty, \infty)", display=False)
    assert '<mo stretchy="false">&#x00028;</mo><mo form="prefix" lspace="0" rspace="0">&#x02212;</mo>' in text


def test_binary_minus_keeps_its_space():
    assert "<mi>a</mi><mo>&#x02212;</mo><mi>b</mi>" in tex_to_mathml("a - b", display=False)


def test_function_name_touches_its_bracket():
    text = tex_to_mathml(r"\operatorname{softmax}(z)", display=True)
    assert '<mo lspace="0" rspace="0">softmax</mo><mo stretchy="false">&#x00028;' in text


def test_prime_is_not_shrunk_as_a_superscript():
    text = tex_to_mathml("X'", display=False)
    assert "<msup>" not in text and '<mi>X</mi><mo lspace="0" rspace="0">&#x02032;</mo>' in text


def test_lim_puts_its_limits_below_in_display():
    text = tex_to_mathml(r"\lim_{z_i \to -\infty} e^{z_i} = \lim_{x \to 0} x", display=True)
    assert text.count('<munder><mo movablelimits="false">lim</mo><mrow>') == 2
    assert text.count("</munder>") == 2 and "<msub><mo>lim" not in text
    assert "<msub><mi>z</mi><mi>i</mi></msub><mo>&#x02192;</mo>" in text  # the nested subscript kept


def test_lim_in_running_text_keeps_its_limits_at_the_side():
    assert '<munder><mo movablelimits="true">lim</mo>' in tex_to_mathml(r"\lim_{x \to 0} x", display=False)


@pytest.mark.parametrize(("tex", "alt"), [
    (r"10^{-6}", "10⁻⁶"), (r"\sqrt{d_k}", "√dₖ"), (r"\frac{QK^\top}{\sqrt{d_k}} + M", "QKᵀ/√dₖ + M"),
    (r"\sigma^2\sqrt{d_k}", "σ²√dₖ"), (r"e^{z_i}", "e^(zᵢ)"), (r"e^{-\infty}", "e^(−∞)"),
    (r"\sqrt{d_{model}}", "√(d_model)"), (r"\sqrt{d_k + 1}", "√(dₖ + 1)"), (r"1, \frac{1}{2}", "1, 1/2"),
])
def test_search_previews_read_scripts_as_a_reader_writes_them(tex, alt):
    """The text alternative (what search previews show) writes a script in Unicode's script letters
    where it has them all, 10⁻⁶ and √dₖ, not 10^(−6) and √(d_k); any other script keeps ^(…)."""
    assert re.search(r'alttext="([^"]*)"', tex_to_mathml(tex, display=False))[1] == alt


@pytest.mark.parametrize(("tex", "rows"), [
    # a chain: each relation starts a row, aligned under the first
    (r"a = \frac{b}{c} = d", [r"a & {} = \frac{b}{c}", r"& {} = d"]),
    # statements set apart by a wide space: a row each, the comma kept
    (r"x < 1, \qquad y = \max_j z_j", [r"x & {} < 1,", r"y & {} = \max_j z_j"]),
    # relations inside braces or brackets are not where it breaks
    (r"f(x = 1) = \sum_{j=1}^{n} g = h", [r"f(x = 1) & {} = \sum_{j=1}^{n} g", r"& {} = h"]),
])
def test_a_long_formula_breaks_before_its_relations(tex, rows):
    assert broken_tex(tex) == r"\begin{array}{rl} " + r" \\ ".join(rows) + r" \end{array}"


def test_a_side_too_long_still_breaks_again_before_its_sums():
    assert broken_tex(r"a = b + \frac{c + d}{2} = e, \qquad x = y", sums=True) == (
        r"\begin{array}{rl} a & {} = b \\ & \quad {} + \frac{c + d}{2} \\ & {} = e, \\ x & {} = y \end{array}")
    assert broken_tex(r"A = B + C", sums=True) == r"\begin{array}{l} A \\ \quad {} = B \\ \qquad {} + C \end{array}"


def test_stacked_each_left_side_has_a_row_of_its_own():
    assert broken_tex(r"a = b = c, \qquad x = y", stacked=True) == (
        r"\begin{array}{l} a \\ \quad {} = b \\ \quad {} = c, \\ x \\ \quad {} = y \end{array}")


def test_one_relation_puts_its_right_side_under_its_left():
    assert broken_tex(r"\mathrm{A}(Q) = \left(\frac{Q = 1}{2}\right) V") == \
        r"\begin{array}{l} \mathrm{A}(Q) \\ \quad {} = \left(\frac{Q = 1}{2}\right) V \end{array}"


@pytest.mark.parametrize("tex", [r"x + y", r"\sum_{j=1}^{n} e^{z_j}", r"f(a = b)"])
def test_a_formula_with_nowhere_to_break_has_no_rows(tex):
    assert broken_tex(tex) is None


def test_a_long_display_formula_carries_its_rows_and_search_reads_it_once():
    long, short = r"\log \sum_j e^{z_j} = m + \log \sum_j e^{z_j - m} = y", r"a = b"
    page = mathml("".join(f'<div class="arithmatex">\\[{t}\\]</div>' for t in (long, short)))
    assert page.count('<div class="formula">') == 1
    assert page.count('<math class="formula__rows"') == 4  # aligned or stacked, at its plus or not
    assert page.count("alttext=") == 2  # the rows are the same formula: no text of their own
    assert "<mtable>" in page and re.sub(r"<[^>]+>", " ", math_as_text(page)).split().count("y") == 1
    assert mathml(rf'<span class="arithmatex">\({long}\)</span>').count("<math") == 1  # running text: never


def test_tex_left_in_a_title_reads_as_its_text_alternative():
    from handbook.mathml import tex_as_text

    assert tex_as_text(r"Passing a \(4\)-D mask") == "Passing a 4-D mask"
    assert tex_as_text(r"해 보기: \(\lambda = 1\)과 \(0\)") == "해 보기: λ = 1과 0"
    assert tex_as_text("no formula (here)") == "no formula (here)"
