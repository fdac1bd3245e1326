"""Every snippet runs on its own, as a reader runs it, and prints exactly what the page shows."""

import ast
import builtins
import multiprocessing
import os
import re
import symtable
import unicodedata

import pytest
from alone import run_alone
from website import HANG_S
from project import RAW_NAMES, RUNNER, SNIPPETS

NAMES = RUNNER.all()


def test_there_are_snippets():
    assert len(NAMES) >= 80


@pytest.fixture(scope="session")
def python():
    """New processes forked from one that has already imported torch, numpy, matplotlib,
    FlexAttention, Transformers' masks and Keras (1.5 to 3 s a snippet otherwise). Each snippet
    still gets a process, a namespace and a folder of its own, the same warning filters as
    `python file.py`, and a headless matplotlib backend. (JAX is not preloaded: its runtime is
    not safe to fork.)"""
    os.environ["MPLBACKEND"] = "Agg"
    context = multiprocessing.get_context("forkserver")
    os.environ["KERAS_BACKEND"] = "torch"  # as apis/keras_mha.py sets it, before keras is imported
    context.set_forkserver_preload(["torch", "numpy", "matplotlib.pyplot", "torch.nn.attention.flex_attention",
                                    "transformers.masking_utils", "keras"])
    return context


def finish(process, name: str) -> None:
    """Start ``process`` and wait for it to end, however long the machine takes (the forkserver's
    first start imports torch, Transformers and Keras); only a hang reaches the limit."""
    process.start()
    process.join(timeout=HANG_S)
    if process.is_alive():
        process.kill()
        process.join()
        pytest.fail(f"{name} still running after {HANG_S} s: it hangs")


@pytest.mark.standalone
@pytest.mark.parametrize("name", NAMES)
def test_snippet_runs_alone(name, tmp_path, python):
    # From an empty folder: no other file of the project is needed. A variant (x.en.py, made from
    # its chapter's catalogue) runs as the file a reader of that edition would copy.
    path = SNIPPETS / name
    if not path.is_file():
        path = tmp_path / "variant" / path.name
        path.parent.mkdir()
        path.write_text(RUNNER.source(name), encoding="utf-8")
    process = python.Process(target=run_alone, args=(str(path), str(tmp_path)))
    finish(process, name)
    stdout, stderr = ((tmp_path / f).read_text(encoding="utf-8") for f in ("stdout", "stderr"))
    assert process.exitcode == 0, stderr
    assert stderr == "", f"{name} writes to stderr:\n{stderr}"
    assert stdout == RUNNER.run(name).stdout, "the page shows other output than the script prints"


@pytest.mark.standalone
def test_a_snippet_run_alone_reports_what_it_writes(tmp_path, python):
    # The harness itself: output, stderr and a failing exit are seen.
    script = tmp_path / "x.py"
    script.write_text("import sys\nprint('out')\nprint('err', file=sys.stderr)\nraise SystemExit(3)\n")
    process = python.Process(target=run_alone, args=(str(script), str(tmp_path)))
    finish(process, "x.py")
    assert process.exitcode == 3
    assert (tmp_path / "stdout").read_text() == "out\n" and (tmp_path / "stderr").read_text() == "err\n"


