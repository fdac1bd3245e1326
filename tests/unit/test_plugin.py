"""The plugin's parts, without building the site: running snippets, what pages show of them, MathML,
the links check, and the plugin's own events."""

import logging
import re
import sys
import threading
import types
import warnings
from pathlib import Path

import pytest
from handbook.links import broken_links
from handbook.mathml import mathml
from handbook.render import Example, Figures
from claimcheck.numbers import numbers_in
from handbook.values import fmt
from handbook.capture import Capture
from handbook.snippets import Runner, SnippetError
from project import WORDS
from website import HANG_S


@pytest.fixture
def snippets(tmp_path):
    """A runner in this process, under matplotlib's settings as a new process starts with them (as
    the build's snippet processes do): a test that ran before in this worker may have changed them
    (koreanize_matplotlib, imported by a chapter's snippet, sets a Korean font for every figure)."""
    import matplotlib

    runner = Runner(tmp_path)

    def write(name: str, source: str) -> str:
        (tmp_path / name).write_text(source, encoding="utf-8")
        return name

    write.runner = runner
    with matplotlib.rc_context({k: v for k, v in matplotlib.rcParamsOrig.items() if k != "backend"}):
        yield write


def test_missing_snippet(snippets):
    with pytest.raises(SnippetError, match="no snippet snippets/nope.py"):
        snippets.runner.run("nope.py")


FAILURES = [  # a snippet's source, and the one-line message its run fails with
    ("x = 1\n1 / 0\n", r"snippets/a.py raised ZeroDivisionError: division by zero at line 2"),
    ("import warnings\nwarnings.warn('old', DeprecationWarning)\n", r"warned at line 2: DeprecationWarning: old"),
    ("import warnings\nwarnings.warn('hm')\n", r"warned at line 2: UserWarning: hm"),
    ("import sys\nprint('oops', file=sys.stderr)\n", r"wrote to stderr: oops"),
    ("import logging\nlogging.getLogger('x').warning('careful')\n", r"logged a warning: careful"),
    ("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n", r"never calls plt.show"),
    ("import matplotlib.pyplot as plt\nplt.title('가림')\nplt.show()\n", r"missing from font"),
]


@pytest.mark.parametrize(("source", "message"), FAILURES)
def test_a_snippet_fails_in_one_line_naming_itself(snippets, source, message):
    with pytest.raises(SnippetError, match=message) as error:
        snippets.runner.run(snippets("a.py", source)).figures  # a glyph is missed when the figure is drawn
    assert "\n" not in str(error.value)


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    """A runner as the build has it: its snippets run in a process of their own (handbook/apart.py)."""
    folder = tmp_path_factory.mktemp("apart")
    runner = Runner(folder, apart=True)

    def write(name: str, source: str) -> str:
        (folder / name).write_text(source, encoding="utf-8")
        return name

    write.runner = runner
    yield write
    runner.apart.stop()


def test_the_builds_snippets_run_in_a_process_of_their_own_and_nothing_of_its_own_is_patched(apart, monkeypatch):
    import os

    def patched(*_):
        raise AssertionError("a snippet run apart patched the build's own streams, warnings or loggers")

    monkeypatch.setattr(Capture, "__enter__", patched)
    run = apart.runner.run(apart("pid.py", "import os\npid = os.getpid()\nrows = [[1, 2], [3, 4]]\nprint('hello')\n"))
    assert run.stdout == "hello\n" and run.names() == {"os": True, "pid": False, "rows": False}
    assert run.value("pid") != os.getpid() and run.value("rows[1]") == [3, 4]
    with pytest.raises(SnippetError, match=r"pid.py: cannot evaluate 'rows\[2\]': IndexError"):
        run.value("rows[2]")


@pytest.mark.parametrize(("source", "message"), FAILURES)
def test_a_snippet_run_apart_fails_as_it_fails_in_this_process(apart, source, message):
    with pytest.raises(SnippetError, match=message) as error:
        apart.runner.run(apart("a.py", source)).figures
    assert "\n" not in str(error.value)


def test_a_figure_drawn_apart_is_the_one_drawn_here(apart, snippets):
    source = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots(1, 3, figsize=(7.2, 2.8))\nplt.show()\n"
    here = snippets.runner.run(snippets("f.py", source))
    there = apart.runner.run(apart("f.py", source))
    assert there.figures == here.figures and there.phones == here.phones and len(there.phones[0]) > 0


