"""The test workers share one site build (tests/conftest.py): it runs once, and a failure is reported once."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from website import build_once


def counting(fails: bool):
    calls = []

    def build(site):
        calls.append(site)
        if fails:
            raise RuntimeError("mkdocs build --strict failed:\nWARNING -  docs/x.md:1: claim `0` does not hold")
        site.mkdir()
        return site

    return build, calls


def test_the_first_worker_builds_and_the_others_reuse_it(tmp_path):
    build, calls = counting(fails=False)
    with ThreadPoolExecutor(4) as workers:
        sites = list(workers.map(lambda _: build_once(tmp_path, build), range(4)))
    assert calls == [tmp_path / "site"]
    assert sites == [tmp_path / "site"] * 4


def test_a_failed_build_fails_the_others_at_once_with_its_message(tmp_path):
    build, calls = counting(fails=True)
    for _worker in range(3):
        with pytest.raises(RuntimeError, match=r"docs/x\.md:1: claim `0` does not hold"):
            build_once(tmp_path, build, run="r1")
    assert len(calls) == 1  # not built again by each worker
    assert "docs/x.md:1" in (tmp_path / "site.failed.r1").read_text(encoding="utf-8")
    with pytest.raises(RuntimeError):  # a later test run builds again
        build_once(tmp_path, build, run="r2")
    assert len(calls) == 2


def test_a_site_built_by_one_run_serves_the_next(tmp_path):
    build, calls = counting(fails=False)
    assert build_once(tmp_path, build, run="r1") == build_once(tmp_path, build, run="r2") == tmp_path / "site"
    assert len(calls) == 1


def test_not_site_selects_no_test_that_needs_the_site():
    # The `site` mark is added as each test is collected, before `-m` selects: `-m "not site"`
    # leaves out every test that uses the built site (it left out none when the mark came later).
    import subprocess
    import sys

    from website import ROOT

    def collected(marks: str) -> list[str]:
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "-m", marks, "tests/browser/test_audit.py"], cwd=ROOT, capture_output=True, text=True)
        return [line for line in run.stdout.splitlines() if "::" in line]

    assert collected("not site") == []  # both of its tests use the site
    assert len(collected("site")) == 2
