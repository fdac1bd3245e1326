"""Every snippet runs on its own, as a reader runs it, and prints exactly what the page shows."""

import multiprocessing
import os
import unicodedata

import pytest
from project import RUNNER, SNIPPETS

NAMES = RUNNER.all()


def test_there_are_snippets():
    assert len(NAMES) >= 80


def _alone(path: str, folder: str) -> None:
    """In a new process: run one snippet as ``python <path>`` would, from ``folder``, with its
    stdout and stderr (file descriptors, so C code's output counts too) in two files there."""
    import os
    import runpy
    import sys

    os.chdir(folder)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT), fd)
    sys.argv, sys.path[0] = [path], os.path.dirname(path)
    try:
        runpy.run_path(path, run_name="__main__")
    finally:
        sys.stdout.flush(), sys.stderr.flush()


@pytest.fixture(scope="session")
def python():
    """New processes forked from one that has already imported torch, numpy and matplotlib (about
    1.5 s a snippet otherwise). Each snippet still gets a process, a namespace and a folder of its
    own, the same warning filters as `python file.py`, and a headless matplotlib backend."""
    os.environ["MPLBACKEND"] = "Agg"
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["torch", "numpy", "matplotlib.pyplot"])
    return context


@pytest.mark.standalone
@pytest.mark.parametrize("name", NAMES)
def test_snippet_runs_alone(name, tmp_path, python):
    # From an empty folder: no other file of the project is needed.
    process = python.Process(target=_alone, args=(str(SNIPPETS / name), str(tmp_path)))
    process.start()
    process.join(timeout=120)
    stdout, stderr = ((tmp_path / f).read_text(encoding="utf-8") for f in ("stdout", "stderr"))
    assert process.exitcode == 0, stderr
    assert stderr == "", f"{name} writes to stderr:\n{stderr}"
    assert stdout == RUNNER.run(name).stdout, "the page shows other output than the script prints"


def test_a_snippet_run_alone_reports_what_it_writes(tmp_path, python):
    # The harness itself: output, stderr and a failing exit are seen.
    script = tmp_path / "x.py"
    script.write_text("import sys\nprint('out')\nprint('err', file=sys.stderr)\nraise SystemExit(3)\n")
    process = python.Process(target=_alone, args=(str(script), str(tmp_path)))
    process.start()
    process.join(timeout=60)
    assert process.exitcode == 3
    assert (tmp_path / "stdout").read_text() == "out\n" and (tmp_path / "stderr").read_text() == "err\n"


def _columns(line: str) -> int:
    """Width in a monospace font: Hangul and other wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("name", NAMES)
def test_snippet_has_no_build_plumbing(name):
    source = (SNIPPETS / name).read_text(encoding="utf-8")
    for marker in ("__main__", "__file__", "base64", "StringIO", "savefig", "markdown", "handbook"):
        assert marker not in source, f"{name} mentions {marker!r}: build plumbing belongs in the handbook plugin"
    lines = source.splitlines()
    assert len(lines) <= 40, f"{name} is longer than 40 lines"
    wide = [n for n, line in enumerate(lines, 1) if _columns(line) > 88]
    assert not wide, f"{name}: lines {wide} are wider than the page's code block (88 characters)"