def test_a_value_that_cannot_leave_the_snippets_process_is_an_error_naming_it(apart):
    run = apart.runner.run(apart("gen.py", "squares = (i * i for i in range(3))\n"))
    with pytest.raises(SnippetError, match=r"gen.py: 'squares' is a builtins.generator, which cannot leave the "
                                           r"snippet's process: it does not pickle"):
        run.value("squares")
    assert run.value("list(squares)") == [0, 1, 4]


@pytest.mark.parametrize("processes", [0, -1, 1.5, "2", True])
def test_a_number_of_snippet_processes_that_is_not_a_whole_number_from_1_is_refused(processes):
    from handbook.apart import Apart

    with pytest.raises(ValueError, match=rf"the number of snippet processes is a whole number, at least 1, not {processes!r}"):
        Apart(processes)


def test_runs_started_ahead_are_the_runs_a_page_then_gets_each_made_once(tmp_path, snippets):
    runner = Runner(tmp_path / "ahead", apart=True)
    runner.folder.mkdir()
    figure = "import matplotlib.pyplot as plt\nplt.subplots(1, 3, figsize=(7.2, 2.8))\nplt.show()\n"
    for name, source in {"a.py": "x = 1\nprint(x)\n", "b.py": figure, "c.py": "1 / 0\n"}.items():
        (runner.folder / name).write_text(source, encoding="utf-8")
    try:
        runner.ahead(["a.py", "b.py", "c.py", "a.py", "missing.py"])
        assert runner.executed == ["a.py", "b.py", "c.py"]
        here = snippets.runner.run(snippets("b.py", figure))
        assert runner.run("a.py").stdout == "1\n" and runner.run("a.py").value("x + 1") == 2
        assert runner.run("b.py").figures == here.figures and runner.run("b.py").phones == here.phones
        with pytest.raises(SnippetError, match="snippets/c.py raised ZeroDivisionError"):
            runner.run("c.py")
        runner.ahead(["a.py", "b.py"])  # unchanged: not run again
        (runner.folder / "a.py").write_text("x = 3\nprint(x)\n", encoding="utf-8")
        runner.ahead(["a.py"])
        assert runner.run("a.py").stdout == "3\n"
        (runner.folder / "a.py").write_text("x = 4\nprint(x)\n", encoding="utf-8")  # edited after its run ahead
        assert runner.run("a.py").stdout == "4\n"
        assert runner.executed == ["a.py", "b.py", "c.py", "a.py", "a.py"]
    finally:
        runner.apart.stop()


def test_a_page_that_must_not_wait_learns_what_to_wait_for(tmp_path):
    """`mkdocs serve`'s pages do not wait for a run: ``waiting`` names what to wait for (the end of
    every run made ahead), starting a run nobody started, and nothing once asking would answer at
    once. After ``stop`` no run is made, and no process starts again."""
    gate = tmp_path / "gate"
    runner = Runner(tmp_path / "snippets", apart=True, behind=True)
    runner.folder.mkdir()
    (runner.folder / "slow.py").write_text(
        f"import pathlib, time\nwhile not pathlib.Path({str(gate)!r}).exists():\n    time.sleep(0.05)\nx = 1\n", encoding="utf-8")
    (runner.folder / "quick.py").write_text("y = 2\n", encoding="utf-8")
    assert Runner(runner.folder).waiting("quick.py") is None  # in this process: runs when asked, nothing to wait for
    try:
        assert runner.waiting("missing.py") is None  # asking answers at once: no such snippet
        ended = runner.waiting("slow.py")  # started now, as nothing had started it
        assert ended is not None and not ended.done() and runner.executed == ["slow.py"]
        # started too: run, on a process free to answer (None), or one end for both to wait for
        assert runner.waiting("quick.py") in (None, ended)
        gate.touch()
        ended.result(timeout=HANG_S)
        assert runner.waiting("slow.py") is None and runner.waiting("quick.py") is None
        assert runner.run("slow.py").value("x") == 1 and runner.run("quick.py").value("y") == 2
        assert runner.executed == ["slow.py", "quick.py"]  # each ran once
    finally:
        runner.apart.stop()
    (runner.folder / "quick.py").write_text("y = 3\n", encoding="utf-8")
    with pytest.raises(SnippetError, match="snippets/quick.py: not run, the build has ended"):
        runner.run("quick.py")
    assert not any(w._process.is_alive() for w in runner.apart.workers)