def _columns(line: str) -> int:
    """Width in a monospace font: Hangul and other wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("name", NAMES)
def test_snippet_has_no_build_plumbing(name):
    source = RUNNER.source(name)
    for marker in ("__main__", "__file__", "base64", "StringIO", "savefig", "markdown", "handbook"):
        assert marker not in source, f"{name} mentions {marker!r}: build plumbing belongs in the handbook plugin"
    lines = source.splitlines()
    assert len(lines) <= 40, f"{name} is longer than 40 lines"
    wide = [n for n, line in enumerate(lines, 1) if _columns(line) > 88]
    assert not wide, f"{name}: lines {wide} are wider than the page's code block (88 characters)"


DEMO = re.compile(r"# --- demo(: .+)? ---")  # the line between the copyable functions and the demo


def _reads(table: symtable.SymbolTable) -> set[str]:
    """Names a function (with its lambdas, comprehensions and inner functions) reads from the module."""
    names = {sym.get_name() for sym in table.get_symbols() if sym.is_global()}
    return names.union(*(_reads(child) for child in table.get_children()))


@pytest.mark.parametrize("name", NAMES)
def test_snippet_functions_copy_without_the_demo(name):
    # A reader copies the functions above the demo line: they must run on their arguments alone,
    # with no demo global read, no eval of call strings and no .data assignment (issue: copyable
    # functions separated from demonstration code).
    source = RUNNER.source(name)
    tree = ast.parse(source)
    for node in ast.walk(tree):
        called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
        assert called not in ("eval", "exec", "compile"), f"{name}:{node.lineno}: {called}() runs code from a string"
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for target in targets:
            assert not (isinstance(target, ast.Attribute) and target.attr == "data"), (
                f"{name}:{node.lineno}: assigns .data; use `with torch.no_grad(): param.copy_(...)`")
    defs = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    marks = [n for n, line in enumerate(source.splitlines(), 1) if DEMO.fullmatch(line)]
    if not defs:
        assert not marks, f"{name}: a demo line but no function above it"
        return
    assert len(marks) == 1, f"{name}: defines functions, so one `# --- demo ---` line must follow them"
    above = [node for node in tree.body if node.lineno < marks[0]]
    extra = [n.lineno for n in above if not isinstance(n, (ast.Import, ast.ImportFrom, ast.FunctionDef))]
    assert not extra, f"{name}: lines {extra} above the demo line are neither imports nor functions"
    assert all(d.lineno < marks[0] for d in defs), f"{name}: a function below the demo line"
    imported = {(alias.asname or alias.name).split(".")[0]
                for node in above if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    allowed = imported | {d.name for d in defs} | set(dir(builtins))
    module = symtable.symtable(source, name, "exec")
    for d in defs:
        (table,) = [t for t in module.get_children() if t.get_name() == d.name and t.get_lineno() == d.lineno]
        defaults = [n for expr in d.args.defaults + d.args.kw_defaults if expr is not None
                    for n in ast.walk(expr)]  # evaluated once, in the module: `fix=lambda w: w`
        bound = {a.arg for n in defaults if isinstance(n, ast.Lambda) for a in ast.walk(n.args)
                 if isinstance(a, ast.arg)}
        defaults = [n.id for n in defaults if isinstance(n, ast.Name) and n.id not in bound]
        reads = (_reads(table) | set(defaults)) - allowed
        assert not reads, f"{name}: {d.name}() reads the module's {sorted(reads)}: pass them as arguments"


# What a figure writes reads as the pages do: d_k, L_Q and the like as math ($d_k$, as RAW_NAMES
# asks of the pages), and a root as mathtext's radical: NanumGothic's √ stands lower than the d
# it covers.
RAW_IN_FIGURES = re.compile(f"{RAW_NAMES.pattern}|√")


@pytest.mark.parametrize("name", NAMES)
def test_figure_text_writes_names_and_roots_as_math(name):
    from matplotlib.text import Text

    raw = [text.get_text() for shown in RUNNER.run(name).shown for text in shown.figure.findobj(Text)
           if RAW_IN_FIGURES.search(re.sub(r"\$[^$]*\$", "", text.get_text()))]
    assert not raw, f"{name}: {raw}"


@pytest.mark.parametrize("name", NAMES)
def test_a_phone_copy_shows_its_legends_titles_and_axis_labels_whole(name):
    """Within the phone copy's width (figures.phone_svg), to 2 px (a glyph's side bearing): a
    legend with its frame and handles, the titles, the axis labels. (Not tick labels: matplotlib
    keeps some past the axis, undrawn.)"""
    def fits(fig, artist):
        box = artist.get_window_extent(fig.canvas.get_renderer())
        return box.x0 >= -2 and box.x1 <= fig.bbox.width + 2

    run = RUNNER.run(name)
    cut = []
    for shown, phone in zip(run.shown, run.phones):
        if phone is None:
            continue
        fig = shown.figure
        parts = [*fig.legends, *(a.get_legend() for a in fig.axes if a.get_legend() is not None)]
        parts += [t for a in fig.axes for t in (a.title, a.xaxis.label, a.yaxis.label)]
        cut += [p.get_text() if hasattr(p, "get_text") else "a legend" for p in parts
                if p.get_visible() and (not hasattr(p, "get_text") or p.get_text()) and not fits(fig, p)]
    assert not cut, f"{name}: {cut}"


# A grid of two colours (ListedColormap: kept and masked, moved and still) is a mask figure: every
# page that shows it shows its text twin too, the ■/⬚ rows a reader copies (render.Example.twin).
GRIDS = [name for name in NAMES if "." not in name.removesuffix(".py") and "ListedColormap" in SNIPPETS.joinpath(name).read_text()]


@pytest.mark.parametrize("name", GRIDS)
def test_a_mask_figure_is_shown_with_its_text_twin(name):
    blocks = [block for page in sorted(SNIPPETS.parent.glob("docs*/*.md"))
              for block in re.findall(r"(?s)```python exec=\"on\"\n(.*?)\n```", page.read_text())
              if f'handbook.run("{name}")' in block and ".figure(" in block]
    assert blocks and all("ex.twin(" in block for block in blocks), name
