"""Shared test setup: derandomised property tests, the `site` marker, and one site build per run."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (and keep no example database): a run that
# passed once passes again, and CI cannot fail on a draw no one has seen locally. No deadline: how
# long an example takes says how fast and how busy the machine is, not whether the code is right.
settings.register_profile("handbook", derandomize=True, database=None, deadline=None)
settings.load_profile("handbook")

ROOT = Path(__file__).resolve().parents[1]
# The tests build the site as the Pages workflow does for a project site: under a sub-path.
os.environ.setdefault("SITE_URL", "https://example.org/handbook/")
# torch's OpenMP threads wait for work by spinning, which on a machine this busy takes cores from
# the other processes; passive waiting changes no result (a cold build: the same bytes, 47-51 -> 44-45
# CPU seconds). Set before any test module imports torch; the builds and probes inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# apis/jax_flax.py makes JAX compile 110 small XLA programs (2 s); a run starts it in eight processes
# (the builds, each worker, the probes, the snippet and its variant alone). They share the compiled
# programs through JAX's own persistent cache, which changes no result (3.7 -> 1.8 s a process).
for name, value in (("JAX_COMPILATION_CACHE_DIR", str(ROOT / ".cache" / "jax")),
                    ("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0"), ("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")):
    os.environ.setdefault(name, value)
# The executed labs of the site the tests build, apart from `make serve`'s (.cache/labs): each would
# otherwise rewrite the other's, and the tests read the labs the site they test was built from.
os.environ.setdefault("LABS_CACHE_DIR", ".cache/test-labs")
sys.path.insert(0, str(ROOT / "tools"))


def pytest_itemcollected(item):
    """Every test that needs the built site is marked `site` as it is collected, before `-m` selects:
    `-m "not site"` then runs no test that needs the site, and builds none. (Marked later, in
    `pytest_collection_modifyitems`, the mark came after `-m` had chosen, and selected nothing.)"""
    if "site" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.site)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The tests that need the site run first, in their files' order: xdist hands each worker one
    part of this list in turn, so the first worker starts the site build while the others run tests
    that need no site, instead of waiting for it (35 s of a worker's time, measured). Before them,
    the tests marked `early`: a test that runs for half a minute, started last, ends the run on one
    core while the other has nothing left (32 s of a 264 s run, measured)."""
    # stable: files keep their order
    items.sort(key=lambda item: (item.get_closest_marker("early") is None, item.get_closest_marker("site") is None))


def inputs() -> str:
    """A digest of everything the built site is made from: the pages, labs, snippets and plugin, the
    config and pins, the commit (its time dates the sitemap), the variables the build reads, and
    the environment the labs' key covers (interpreter, every installed distribution, CPU kernels)."""
    from handbook.runs import environment
    from workspace import FILES, FOLDERS

    h = hashlib.sha256()
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    for name in FILES:
        h.update((ROOT / name).read_bytes())
    commit = subprocess.run(["git", "log", "-1", "--format=%H %ct"], cwd=ROOT, capture_output=True, text=True)
    h.update(commit.stdout.encode())
    h.update(repr([os.environ.get(k) for k in ("SITE_URL", "REPO_URL", "LABS_CACHE", "LABS_CACHE_DIR")]).encode())
    h.update(environment().encode())
    return h.hexdigest()[:16]


@pytest.fixture(scope="session")
def site(testrun_uid):
    """The site, built by `mkdocs build --strict` (tools/website.py) once for all the test groups of
    a `make test` and their xdist workers: it lives in .cache/test-site/<digest of its inputs>, so
    any change to what it is made from builds it again. The first process to ask builds it under a
    lock; the others wait and reuse it. If that build fails, the others of this run fail at once
    with its message; the next run tries again."""
    from website import build_once

    key = inputs()
    folder = ROOT / ".cache" / "test-site" / key
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.parent.iterdir():  # builds of other inputs: stale
        if old.name != key:
            shutil.rmtree(old, ignore_errors=True)
    return build_once(folder, run=testrun_uid)


# The browser tests' fixtures (tests/browsing.py holds what else they share): the built site served
# as GitHub Pages serves it, and one Chromium, for each module that asks.
@pytest.fixture(scope="session")
def kernels():
    """A warm kernel server for the labs a test runs (the build's lives in its Shared)."""
    from handbook.kernels import Server

    with Server() as server:
        yield server


@pytest.fixture(scope="module")
def base(site):
    from website import serve

    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from browsing import Browser
    from playwright.sync_api import sync_playwright
    from website import CHROMIUM, CHROMIUM_FLAGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield Browser(chromium)
        chromium.close()
