"""Every content chapter has a lab; each lab's notebook is valid and runs top to bottom without error."""

from concurrent.futures import Future
from types import SimpleNamespace

import glue
import nbformat
import pytest
from mkdocs.exceptions import PluginError

LABS = sorted(p.stem for p in (glue.DOCS / "labs").glob("*.py"))
NOT_CHAPTERS = {"index", "pitfalls", "glossary", "cheatsheet"}  # pages without a lab of their own
CHAPTERS = sorted(p.stem for p in glue.DOCS.glob("*.md") if p.stem not in NOT_CHAPTERS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_has_a_lab_and_links_to_it(chapter):
    assert chapter in LABS, f"docs/labs/{chapter}.py is missing"
    assert f"labs/{chapter}.ipynb" in (glue.DOCS / f"{chapter}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", LABS)
def test_lab_download_is_the_notebook_that_ran_without_error(name, site):
    # What the reader downloads: the current lab, as a valid notebook with no outputs...
    download = site / "labs" / name / f"{name}.ipynb"
    text = download.read_text(encoding="utf-8")
    assert text == nbformat.writes(glue.lab_notebook(name))
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    # ...and the build ran exactly that text with nbclient, as Jupyter would, every cell in order.
    executed = glue.LAB_BUILD / "labs" / f"{name}.ipynb"
    assert glue.lab_is_current(text, executed), "the page shows the outputs of another notebook"
    code = [cell for cell in nbformat.read(executed, as_version=4).cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]


def _notebook(*sources):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    notebook.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "handbook": {}}
    return nbformat.writes(notebook)


def test_a_failing_cell_stops_the_lab_and_names_it():
    with pytest.raises(glue.LabError, match=r"(?s)docs/labs/broken\.py: a cell raised.*x / 0.*ZeroDivisionError") as error:
        glue.execute_lab("broken", _notebook("x = 1", "x / 0", "print('never')"))
    assert "\x1b" not in str(error.value)  # plain text, not the kernel's terminal colours


def test_printed_text_is_joined_and_the_run_is_marked_with_its_source(tmp_path):
    text = _notebook("import sys, time\nfor i in range(3):\n    print(i, end=' ', flush=True); time.sleep(0.05)")
    executed = glue.execute_lab("printing", text)
    assert [(o.output_type, o.text) for o in executed.cells[0].outputs] == [("stream", "0 1 2 ")]
    path = tmp_path / "lab.ipynb"
    assert not glue.lab_is_current(text, path)  # never ran: run it
    path.write_text(nbformat.writes(executed), encoding="utf-8")
    assert glue.lab_is_current(text, path)  # same text: the outputs are reused
    assert not glue.lab_is_current(text.replace("range(3)", "range(4)"), path)  # changed: run again


def test_lab_cells_come_from_the_snippets():
    notebook = glue.lab_notebook("causal")
    sources = [cell.source for cell in notebook.cells]
    assert (glue.SNIPPETS / "causal/weights.py").read_text(encoding="utf-8").rstrip() in sources
    assert not any(glue.LAB_CELL.fullmatch(s.strip()) for s in sources)  # every include expanded


def test_a_lab_page_waits_for_its_run_and_a_failure_stops_the_build():
    failed = Future()
    failed.set_exception(glue.LabError("docs/labs/x.py: a cell raised"))
    glue._lab_runs["x"] = failed
    glue.on_pre_page(SimpleNamespace(file=SimpleNamespace(src_uri="x.md")))  # a chapter does not wait
    with pytest.raises(PluginError, match="docs/labs/x.py: a cell raised"):
        glue.on_pre_page(SimpleNamespace(file=SimpleNamespace(src_uri="labs/x.ipynb")))
    assert "x" not in glue._lab_runs
