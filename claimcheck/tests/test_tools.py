"""The command line, the pytest plugin and the MkDocs plugin, on the fixture project (one page, one
script, no handbook code): each passes on a right claim and fails on a wrong one, naming it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from claimcheck.cli import main

FIXTURE = Path(__file__).parent / "fixture"


@pytest.fixture
def project(tmp_path):
    return Path(shutil.copytree(FIXTURE, tmp_path / "project"))


def _wrong(project: Path) -> None:
    page = project / "docs/index.md"
    page.write_text(page.read_text(encoding="utf-8").replace("`0.3333`", "`0.3334`"), encoding="utf-8")


def test_check_passes_a_right_page_and_names_a_wrong_claim(project, capsys):
    assert main(["check", "--scripts", str(project / "scripts"), str(project / "docs")]) == 0
    assert capsys.readouterr().out == ""
    _wrong(project)
    assert main(["check", "--scripts", str(project / "scripts"), str(project / "docs")]) == 1
    out = capsys.readouterr().out  # the value's last digits are the platform's exp's: not asserted
    assert out.startswith(f"{project / 'docs/index.md'}:3: claim `0.3334` (demo.py: weights[0]) does not "
                          "hold: the prose says 0.3334, the source gives 0.33333333") and out.count("\n") == 1, out


def test_update_brings_the_page_back(project, capsys):
    _wrong(project)
    assert main(["update", "--scripts", str(project / "scripts"), str(project / "docs/index.md")]) == 0
    assert capsys.readouterr().out == f"updated {project / 'docs/index.md'}:3: `0.3334` -> `0.3333`\n"
    assert (project / "docs/index.md").read_text(encoding="utf-8") == (FIXTURE / "docs/index.md").read_text(encoding="utf-8")


def _run(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run([sys.executable, *args], cwd=project, capture_output=True, text=True,
                          env={**env, "NO_MKDOCS_2_WARNING": "1"}, timeout=600)


def test_the_pytest_plugin_makes_each_claim_an_item_named_by_page_and_line(project):
    args = ["-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--claims", "docs", "--claims-scripts", "scripts",
            "-o", "addopts=", "-v"]
    ran = _run(project, *args)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "docs/index.md::docs/index.md:3 PASSED" in ran.stdout and "docs/index.md::docs/index.md:4 PASSED" in ran.stdout
    _wrong(project)
    ran = _run(project, *args, "-k", "index.md:3")
    assert ran.returncode == 1 and "1 failed, 2 deselected" in ran.stdout, ran.stdout
    assert "the prose says 0.3334, the source gives 0.33333333" in ran.stdout


def test_the_mkdocs_plugin_fails_a_strict_build_on_a_wrong_claim(project):
    pytest.importorskip("mkdocs")
    build = ["-m", "mkdocs", "build", "--strict", "-d", "site"]
    built = _run(project, *build)
    assert built.returncode == 0, built.stderr
    page = (project / "site/index.html").read_text(encoding="utf-8")
    assert ('<code data-claim="demo.py: weights[0]" tabindex="0" aria-describedby="claim-source-1">0.3333</code>'
            '<span class="claim-source" id="claim-source-1" role="tooltip">Checked against <code>demo.py: weights[0]</code></span>') in page
    assert 'href="assets/claimcheck.css"' in page and (project / "site/assets/claimcheck.css").is_file()
    _wrong(project)
    built = _run(project, *build)
    assert built.returncode == 1
    assert "WARNING -  docs/index.md:3: claim `0.3334` (demo.py: weights[0]) does not hold" in built.stderr


def test_the_packages_own_page_builds_and_every_number_on_it_is_a_claim_that_holds(tmp_path):
    pytest.importorskip("mkdocs")
    root = Path(__file__).parents[1]
    built = _run(root, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert page.count('role="tooltip"') == 8
