"""The pytest plugin: with ``--claims PATH`` (a page or a folder of pages), each claim is a test item
named by its page and line (``docs/softmax.md:100``, selectable with ``-k``), checked against
``--claims-scripts DIR`` or ``--claims-values FILE``; a failure reports both values. A page's other
problems (a malformed claim, a bare number) are one more item, ``<page>:problems``. Without
``--claims`` the plugin collects nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .check import check, check_text
from .document import read_claims
from .sources import Scripts, Values


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("claimcheck")
    group.addoption("--claims", action="append", default=[], metavar="PATH", help="pages (or folders) whose claims to check")
    group.addoption("--claims-scripts", metavar="DIR", help="the folder of scripts claims name")
    group.addoption("--claims-values", metavar="FILE", help="a JSON file of values claims name")


def _roots(config: Any) -> list[Path]:
    return [Path(p).resolve() for p in config.getoption("claims")]


def pytest_configure(config: Any) -> None:
    if _roots(config):
        scripts, values = config.getoption("claims_scripts"), config.getoption("claims_values")
        if bool(scripts) == bool(values):
            raise pytest.UsageError("claimcheck: give one of --claims-scripts and --claims-values with --claims")
        config.stash[SOURCE] = Scripts(scripts) if scripts else Values(values)


SOURCE = pytest.StashKey[Any]()


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    roots = _roots(parent.config)
    if file_path.suffix == ".md" and any(file_path == r or r in file_path.parents for r in roots):
        return ClaimPage.from_parent(parent, path=file_path)
    return None


class ClaimPage(pytest.File):
    def collect(self) -> Any:
        text = self.path.read_text(encoding="utf-8")
        name = self.path.relative_to(self.config.rootpath).as_posix() if self.path.is_relative_to(self.config.rootpath) \
            else self.path.name
        for claim in read_claims(text, name, []):
            yield ClaimItem.from_parent(self, name=claim.where, claim=claim)
        yield PageProblems.from_parent(self, name=f"{name}:problems", text=text, file=name)


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self) -> None:
        result = check(self.claim, self.config.stash[SOURCE])
        if result.problem:
            raise ClaimFailed(result.problem)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, self.claim.line - 1, f"claim `{self.claim.literal}` ({self.claim.target}: {self.claim.expr})"


class PageProblems(pytest.Item):
    def __init__(self, *, text: str, file: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text, self.file = text, file

    def runtest(self) -> None:
        _, problems = check_text(self.text, self.file, self.config.stash[SOURCE])
        if problems:
            raise ClaimFailed("\n".join(problems))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value) if isinstance(excinfo.value, ClaimFailed) else super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, f"{self.file}: malformed claims and bare numbers"


class ClaimFailed(Exception):
    pass