def test_a_snippet_that_exits_fails_and_one_that_ends_its_process_fails_and_the_rest_run_again(tmp_path):
    runner = Runner(tmp_path, apart=True)
    (tmp_path / "b.py").write_text("x = 2\n", encoding="utf-8")
    (tmp_path / "exit.py").write_text("raise SystemExit(2)\n", encoding="utf-8")
    (tmp_path / "crash.py").write_text("import os\nos._exit(3)\n", encoding="utf-8")
    try:
        before = runner.run("b.py")
        with pytest.raises(SnippetError, match=r"snippets/exit.py raised SystemExit\(2\)"):
            runner.run("exit.py")
        assert before.value("x") == 2  # the process lives on
        with pytest.raises(SnippetError, match=r"snippets/crash.py ended its process before it finished"):
            runner.run("crash.py")
        with pytest.raises(SnippetError, match=r"snippets/b.py: the process that ran it has ended"):
            before.value("x")
        assert runner.run("b.py").value("x") == 2  # run again, in a new process
        assert runner.executed == ["b.py", "exit.py", "crash.py", "b.py"]
    finally:
        runner.apart.stop()


def test_figures_are_drawn_when_asked_for_once_under_the_settings_they_were_shown_with(snippets, monkeypatch):
    import handbook.snippets

    drawn = []
    monkeypatch.setattr(handbook.snippets, "svg", lambda fig, svg=handbook.snippets.svg: drawn.append(fig) or svg(fig))
    source = ("import matplotlib.pyplot as plt\nplt.rcParams['svg.fonttype'] = 'none'\n"
              "plt.title('kept as text')\nplt.show()\nvalue = 3\n")
    run = snippets.runner.run(snippets("a.py", source))
    assert run.namespace["value"] == 3 and drawn == []  # read for a number: nothing drawn
    assert ">kept as text<" in run.figures[0] and len(drawn) == 1  # a text element, not paths
    assert run.figures is run.figures and len(drawn) == 1  # drawn once
    # the snippet's setting was its own: what runs next has matplotlib's
    assert ">other<" not in snippets.runner.run(snippets("b.py", source.replace("plt.rcParams['svg.fonttype'] = 'none'\n", "")
                                                          .replace("kept as text", "other"))).figures[0]


def test_a_figure_that_fails_to_draw_fails_its_snippet_each_time_it_is_asked_for(snippets):
    run = snippets.runner.run(snippets("a.py", "import matplotlib.pyplot as plt\nplt.title('$\\\\frac{$')\nplt.show()\n"))
    for _ in range(2):
        with pytest.raises(SnippetError, match=r"snippets/a.py raised ValueError: .* while its figure was drawn"):
            run.phones


def test_a_snippets_own_deprecation_counts_under_the_filters_a_script_has(snippets):
    # Python's default filters ignore DeprecationWarning outside __main__; a reader running the
    # snippet as a script sees one that its own line causes, and so does the build.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(SnippetError, match=r"warned at line 2: DeprecationWarning: old"):
            snippets.runner.run(snippets("a.py", "import warnings\nwarnings.warn('old', DeprecationWarning)\n"))
        assert Capture.FILTER not in warnings.filters  # added for the run only


def test_another_threads_output_warnings_and_log_are_not_blamed_on_the_running_snippet(snippets, capsys, caplog):
    # While a snippet runs, a lab's thread writes to stderr, warns and logs: the build reports none of
    # it as the snippet's, and all of it goes where it went before. The two threads take turns by
    # events, not by sleeping: the snippet waits until the other thread has done all three.
    probe = types.ModuleType("_handbook_probe")
    probe.started, probe.done = threading.Event(), threading.Event()
    sys.modules[probe.__name__] = probe

    def lab():
        probe.started.wait()
        print("lab stderr", file=sys.stderr)
        warnings.warn("lab warning")
        logging.getLogger("lab").warning("lab log line")
        probe.done.set()

    thread = threading.Thread(target=lab)
    thread.start()
    source = "import _handbook_probe as p\np.started.set()\np.done.wait()\nprint('snippet')\n"
    try:
        with warnings.catch_warnings(record=True) as seen, caplog.at_level(logging.WARNING):
            warnings.simplefilter("always")
            run = snippets.runner.run(snippets("a.py", source))  # no SnippetError
    finally:
        probe.started.set(), thread.join(), sys.modules.pop(probe.__name__)
    assert run.stdout == "snippet\n"
    assert "lab stderr" in capsys.readouterr().err
    assert [str(w.message) for w in seen] == ["lab warning"]
    assert "lab log line" in caplog.messages


def test_a_failure_is_remembered_until_the_file_changes(snippets):
    name = snippets("a.py", "1 / 0\n")
    for _ in range(2):
        with pytest.raises(SnippetError):
            snippets.runner.run(name)
    assert snippets.runner.executed == ["a.py"]
    snippets("a.py", "print(1)\n")
    assert snippets.runner.run(name).stdout == "1\n"


