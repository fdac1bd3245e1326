"""Every snippet runs on its own, as a reader runs it, and prints exactly what the page shows."""

import os
import subprocess
import sys
import unicodedata

import pytest
from project import RUNNER, SNIPPETS

NAMES = RUNNER.all()


def test_there_are_snippets():
    assert len(NAMES) >= 80


@pytest.mark.standalone  # a new Python per snippet (about 1.5 s each): `make test` runs these apart
@pytest.mark.parametrize("name", NAMES)
def test_snippet_runs_alone(name, tmp_path):
    # From an empty folder, with a headless backend: no other file of the project is needed.
    env = {**os.environ, "MPLBACKEND": "Agg"}
    result = subprocess.run(
        [sys.executable, str(SNIPPETS / name)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", f"{name} writes to stderr:\n{result.stderr}"
    assert result.stdout == RUNNER.run(name).stdout, "the page shows other output than the script prints"


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
