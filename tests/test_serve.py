"""Builds of a small copy of the project: `make serve` rebuilds in place (a prose edit rebuilds its page
only, a snippet edit the pages showing it), and the strict build fails on what it must."""

import os
import subprocess
import sys

from workspace import project_copy, serve_session


def test_dirty_rebuilds(tmp_path):
    small = project_copy(tmp_path, pages=("index.md", "causal.md", "softmax.md"))
    builds = serve_session(small, ["", "docs/softmax.md", "snippets/causal/weights.py", ""])
    first, prose, code, nothing = (pages for _seconds, pages in builds)
    assert "causal" in first and "softmax" in first  # the first build builds everything
    assert prose == ["softmax"]  # a prose edit: that page only
    assert code == ["causal"]  # a snippet edit: the page that shows it, and only that one
    assert nothing == []


def test_a_snippet_edit_runs_the_lab_showing_it_again(tmp_path):
    small = project_copy(tmp_path, pages=("index.md", "causal.md", "labs/causal.py"))
    builds = serve_session(small, ["", "snippets/causal/weights.py", ""])
    first, code, nothing = (pages for _seconds, pages in builds)
    assert "labs/causal" in first
    assert code == ["causal", "labs/causal"]  # the chapter, and the lab, run again with the edit
    assert "# edited" in (small / "site/labs/causal/index.html").read_text(encoding="utf-8")
    assert nothing == []  # its outputs are current: not run again


def test_a_broken_link_in_raw_html_fails_the_strict_build(tmp_path):
    # MkDocs validates only the links it writes from Markdown; the plugin checks the built site.
    small = project_copy(tmp_path, pages=("index.md",))
    page = small / "docs/index.md"
    page.write_text(page.read_text(encoding="utf-8") + '\n<a href="nowhere/">없는 곳</a>\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=small,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True)
    assert result.returncode != 0
    assert "broken link: index.html: nowhere/ (no such file)" in result.stderr