def test_unchanged_snippets_are_not_run_again(snippets):
    # `mkdocs serve` keeps the runner: a prose edit re-runs nothing, a snippet edit re-runs that one.
    a, b = snippets("a.py", "print(1)\n"), snippets("b.py", "print(2)\n")
    for name in (a, b, a, b):
        snippets.runner.run(name)
    assert snippets.runner.executed == ["a.py", "b.py"]
    snippets("a.py", "print(3)\n")
    assert snippets.runner.run(a).stdout == "3\n" and snippets.runner.run(b).stdout == "2\n"
    assert snippets.runner.executed == ["a.py", "b.py", "a.py"]


def _example(snippets, source):
    return Example(snippets.runner.run(snippets("a.py", source)), Figures(), WORDS["ko"])


def test_figure_needs_alt_text(snippets):
    ex = _example(snippets, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nprint('ok')\n")
    with pytest.raises(SnippetError, match="alt text"):
        ex.figure(alt=" ")
    with pytest.raises(SnippetError, match="showed 1 figure"):
        ex.figure(1, alt="그림")
    assert ex.figure(alt="곡선 하나").startswith('<picture><source media="(max-width: ')


def test_figures_are_deterministic_svg(snippets):
    source = "import matplotlib.pyplot as plt\nplt.plot([1, -2])\nplt.show()\n"
    first = snippets.runner.run(snippets("a.py", source)).figures
    second = snippets.runner.run(snippets("b.py", source)).figures
    assert first == second and len(first) == 1
    assert "<dc:date>" not in first[0]


def _svg_size(svg):
    return [float(re.search(rf'{a}="([\d.]+)pt"', svg)[1]) * 4 / 3 for a in ("width", "height")]


@pytest.mark.parametrize(("figure", "layout"), [
    ("plt.subplots(figsize=(6, 3))", "one"),  # one panel, narrower
    ("plt.subplots(1, 3, figsize=(7.2, 2.8))", "stacked"),  # a row of panels: a column of them
    ("plt.subplots(figsize=(6, 6)); ax.imshow([[0, 1], [1, 0]])", "square"),  # a heatmap: its height follows
])
def test_a_figure_wider_than_a_phone_comes_with_a_copy_drawn_for_one(snippets, figure, layout):
    source = f"import matplotlib.pyplot as plt\nfig, ax = {figure}\nplt.tight_layout()\nplt.show()\n"
    run = snippets.runner.run(snippets("a.py", source))
    (wide_w, wide_h), (phone_w, phone_h) = _svg_size(run.figures[0]), _svg_size(run.phones[0])
    assert round(phone_w) == 358 < wide_w  # a 390 px phone's column
    height = {"one": wide_h, "stacked": 3 * wide_h, "square": wide_h * 358 / wide_w}[layout]
    assert phone_h == pytest.approx(height, abs=1), (phone_h, height)
    html = Example(run, figures := Figures(), WORDS["ko"]).figure(alt="그림")
    narrow, wide = (re.search(rf'{a}="@figures/(\w+\.svg)"', html)[1] for a in ("srcset", "src"))
    assert figures.files[narrow] == run.phones[0] and figures.files[wide] == run.figures[0]
    assert f'media="(max-width: {round(wide_w) + 31}px)"' in html  # where the figure would not fit


def test_tick_labels_a_phone_would_crowd_are_turned_aslant_in_its_copy():
    import matplotlib.pyplot as plt
    from handbook.figures import _crowded, phone_svg

    for labels, turned in (([f"label {i}" for i in range(8)], {40}), (list("abcdefgh"), {0})):
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.bar(range(8), range(8), tick_label=labels)
        fig.canvas.draw()
        assert not _crowded(fig)  # six inches hold them
        assert phone_svg(fig)
        assert {t.get_rotation() for t in ax.get_xticklabels()} == turned, labels
        plt.close(fig)


def test_a_figure_that_fits_a_phone_has_no_copy(snippets):
    source = "import matplotlib.pyplot as plt\nplt.figure(figsize=(3.5, 3))\nplt.plot([1, 2])\nplt.show()\n"
    run = snippets.runner.run(snippets("a.py", source))
    assert run.phones == [None]
    assert Example(run, Figures(), WORDS["ko"]).figure(alt="그림").startswith('<img class="snippet-figure" src="@figures/')


def test_matrix_labels_must_fit(snippets):
    ex = _example(snippets, "import torch\nx = torch.zeros(2, 3)\nnames = ['a', 'b']\n")
    with pytest.raises(SnippetError, match=r"shape \(2, 3\), labels are 2 x 2"):
        ex.matrix("x", rows=["a", "b"], cols=["c", "d"])
    with pytest.raises(SnippetError, match="not a 2-D tensor"):
        ex.matrix("x[0]", rows=["a"], cols=["c"])
    table = ex.matrix("x", rows="names", cols="열 {}")
    assert "|  | 열 1 | 열 2 | 열 3 |" in table and "| b | 0 | 0 | 0 |" in table


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("float16 과 d_k, x2", []), ("fp16 의 2D 표", []), ("쿼리 1", ["1"]), ("-1e9 로 채움", ["1e9"]),
     ("0.94", ["0.94"]), ("1.4…1.7 사이", ["1.4", "1.7"]), ("3.4028e+38", ["3.4028e+38"]), ("3.", ["3"])],
)
def test_numbers_are_told_from_identifiers(text, numbers):
    assert numbers_in(text) == numbers


