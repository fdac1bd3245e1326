"""Every content chapter has a lab; each lab's notebook is valid and runs top to bottom without error."""

import glue
import nbformat
import pytest
from nbclient import NotebookClient

LABS = sorted(p.stem for p in (glue.DOCS / "labs").glob("*.py"))
NOT_CHAPTERS = {"index", "pitfalls", "glossary", "cheatsheet"}  # pages without a lab of their own
CHAPTERS = sorted(p.stem for p in glue.DOCS.glob("*.md") if p.stem not in NOT_CHAPTERS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_has_a_lab_and_links_to_it(chapter):
    assert chapter in LABS, f"docs/labs/{chapter}.py is missing"
    assert f"labs/{chapter}.ipynb" in (glue.DOCS / f"{chapter}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", LABS)
def test_lab_notebook_runs_as_downloaded(name, tmp_path):
    # What the reader downloads: a notebook with no outputs, that Jupyter (or Colab) runs as is.
    notebook = nbformat.reads(nbformat.writes(glue.lab_notebook(name)), as_version=4)
    nbformat.validate(notebook)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


def test_lab_cells_come_from_the_snippets():
    notebook = glue.lab_notebook("causal")
    sources = [cell.source for cell in notebook.cells]
    assert (glue.SNIPPETS / "causal/weights.py").read_text(encoding="utf-8").rstrip() in sources
    assert not any(glue.LAB_CELL.fullmatch(s.strip()) for s in sources)  # every include expanded
