"""The build glue refuses what would put a wrong or broken example on a page."""

import glue
import pytest


@pytest.fixture
def snippets(tmp_path, monkeypatch):
    monkeypatch.setattr(glue, "SNIPPETS", tmp_path)
    monkeypatch.setattr(glue, "_runs", {})

    def write(name: str, source: str) -> str:
        (tmp_path / name).write_text(source, encoding="utf-8")
        return name

    return write


def test_missing_snippet(snippets):
    with pytest.raises(glue.SnippetError, match="no snippet snippets/nope.py"):
        glue.run("nope.py")


def test_figure_never_shown(snippets):
    name = snippets("a.py", "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")
    with pytest.raises(glue.SnippetError, match="never calls plt.show"):
        glue.run(name)


def test_missing_glyph_is_an_error(snippets):
    # DejaVu Sans, matplotlib's default, has no Hangul: the figure would show empty boxes.
    name = snippets("a.py", "import matplotlib.pyplot as plt\nplt.title('가림')\nplt.show()\n")
    with pytest.raises(glue.SnippetError, match="missing from font"):
        glue.run(name)


def test_figure_needs_alt_text(snippets):
    name = snippets("a.py", "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nprint('ok')\n")
    with pytest.raises(glue.SnippetError, match="alt text"):
        glue.run(name).figure(alt=" ")
    with pytest.raises(glue.SnippetError, match="showed 1 figure"):
        glue.run(name).figure(1, alt="그림")


def test_figures_are_deterministic_svg(snippets):
    source = "import matplotlib.pyplot as plt\nplt.plot([1, -2])\nplt.show()\n"
    first = glue.run(snippets("a.py", source)).figures
    second = glue.run(snippets("b.py", source)).figures
    assert first == second and len(first) == 1
    assert "<dc:date>" not in first[0]


def test_matrix_labels_must_fit(snippets):
    name = snippets("a.py", "import torch\nx = torch.zeros(2, 3)\n")
    with pytest.raises(glue.SnippetError, match=r"shape \(2, 3\), labels are 2 x 2"):
        glue.run(name).matrix("x", rows=["a", "b"], cols=["c", "d"])
    with pytest.raises(glue.SnippetError, match="not a 2-D tensor"):
        glue.run(name).matrix("x[0]", rows=["a"], cols=["c"])


def test_table_columns_must_agree(snippets):
    name = snippets("a.py", "import torch\nx = torch.zeros(3)\n")
    with pytest.raises(glue.SnippetError, match="differ in length"):
        glue.run(name).table({"label": ["a", "b"], "x": "x"})


def test_a_snippet_that_prints_nothing_has_no_output_tab(snippets):
    with pytest.raises(glue.SnippetError, match="prints nothing"):
        glue.run(snippets("a.py", "x = 1\n")).output()


@pytest.mark.parametrize(
    ("x", "shown"),
    [(0.0, "0"), (-0.0, "0"), (1.0, "1"), (0.5, "0.5"), (1 / 3, "0.3333"), (0.99999997, "1.0000"),
     (3e-7, "3.00e-07"), (float("-inf"), "-inf"), (float("nan"), "nan"), (True, "True"), (36, "36")],
)
def test_numbers_as_the_pages_show_them(x, shown):
    assert glue.fmt(x) == shown


def test_unchanged_snippets_are_not_run_again(snippets, monkeypatch):
    # `mkdocs serve` keeps this process: a prose edit must not re-run any snippet, a snippet edit must
    # re-run that snippet (and only it).
    executed = []
    original = glue._execute
    monkeypatch.setattr(glue, "_execute", lambda name, source: executed.append(name) or original(name, source))
    a, b = snippets("a.py", "print(1)\n"), snippets("b.py", "print(2)\n")
    glue.run(a), glue.run(b), glue.run(a), glue.run(b)
    assert executed == ["a.py", "b.py"]
    snippets("a.py", "print(3)\n")
    assert glue.run(a).stdout == "3\n" and glue.run(b).stdout == "2\n"
    assert executed == ["a.py", "b.py", "a.py"]