@pytest.mark.parametrize("label", ["1번 줄", "쿼리 2", "-1e9", "3.4028e+38", "[PAD] 자리도 정답 0 으로 셈"])
def test_a_typed_label_may_not_hold_a_number(snippets, label):
    # A number in a table is measured or counted: it comes from the snippet, never retyped.
    ex = _example(snippets, "import torch\nx = torch.zeros(2, 2)\nv = torch.zeros(2)\nfills = ['-1e9', 'x']\n")
    typed = [label, "끝"]
    for make in (lambda: ex.matrix("x", rows=typed, cols="{}번 칸"), lambda: ex.matrix("x", rows="{}번 줄", cols=typed),
                 lambda: ex.table({"설명": typed, "값": "v"})):
        with pytest.raises(SnippetError, match=r"a.py: label .* is typed by hand: read it from the snippet"):
            make()
    # Words, names of snippet values and templates are fine, numbers and all.
    assert "| -1e9 | 0 | 0 |" in ex.matrix("x", rows="fills", cols=["float16 칸", "d_k 칸"])
    assert "| 쿼리 2 | 0 |" in ex.table({"설명": "쿼리 {}", "값": "v"})
    assert "| 쿼리 둘 | 0 |" in ex.table({"설명": ["쿼리 하나", "쿼리 둘"], "값": "v"})


def test_templates_read_snippet_values(snippets):
    # No comprehension in the page: `{}` numbers the rows, `{name:spec}` formats a snippet value's items.
    ex = _example(snippets, "import torch\ntaus = torch.tensor([0.5, 2.0])\ncalls = ['q, k', 'k, q']\n"
                          "print('A: 1')\nprint('B: 2')\n")
    # The lines it printed are read from the snippet, not typed, so they may hold numbers.
    table = ex.table({"호출": "`f({calls})`", "τ": "{taus:g}", "줄": "{}번 줄", "출력": ex.printed()})
    assert "| `f(q, k)` | 0.5 | 1번 줄 | `A: 1` |" in table and "| `f(k, q)` | 2 | 2번 줄 | `B: 2` |" in table
    matrix = ex.matrix("[[1, 2], [3, 4]]", rows="{calls:.1}", cols="{}번 칸").splitlines()
    assert matrix[0] == "|  | 1번 칸 | 2번 칸 |" and matrix[3] == "| k | 3 | 4 |"
    with pytest.raises(SnippetError, match=r"'calls' has 2 items, the table 3 rows"):
        ex.table({"호출": "{calls}", "x": "[1, 2, 3]"})
    with pytest.raises(SnippetError, match=r"label '점수 300 인 \{calls\}' is typed by hand: number '300'"):
        ex.table({"호출": "점수 300 인 {calls}", "x": "[1, 2]"})


def test_a_template_field_that_is_one_number_is_the_same_in_every_row(snippets):
    # An alt text or label counts what the snippet counts ("{n_keys} keys"), not a number typed by hand.
    ex = _example(snippets, "calls = ['q, k', 'k, q']\nn_keys = 8\nflag = True\n")
    assert ex.template("{calls} over {n_keys} keys") == ["q, k over 8 keys", "k, q over 8 keys"]
    with pytest.raises(SnippetError, match=r"labels 'flag' are not a list"):
        ex.template("{calls} {flag}")


def test_printed_lines_are_code_spans_whatever_they_hold(snippets):
    ex = _example(snippets, "print('want (..., L_Q, d_k)')\nprint('use `x`')\nprint('``')\n")
    assert ex.printed() == ["`want (..., L_Q, d_k)`", "`` use `x` ``", "``` `` ```"]


