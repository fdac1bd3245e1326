"""Every content chapter has a lab; each lab's notebook is valid, ran top to bottom without error or
stderr, and its outputs are reused only under the same text and environment."""

import os
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from handbook import labs, runs
from handbook.editions import EditionRunner
from handbook.snippets import Runner
from project import DOCS, LABS as LAB_SOURCES, LANGS, ROOT, SNIPPETS
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

LABS = sorted(p.stem for p in LAB_SOURCES.glob("*.py"))
NOT_CHAPTERS = {"index", "pitfalls", "glossary", "cheatsheet", "explorer"}  # pages without a lab of their own
CHAPTERS = sorted(p.stem for p in DOCS.glob("*.md") if p.stem not in NOT_CHAPTERS)


def test_every_chapter_is_found():
    assert len(CHAPTERS) >= 8 and set(CHAPTERS) <= {p.stem for p in DOCS.glob("*.md")}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_has_a_lab_and_links_to_it(chapter):
    assert chapter in LABS, f"labs/{chapter}.py is missing"
    assert f"labs/{chapter}.md" in (DOCS / f"{chapter}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("edition", ["", "en"])
@pytest.mark.parametrize("name", LABS)
def test_lab_download_is_the_notebook_that_ran_without_error(name, edition, site):
    # What the reader downloads: the current lab in the edition's language, as a valid notebook
    # with no outputs...
    folder = f"{edition}/" if edition else ""
    text = (site / f"{folder}labs" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    site_url = (load_config(str(ROOT / "mkdocs.yml"))["site_url"] or "") + folder
    source, lang = LAB_SOURCES / f"{name}.py", LANGS[edition]
    shows = EditionRunner(Runner(SNIPPETS), edition or None).source
    assert text == nbformat.writes(labs.notebook(source, SNIPPETS, lang, site_url if site_url != folder else "", shows=shows))
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    assert "data-claim" not in text  # claims are plain code in Jupyter
    # ...and the build ran exactly that code, in this environment, every cell in order.
    executed = ROOT / os.environ["LABS_CACHE_DIR"] / edition / f"{name}.ipynb"  # the site's own runs
    # ...and a cell evaluating the lab's claims (every language's) after each answer's check
    ran = runs.with_claims(text, [c for lang in LANGS.values() for c in labs.lab_claims(source, lang)])
    assert runs.is_current(executed, runs.digest(runs.code_of(ran) + runs.environment()))
    code = [cell for cell in nbformat.read(executed, as_version=4).cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]


LAB_CLAIMS = [(lang, p, claim) for lang in LANGS.values()
              for p in sorted(LAB_SOURCES.glob("*.py")) for claim in labs.lab_claims(p, lang)]


@pytest.mark.parametrize("edition", ["", "en"])
@pytest.mark.parametrize("name", LABS)
def test_every_lab_claim_holds_in_the_run_the_site_shows_and_a_changed_literal_fails(name, edition, site):
    # The build checked these already (a false one fails it); here the checker itself: each claim
    # holds against the site's own run, and each mutant of its literal does not.
    from handbook.prose import read_claims
    from test_claims import mutants

    source, lang = LAB_SOURCES / f"{name}.py", LANGS[edition]
    executed = nbformat.read(ROOT / os.environ["LABS_CACHE_DIR"] / edition / f"{name}.ipynb", as_version=4)
    values, problems = labs.lab_values(source, lang, executed), []
    for claim in (c for c in read_claims(labs.prose(source, lang), str(source), problems) if c.snippet == labs.LAB):
        assert claim.check(None, values) is None, claim.check(None, values)
        for _, mutant in mutants(claim):
            assert mutant.check(None, values) is not None, f"{claim.where}: `{mutant.literal}` passes as well as `{claim.literal}`"
    assert not problems


def test_labs_make_claims_of_their_own():
    assert len(LAB_CLAIMS) >= 2 and {(lang, p.name) for lang, p, _ in LAB_CLAIMS} >= {("ko", "causal.py"), ("en", "causal.py")}


def test_a_lab_claim_is_checked_against_the_cell_after_its_text_and_fails_once_the_code_changes(tmp_path, kernels):
    from handbook.prose import check_page

    def run(letters: str) -> list[str]:
        source = tmp_path / "labs" / "count.py"
        source.parent.mkdir(exist_ok=True)
        source.write_text(
            '# %% [markdown] lang="ko"\n# Count.\n\n# %%\nimport torch\n\n# %% [markdown] lang="ko"\n'
            '# Seven letters give <span data-claim="lab: int(visible.sum())">twenty-eight</span> cells,\n'
            '# `7`{ data-claim="lab: len(chars)" } rows.\n\n'
            f'# %%\nchars = list("{letters}")\nvisible = torch.tril(torch.ones(len(chars), len(chars)))\n'
            "\n# %%\nchars = []\n", encoding="utf-8")
        text = nbformat.writes(labs.notebook(source, SNIPPETS, "ko"))
        book = runs.execute("labs/count.py", runs.with_claims(text, labs.lab_claims(source, "ko")), "k", kernels)
        assert len(book.cells) == len(nbformat.reads(text, as_version=4).cells)  # the claims cell is gone...
        code = [c for c in book.cells if c.cell_type == "code"]
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1))  # ...and so is its number
        return check_page(labs.prose(source, "ko"), "labs/count.py", Runner(SNIPPETS), labs.lab_values(source, "ko", book))

    assert run("ABCDEFG") == []  # read after the cell below the text, not at the end (chars = [])
    assert run("ABCDEF") == [
        "labs/count.py:8: claim `twenty-eight` (lab: int(visible.sum())) does not hold: the prose says "
        "twenty-eight, the lab gives 21",
        "labs/count.py:9: claim `7` (lab: len(chars)) does not hold: the prose says 7, the lab gives 6"]


