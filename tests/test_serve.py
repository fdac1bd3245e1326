"""`make serve` rebuilds in place: a prose edit rebuilds its page only, a snippet edit the pages showing it."""

from bench import project_copy, serve_session


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