def test_alt_text_may_not_hold_a_number(snippets):
    ex = _example(snippets, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n")
    for alt, number in [("최댓값은 0.94", "0.94"), ("1.4…1.7 사이의 곡선", "1.4"), ("-1e9 로 채운 칸", "1e9"), ("선 3개", "3")]:
        with pytest.raises(SnippetError, match=rf"a.py: number '{re.escape(number)}' in alt text is not checked"):
            ex.figure(alt=alt)
    assert ex.figure(alt="float16 에서 오르는 곡선 하나, d_k 축").startswith("<picture>")
    counted = _example(snippets, "import matplotlib.pyplot as plt\nn_rows = 6\nplt.plot([1, 2])\nplt.show()\n")
    assert 'alt="줄 6개의 곡선"' in counted.figure(alt="줄 {n_rows}개의 곡선")  # read from the snippet


def test_table_columns_must_agree(snippets):
    ex = _example(snippets, "import torch\nx = torch.zeros(3)\n")
    with pytest.raises(SnippetError, match="differ in length"):
        ex.table({"label": ["a", "b"], "x": "x"})


def test_a_snippet_that_prints_nothing_has_no_output_tab(snippets):
    with pytest.raises(SnippetError, match="prints nothing"):
        _example(snippets, "x = 1\n").output()


@pytest.mark.parametrize(
    ("x", "shown"),
    [(0.0, "0"), (-0.0, "-0"), (1.0, "1"), (0.5, "0.5"), (1 / 3, "0.3333"), (0.99999997, "1.0000"),
     (3e-7, "3.00e-07"), (float("-inf"), "-inf"), (float("nan"), "nan"), (True, "True"), (36, "36")],
)
def test_numbers_as_the_pages_show_them(x, shown):
    assert fmt(x) == shown


def test_math_becomes_mathml_with_infinity_a_symbol():
    html = mathml('<p><span class="arithmatex">\\(-\\infty &lt; x\\)</span></p>')
    assert html.startswith("<p><math") and "<mi>&#x0221E;</mi>" in html and "arithmatex" not in html


def test_broken_links_in_raw_html_are_found(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/">ok</a> <a href="a/#here">ok</a> <a href="b/">no</a>'
                                         ' <a href="a/#gone">no</a> <img src="x.png"> <a href="https://x.org/">x</a>')
    (tmp_path / "a/index.html").write_text('<h2 id="here">h</h2>')
    assert broken_links(tmp_path) == ["index.html: b/ (no such file)", "index.html: a/#gone (no such anchor)",
                                      "index.html: x.png (no such file)"]


def test_broken_links_reads_again_what_a_rebuild_rewrote(tmp_path):
    """Pages are read once and kept while unchanged (serve --dirty rewrites only what an edit
    touched); a rewritten, removed or new page is read as it is now."""
    read: dict = {}
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/#here">ok</a>')
    (tmp_path / "a/index.html").write_text('<h2 id="here">h</h2>')
    assert broken_links(tmp_path, read=read) == [] and len(read) == 2
    (tmp_path / "a/index.html").write_text('<h2 id="there">a longer heading</h2>')
    assert broken_links(tmp_path, read=read) == ["index.html: a/#here (no such anchor)"]
    (tmp_path / "a/index.html").unlink()
    (tmp_path / "b.html").write_text('<a href="index.html#top">up</a>')
    assert broken_links(tmp_path, read=read) == ["b.html: index.html#top (no such anchor)", "index.html: a/#here (no such file)"]


def test_serve_shows_a_failing_claim_on_the_page_and_a_build_does_not(tmp_path):
    from types import SimpleNamespace

    from project import plugins

    page_file = tmp_path / "x.md"
    text = 'Rows: `5`{ data-claim="causal/weights.py: T" }.\n'
    page_file.write_text(text, encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="x.md", abs_src_path=str(page_file)))
    shown = {}
    for command in ("serve", "build"):
        config = plugins(tmp_path, command)
        shown[command] = config.plugins["handbook/claims"].on_page_markdown(text, page=page, config=config, files=None)
    assert shown["build"] == text
    assert shown["serve"].startswith('!!! failure "이 페이지의 검사 1건이 실패했습니다')
    assert f"{tmp_path.name}/x.md:1: claim" in shown["serve"] and shown["serve"].endswith(text)


