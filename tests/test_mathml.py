"""TeX to MathML: the typography the post-processing in handbook/mathml.py fixes."""

import re

import pytest
from handbook.mathml import tex_to_mathml


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
