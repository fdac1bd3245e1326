"""TeX to MathML: the typography the post-processing in handbook/mathml.py fixes."""

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


def test_lim_puts_its_limits_below():
    text = tex_to_mathml(r"\lim_{x \to -\infty} e^x = 0", display=True)
    assert "<munder><mo>lim</mo><mrow>" in text and "</munder>" in text and "msub><mo>lim" not in text
