"""A copy of the project to build and edit without touching the working tree, and a
`mkdocs serve --dirty`-like session of builds in it (`make bench` and the tests use both)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}

# Builds in one process, as `mkdocs serve --dirty` does. Each line of stdin names a file to edit
# (or nothing) before the next build; each build prints its seconds and the pages it rewrote. As
# under the server, the first build is the root edition's and the next one adds the others, and a
# lab or snippet run that a build left going (its page shown without it) rebuilds when it ends;
# those rebuilds' pages count as the edit's, their time does not.
SERVE = textwrap.dedent("""
    import json, os, sys, time
    from concurrent.futures import wait
    from pathlib import Path
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    site, started = Path("site"), False

    def rebuild():
        config = load_config("mkdocs.yml", site_dir="site")
        global started
        if not started:  # as `mkdocs serve --dirty` starts its plugins, once
            config.plugins.on_startup(command="serve", dirty=True)
            started = True
        build(config, dirty=True)
        editions = config.plugins["handbook/editions"]
        if not editions.shared.served.is_set():  # served, as after mkdocs serve's first build: the labs may
            editions.on_serve(Unwatched())       # start, and the other editions are built next
        return editions.shared

    class Unwatched:  # what on_serve asks of the server: here nothing watches, this loop rebuilds
        def watch(self, path):
            pass

    for line in sys.stdin:
        before = {p: p.stat().st_mtime_ns for p in site.rglob("index.html")}
        if line.strip():
            path = Path(line.strip())
            path.write_text(path.read_text() + ("# edited\\n" if path.suffix == ".py" else "\\n수정.\\n"))
            # newer than every page built so far, however coarse the clock: the rebuild sees the edit
            newest = max([*before.values(), path.stat().st_mtime_ns]) + 1
            os.utime(path, ns=(newest, newest))
        start = time.perf_counter()
        shared = rebuild()
        seconds = time.perf_counter() - start
        while shared.pending:  # the runs this build left going: each one's end, a rebuild
            wait(list(shared.pending))
            rebuild()
        after = {p: p.stat().st_mtime_ns for p in site.rglob("index.html")}
        pages = sorted(str(p.parent.relative_to(site)) for p in after if before.get(p) != after[p])
        print(json.dumps([seconds, pages]), flush=True)
""")

# What a build reads: the one list (a copy of the project holds these; tests/conftest.py's digest
# of the built site's inputs reads them).
EDITIONS = ("docs", "docs-en")  # each edition's pages
FOLDERS = (*EDITIONS, "labs", "snippets", "handbook", "claimcheck")  # handbook/, claimcheck/: mkdocs.yml watches them
FILES = ("mkdocs.yml", "mkdocs.en.yml", "requirements.txt", "references.yml", "pyproject.toml")


def project_copy(destination: Path, pages: tuple[str, ...] = ()) -> Path:
    """What a build reads, copied, so edits never touch the working tree. With ``pages``, only
    those pages (chapters as ``x.md``, in every edition, and labs as ``labs/x.py``): a small site,
    for tests."""
    for folder in FOLDERS:
        if pages and (folder in EDITIONS or folder == "labs"):
            keep = [p for p in pages if p.startswith("labs/")] if folder == "labs" else [p for p in pages if p.endswith(".md")]
            skip = shutil.ignore_patterns("*.py") if folder == "labs" else shutil.ignore_patterns("*.md")
            shutil.copytree(ROOT / folder, destination / folder, ignore=skip, dirs_exist_ok=True)
            for page in keep:
                source = ROOT / (page if folder == "labs" else f"{folder}/{page}")
                shutil.copy(source, destination / (page if folder == "labs" else f"{folder}/{page}"))
        else:
            shutil.copytree(ROOT / folder, destination / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for part in FILES:
        shutil.copy(ROOT / part, destination)
    if pages:  # a small site's list of cited threads is what its pages cite (the build requires both ways)
        from handbook import references

        texts = "\n".join(p.read_text(encoding="utf-8") for folder in (*EDITIONS, "labs")
                          for p in (destination / folder).rglob("*") if p.suffix in (".md", ".py"))
        cited = {(m["repo"], int(m["number"])) for m in references._LINK.finditer(texts)}
        kept = [line for line in (destination / "references.yml").read_text(encoding="utf-8").splitlines()
                if not line.startswith("- ") or any(f"repo: {r}, number: {n}," in line for r, n in cited)]
        (destination / "references.yml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    return destination


def serve_session(project: Path, edits: list[str]) -> list[tuple[float, list[str]]]:
    """One build per edit ("" = none), in one process under --dirty: (seconds, pages rewritten)."""
    result = subprocess.run(
        [sys.executable, "-c", SERVE], cwd=project, input="\n".join(edits) + "\n",
        capture_output=True, text=True, env=ENV, timeout=600, check=True,
    )
    return [tuple(json.loads(line)) for line in result.stdout.splitlines()]