def test_a_broken_link_is_named_at_the_source_line_an_author_edits(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text('<a href="a/#gone">x</a> <a href="b/">y</a> <a href="c/">z</a>')
    (tmp_path / "a/index.html").write_text('<h2 id="here">h</h2>')
    source = "# Home\n\nSee [this](a.md#gone).\n\nAnd [that](b.md).\n"
    sources = {(tmp_path / "index.html").resolve(): ("docs/index.md", source)}
    assert broken_links(tmp_path, sources=sources) == [
        "docs/index.md:3: a/#gone (no such anchor), in index.html",
        "docs/index.md:5: b/ (no such file), in index.html",
        "docs/index.md: c/ (no such file), in index.html"]  # no line holds it: the file still


def test_a_missing_snippet_names_the_page_and_line_that_runs_it(tmp_path, caplog):
    from types import SimpleNamespace

    from project import plugins

    text = 'Intro.\n\n```python exec="on"\nimport handbook\nex = handbook.run("causal/nope.py")\n```\n'
    page_file = tmp_path / "x.md"
    page_file.write_text(text, encoding="utf-8")
    config = plugins(tmp_path)
    snippets = config.plugins["handbook/snippets"]
    page = SimpleNamespace(file=SimpleNamespace(src_uri="x.md", abs_src_path=str(page_file)))
    snippets.on_page_markdown(text, page=page, config=config, files=None)
    with caplog.at_level("WARNING", logger="mkdocs.plugins.handbook"):
        snippets.show("causal/nope.py")
    assert [r.getMessage() for r in caplog.records] == [f"{tmp_path.name}/x.md:5: no snippet snippets/causal/nope.py"]


def test_typed_titles_corners_and_captions_hold_words_and_a_titles_bound_is_checked(snippets):
    # A wrong number in a column title or a corner passed through the build: each is read or checked now.
    ex = _example(snippets, "import torch\ngap = torch.tensor([1e-8, 3e-7])\nrows = torch.eye(2)\n"
                          "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n")
    assert "| 3.00e-07 |" in ex.table({"차이 `< 1e-6`": "gap"})
    with pytest.raises(SnippetError, match=r"the column title '차이 `< 1e-7`' says < 1e-7, and the column holds 3.00e-07"):
        ex.table({"차이 `< 1e-7`": "gap"})
    with pytest.raises(SnippetError, match=r"number '16' in the column title '키 16개' is typed by hand"):
        ex.table({"키 16개": "gap"})
    with pytest.raises(SnippetError, match=r"the value `300` in the column title"):
        ex.table({"점수 `300`": "gap"})
    assert ex.table({"`ids != 0`이고 $p_{ij}$": "gap"})  # code that names, and math, are words here
    assert ex.table({"× 0 뒤, 합 − 1": "gap"})  # and so are the API's own literals (0, 1, -1)
    shown = _example(snippets, "import torch\nthreshold = 0.99\ncount = torch.tensor([3, 4])\n")
    assert "| 최대 가중치 > 0.99인 줄 |" in shown.table({"최대 가중치 > {threshold}인 줄": "count"})
    with pytest.raises(SnippetError, match=r"number '2' in the corner '문장 2' is typed by hand"):
        ex.matrix("rows", rows="{}번 줄", cols="{}번 칸", corner="문장 2")
    with pytest.raises(SnippetError, match=r"number '30' in the caption"):
        ex.figure(alt="곡선 하나", caption="30개의 줄")


def test_every_cited_github_thread_is_listed_as_its_kind_and_every_listed_one_is_cited():
    from handbook import references
    from handbook.labs import prose

    root = Path(__file__).resolve().parents[2]
    pages = {}
    for folder in ("docs", "docs-en"):
        pages |= {f"{folder}/{p.name}": p.read_text(encoding="utf-8") for p in sorted((root / folder).glob("*.md"))}
    pages |= {f"labs/{p.name}": prose(p, None) for p in sorted((root / "labs").glob("*.py"))}  # every language's text
    listed = references.load(root / "references.yml")
    assert references.problems(pages, listed) == []
    assert len(listed) >= 20


def test_a_citation_that_is_not_listed_mistyped_or_unlinked_is_named(tmp_path):
    from handbook import references

    (tmp_path / "references.yml").write_text(
        '- {repo: pytorch/pytorch, number: 18287, kind: issue, title: "A"}\n'
        '- {repo: pytorch/pytorch, number: 133882, kind: pull, title: "B"}\n'
        '- {repo: pytorch/pytorch, number: 1, kind: issue, title: "C"}\n', encoding="utf-8")
    listed = references.load(tmp_path / "references.yml")
    text = ("See [pytorch#18287](https://github.com/pytorch/pytorch/issues/18287).\n"
            "And [pytorch#18278](https://github.com/pytorch/pytorch/issues/18287), "
            "[#133882](https://github.com/pytorch/pytorch/issues/133882), "
            "[x](https://github.com/pytorch/pytorch/pull/999) and #131863 (`#2`, `f(x)`{ data-claim=\"a.py: x\" }).\n")
    assert references.problems({"docs/x.md": text}, listed) == [
        "docs/x.md:2: the link text 'pytorch#18278' names #18278, and the link goes to #18287",
        "docs/x.md:2: pytorch/pytorch#133882 is linked as an issue, and it is a pull request ('B')",
        "docs/x.md:2: pytorch/pytorch#999 is not in references.yml: add it with its title as GitHub shows it",
        "docs/x.md:2: #131863 is cited without a link: link the thread ([`owner/repo#N`](https://github.com/…)), "
        "which names its repository too",
        "docs/x.md:2: #2 is cited without a link: link the thread ([`owner/repo#N`](https://github.com/…)), "
        "which names its repository too",
        "references.yml: pytorch/pytorch#1 ('C') is cited by no page"]
    (tmp_path / "bad.yml").write_text("- {repo: a/b, number: '7', kind: issue, title: t}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.yml: an entry needs repo, number \(an integer\)"):
        references.load(tmp_path / "bad.yml")


def test_templates_compile_once_while_the_plugin_lives_and_an_edited_one_again(tmp_path):
    # MkDocs makes a new Jinja environment each build and keeps the plugin; the plugin's bytecode
    # cache spares a serve rebuild compiling Material's templates again, and an edited template is
    # compiled afresh.
    import jinja2

    from project import plugins

    compiled = []

    class Environment(jinja2.Environment):
        def compile(self, source, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
            compiled.append(source)
            return super().compile(source, *args, **kwargs)

    template = tmp_path / "t.html"
    template.write_text("one {{ x }}", encoding="utf-8")
    plugin = plugins(tmp_path, "serve").plugins["handbook/typeset"]
    render = lambda: (plugin.on_env(Environment(loader=jinja2.FileSystemLoader(tmp_path)))  # noqa: E731
                      .get_template("t.html").render(x=1))
    assert render() == "one 1" and render() == "one 1" and compiled == ["one {{ x }}"]
    template.write_text("two {{ x }}", encoding="utf-8")
    assert render() == "two 1" and compiled == ["one {{ x }}", "two {{ x }}"]


def test_a_snippet_or_lab_run_twice_in_one_build_is_a_warning_and_each_build_counts_its_runs(tmp_path, caplog):
    from handbook.editions import EditionRunner
    from project import plugins

    built = {}
    for command in ("build", "serve"):
        config = plugins(tmp_path, command)
        editions, snippets = config.plugins["handbook/editions"], config.plugins["handbook/snippets"]
        snippets.runner = EditionRunner(Runner(tmp_path), None)
        snippets.runner.runner.executed[:] = ["old/run.py"]  # before this build: not its run
        snippets.ran_before = 1
        snippets.runner.runner.executed += ["a/x.py", "a/x.en.py", "a/y.py", "a/y.py"]
        editions.shared.labs_ran.update({"labs/x.py": 2, "labs/z.py": 1})
        caplog.clear()
        with caplog.at_level("INFO", logger="mkdocs.plugins.handbook"):
            editions._count_runs()
        built[command] = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert built["build"] == [
        ("WARNING", "snippets/a/y.py ran 2 times in one build: each runs once for every edition (a lab whose "
                    "code differs between editions runs for each)"),
        ("WARNING", "labs/x.py ran 2 times in one build: each runs once for every edition (a lab whose code "
                    "differs between editions runs for each)"),
        ("INFO", "handbook: 3 snippets and 2 labs ran in this build, 7 runs in all")]
    assert built["serve"] == []  # under serve an edit runs them again


def test_a_text_twin_must_spell_its_mask_row_for_row(snippets):
    ex = _example(snippets, "import torch\nkeep = torch.ones(3, 3, dtype=torch.bool).tril()\n"
                            "rows = ['■⬚⬚', '■ ■ ⬚', '■■■']\nwrong = ['■⬚⬚', '■■⬚', '■■⬚']\n"
                            "grids = [rows, rows]\n")
    assert ex.twin("rows", of="keep") == "```{.text .twin}\n■⬚⬚\n■ ■ ⬚\n■■■\n```"
    assert ex.twin("grids", of="[keep, keep]").count("■■■") == 2
    for rows, mask in [("wrong", "keep"), ("rows", "~keep"), ("rows[:2]", "keep"), ("grids", "[keep, ~keep]")]:
        with pytest.raises(ValueError, match=rf"a.py: '{re.escape(rows)}', '{re.escape(mask)}': the rows do not spell"):
            ex.twin(rows, of=mask)