def _notebook(*sources):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    notebook.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    return nbformat.writes(notebook)


def test_a_kernel_is_a_fork_of_the_warm_server_with_only_torch_and_matplotlib_loaded(kernels):
    text = _notebook("import os, sys\nprint(os.getppid(), sorted(m for m in ('torch', 'matplotlib', "
                     "'matplotlib.pyplot', 'matplotlib_inline.backend_inline', 'ipykernel.kernelapp') if m in sys.modules))")
    parent, loaded = runs.execute("labs/fork.py", text, "k", kernels).cells[0].outputs[0].text.split(" ", 1)
    assert int(parent) == kernels.process.pid
    assert loaded.strip() == "['ipykernel.kernelapp', 'matplotlib', 'torch']"  # pyplot hooks into the kernel's own shell


def test_the_kernel_launcher_names_its_usage():
    out = subprocess.run([sys.executable, "-m", "handbook.kernels", "nonsense"], capture_output=True, text=True)
    assert out.returncode != 0 and "usage: python -m handbook.kernels serve SOCKET | launch" in out.stderr


def test_a_failing_cell_stops_the_lab_and_names_it(kernels):
    with pytest.raises(labs.LabError, match=r"(?s)labs/broken\.py: a cell raised.*x / 0.*ZeroDivisionError") as error:
        runs.execute("labs/broken.py", _notebook("x = 1", "x / 0", "print('never')"), "k", kernels)
    assert "\x1b" not in str(error.value)  # plain text, not the kernel's terminal colours


@pytest.mark.parametrize("cell", ["import warnings; warnings.warn('careful')",
                                  "import sys; print('oops', file=sys.stderr)",
                                  "import logging; logging.getLogger('x').warning('logged')"])
def test_a_cell_that_warns_or_writes_to_stderr_stops_the_lab(cell, kernels):
    with pytest.raises(labs.LabError, match=r"(?s)labs/noisy\.py: code cell 2 wrote to stderr"):
        runs.execute("labs/noisy.py", _notebook("x = 1", cell), "k", kernels)


def test_printed_text_is_joined_and_the_run_is_marked_with_its_key(tmp_path, kernels):
    text = _notebook("import sys, time\nfor i in range(3):\n    print(i, end=' ', flush=True); time.sleep(0.05)")
    executed = runs.execute("printing", text, "key-1", kernels)
    assert [(o.output_type, o.text) for o in executed.cells[0].outputs] == [("stream", "0 1 2 ")]
    path = tmp_path / "lab.ipynb"
    assert not runs.is_current(path, "key-1")  # never ran: run it
    path.write_text(nbformat.writes(executed), encoding="utf-8")
    assert runs.is_current(path, "key-1")
    assert not runs.is_current(path, "key-2")


