"""Shared test setup: the build glue (tools/glue.py) is imported exactly as the pages import it."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The site, built once per test process by `mkdocs build --strict` (tools/audit.py)."""
    from audit import build

    return build(tmp_path_factory.mktemp("site"))
