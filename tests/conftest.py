"""Shared test setup: derandomised property tests, the `site` marker, and one site build per run."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (and keep no example database): a run that
# passed once passes again, and CI cannot fail on a draw no one has seen locally.
settings.register_profile("handbook", derandomize=True, database=None)
settings.load_profile("handbook")

ROOT = Path(__file__).resolve().parents[1]
# The tests build the site as the Pages workflow does for a project site: under a sub-path.
os.environ.setdefault("SITE_URL", "https://example.org/handbook/")
sys.path.insert(0, str(ROOT / "tools"))


def pytest_collection_modifyitems(items):
    """Every test that needs the built site is marked `site`, so `-m "not site"` runs the fast ones."""
    for item in items:
        if "site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.site)


@pytest.fixture(scope="session")
def site(tmp_path_factory, worker_id):
    """The site, built once per test run by `mkdocs build --strict` (tools/website.py), however many
    xdist workers ask for it: the first builds it under a lock, the others wait and reuse it. If
    that build fails, the others fail at once with its message instead of building again."""
    from website import build, build_once

    if worker_id == "master":  # not distributed
        return build(tmp_path_factory.mktemp("site"))
    return build_once(tmp_path_factory.getbasetemp().parent)  # the same folder for every worker of this run