def test_figures_are_drawn_inline_whatever_backend_the_environment_names(monkeypatch, kernels):
    # MPLBACKEND=Agg (set by headless CI, or by another test in the same worker) once left every
    # lab figure out of the page, so two builds of one commit differed.
    monkeypatch.setenv("MPLBACKEND", "Agg")
    text = _notebook("import matplotlib.pyplot as plt", "plt.plot([0, 1]); plt.show()")
    outputs = runs.execute("figure", text, "k", kernels).cells[-1].outputs
    assert any("image/png" in o.get("data", {}) for o in outputs), outputs


@pytest.mark.kernels
def test_the_reuse_key_changes_with_the_cpu_capability():
    # A lab run under another CPU setting printed other rounding: its outputs must not be reused.
    code = "from handbook.runs import environment; print(environment())"
    keys = {cap: subprocess.run([sys.executable, "-c", code], env={**os.environ, "ATEN_CPU_CAPABILITY": cap},
                                capture_output=True, text=True, check=True).stdout for cap in ("default", "avx2")}
    assert keys["default"] != keys["avx2"]


def test_the_reuse_key_ignores_how_idle_threads_wait_but_not_how_many_there_are(monkeypatch):
    # The tests set OMP_WAIT_POLICY=PASSIVE and `make serve` does not: with it in the key, each
    # reran every lab after the other. The thread count does change results (padding/encoder.py).
    for name in ("OMP_WAIT_POLICY", "KMP_BLOCKTIME", "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    plain = runs.environment()
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv("KMP_BLOCKTIME", "0")
    assert runs.environment() == plain
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert runs.environment() != plain


def test_lab_cells_come_from_the_snippets():
    notebook = labs.notebook(LAB_SOURCES / "causal.py", SNIPPETS, "ko")
    sources = [cell.source for cell in notebook.cells]
    assert (SNIPPETS / "causal/weights.py").read_text(encoding="utf-8").rstrip() in sources
    assert not any(labs.SNIPPET_CELL.fullmatch(s.strip()) for s in sources)  # every include expanded


def test_an_executed_notebook_becomes_a_markdown_page():
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("## 제목"), nbformat.v4.new_code_cell("print(1)")])
    book.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    assert labs.markdown(book, book, lambda png, code: "") == '## 제목\n\n```python\nprint(1)\n```\n\n```{.text .output title="출력"}\n1\n```\n'


def _code_key(*sources: str) -> str:
    return runs.code_of(nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])))


@pytest.mark.parametrize("edited, same", [
    ("x = 1  # one\nif x:\n\n  print(x)", True),  # a comment, a blank line, a narrower indent
    ("# a note\nx = 1\nif x:\n    print(x)  # shown", True),
    ("x = 2\nif x:\n    print(x)", False),  # a number
    ("x = 1\nif x:\n    print(x);", False),  # a semicolon (it hides a cell's value in Jupyter)
    ("x = 1\nif x:\n    pass\nprint(x)", False),  # a statement moved out of the block
    ("x = 1\nif x:\n    print('x')", False),
])
def test_a_comment_or_a_blank_line_runs_no_lab_again_and_any_change_of_code_does(edited, same):
    # Issue 29: under `make serve`, a one-line comment edit in a snippet ran its labs again in both
    # editions (9-16 s on a 2-core machine). The reuse key reads the code cells as Python does.
    assert (_code_key("x = 1\nif x:\n    print(x)", "%time y = 2") == _code_key(edited, "%time y = 2")) is same


def test_a_notebook_made_again_from_the_same_sources_is_a_copy_and_any_edit_makes_it_anew(tmp_path):
    # Made once for the same inputs in what ``made`` keeps (the build's: serve asks for every lab at
    # each rebuild): an edit to the lab or to a snippet it includes gives the new notebook, and
    # callers may change theirs.
    made: dict = {}
    (tmp_path / "labs").mkdir()
    (tmp_path / "s").mkdir()
    lab, snippet = tmp_path / "labs/x.py", tmp_path / "s/a.py"
    lab.write_text('# %% [markdown] lang="ko"\n# # X\n\n# %%\n# snippet: a.py\n', encoding="utf-8")
    snippet.write_text("print(1)\n", encoding="utf-8")
    first = labs.notebook(lab, tmp_path / "s", "ko", made=made)
    first.cells[-1].source = "changed by a caller"
    assert len(made) == 1
    assert labs.notebook(lab, tmp_path / "s", "ko", made=made).cells[-1].source == "print(1)"
    snippet.write_text("print(2)\n", encoding="utf-8")
    assert labs.notebook(lab, tmp_path / "s", "ko", made=made).cells[-1].source == "print(2)"
    lab.write_text(lab.read_text(encoding="utf-8") + "\n# %%\nprint(3)\n", encoding="utf-8")
    assert labs.notebook(lab, tmp_path / "s", "ko", made=made).cells[-1].source == "print(3)"
    snippet.unlink()
    with pytest.raises(labs.LabError, match="missing snippet snippets/a.py"):
        labs.notebook(lab, tmp_path / "s", "ko", made=made)


def test_a_lab_page_shows_the_code_as_the_sources_have_it_beside_the_outputs_of_its_run():
    # A comment edited since the run: the page shows the new comment, over the same outputs.
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)  # old")])
    book.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    now = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)  # new")])
    page = labs.markdown(book, now, lambda png, code: "")
    assert "print(1)  # new" in page and "# old" not in page and '```{.text .output title="출력"}\n1\n```' in page


def _failed_lab(folder: Path, command: str) -> Any:
    """The handbook/labs plugin, under ``command``, whose lab "x" has failed."""
    from project import plugins

    plugin = plugins(folder, command).plugins["handbook/labs"]
    failed = Future()
    failed.set_exception(labs.LabError("labs/x.py: a cell raised\nZeroDivisionError"))
    plugin.lab_runs["x"] = failed
    return plugin


def test_a_lab_page_waits_for_its_run_and_a_failure_stops_the_build(tmp_path):
    plugin = _failed_lab(tmp_path, "build")
    with pytest.raises(PluginError, match="labs/x.py: a cell raised"):
        plugin._lab_markdown("x", SimpleNamespace(meta={}))
    assert "x" not in plugin.lab_runs


def test_under_serve_a_failing_lab_is_shown_on_its_page_and_the_server_keeps_serving(tmp_path):
    page, values = _failed_lab(tmp_path, "serve")._lab_markdown("x", SimpleNamespace(meta={}))
    assert values is None  # no run: the lab's own claims cannot be checked, and the page says why
    assert page.startswith('!!! failure "실습이 실패했습니다') and "ZeroDivisionError" in page


def test_the_cell_that_checks_an_answer_is_folded_with_it():
    # Its output is the answer: on the page it sits inside the folded answer, not under it.
    book = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("### 해 보기\n\n<details markdown><summary>답</summary>\n\n셋.\n\n</details>"),
        nbformat.v4.new_code_cell("print(3)"), nbformat.v4.new_code_cell("print(4)")])
    for cell, text in ((book.cells[1], "3\n"), (book.cells[2], "4\n")):
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    page = labs.markdown(book, book, lambda png, code: "")
    answer, rest = page.split("</details>")
    assert "print(3)" in answer and '```{.text .output title="출력"}\n3\n```' in answer
    assert "print(4)" in rest and "print(4)" not in answer


def test_the_kernel_server_ignores_ctrl_c_ends_with_the_build_and_leaves_nothing_in_tmp(tmp_path):
    # Ctrl-C of `make serve` reached the server too: a KeyboardInterrupt traceback every time, and a
    # /tmp/handbook-kernels-* folder left behind by each session, and by each build stopped by
    # SIGTERM or a kill (no atexit): the server removes its socket's folder as it ends.
    import signal

    from handbook.kernels import Server

    (tmp_path / "folder").mkdir()
    server = subprocess.Popen([sys.executable, "-m", "handbook.kernels", "serve", str(tmp_path / "folder/socket")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "ready"
    server.send_signal(signal.SIGINT)  # as a terminal's Ctrl-C: ignored...
    server.stdin.close()  # ...and the build's end of the pipe closing ends it
    assert server.wait(timeout=runs.HANG_S) == 0
    assert "Traceback" not in server.stderr.read() and not (tmp_path / "folder").exists()
    kept = Server()
    folder = kept.folder
    assert (folder / "kernels/python3/kernel.json").is_file()
    kept.close()
    assert not folder.exists()


def _lab(tmp_path, text: str):
    source = tmp_path / "labs" / "x.py"
    source.parent.mkdir(exist_ok=True)
    source.write_text(text, encoding="utf-8")
    return source


def test_one_lab_source_gives_each_edition_its_own_text_around_the_same_code(tmp_path):
    source = _lab(tmp_path, '# %% [markdown] lang="ko"\n# # 제목\n\n# %% [markdown] lang="en"\n# # Title\n\n'
                            '# %%\nx = 1\n\n# %% [markdown] lang="ko"\n# 끝.\n\n# %% [markdown] lang="en"\n# The end.\n')
    for lang, words in (("ko", ["# 제목", "끝."]), ("en", ["# Title", "The end."])):
        book = labs.notebook(source, SNIPPETS, lang)
        assert [c.source for c in book.cells if c.cell_type == "markdown"] == words
        assert [c.source for c in book.cells if c.cell_type == "code"][1:] == ["x = 1"]  # after the setup cell
        assert [c.id for c in book.cells] == [f"x-{n}" for n in range(4)] and all(c.metadata == {} for c in book.cells)
    # the prose checks read one language's lines at the source's own line numbers
    assert labs.prose(source, "en").split("\n")[4] == "# Title" and labs.prose(source, "ko").split("\n")[4] == ""
    assert labs.prose(source, None).split("\n")[1] == "# 제목"
    with pytest.raises(labs.LabError, match=r"labs/x.py has no text in 'fr' \(its text cells are in \['en', 'ko'\]\)"):
        labs.notebook(source, SNIPPETS, "fr")


@pytest.mark.parametrize("header", ["# %% [markdown]", "# %% [markdown] lang=ko", "# %% [md] lang=\"ko\"", "# %%  x"])
def test_a_cell_header_of_another_form_is_an_error_naming_its_line(tmp_path, header):
    # A text cell with no language would be shown in no edition (or, read loosely, in every one).
    source = _lab(tmp_path, f'# %% [markdown] lang="ko"\n# 글\n\n{header}\n# text\n')
    with pytest.raises(labs.LabError, match=r"labs/x.py:4: a cell header is '# %%' \(code\) or"):
        labs.prose(source, "ko")


def test_the_languages_of_a_lab_pair_up_between_code_cells_and_claim_the_same(tmp_path):
    from handbook.editions import lab_pair_problems

    ko, en = '# %% [markdown] lang="ko"\n# 글\n\n', '# %% [markdown] lang="en"\n# Text\n\n'
    claim = '# %% [markdown] lang="{}"\n# <span data-claim="lab: n">{}</span>\n\n'
    assert lab_pair_problems(_lab(tmp_path, ko + en + "# %%\nn = 2\n"), ["ko", "en"]) == []
    assert lab_pair_problems(_lab(tmp_path, ko + ko + en + "# %%\nn = 2\n" + en), ["ko", "en"]) == [
        "labs/x.py: before the first code cell, the languages have different numbers of text cells (ko 2, en 1)",
        "labs/x.py: after code cell 1, the languages have different numbers of text cells (ko 0, en 1)"]
    text = ko + en + "# %%\nn = 2\n\n" + claim.format("ko", "둘") + '# %% [markdown] lang="en"\n# Two.\n'
    assert lab_pair_problems(_lab(tmp_path, text), ["ko", "en"]) == [
        "labs/x.py: its en text claims other things than its ko text: missing ['lab: n']"]


def test_every_lab_of_the_site_pairs_up_in_both_languages():
    from handbook.editions import lab_pair_problems

    assert [p for source in sorted(LAB_SOURCES.glob("*.py")) for p in lab_pair_problems(source, list(LANGS.values()))] == []
