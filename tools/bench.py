"""`make bench`: how long the build, the rebuilds and the tests take, and how heavy the pages are.

Prints one table (medians of several runs):

(a) cold `mkdocs build --strict`, a new process, as CI and deployment run it: both language editions;
(a') the same cold build of the Korean edition alone (the English one switched off);
(b) the floor: the same build again in a process where every snippet has already run;
(c) the compute: each snippet once in one warmed-up process, and each lab notebook executed;
(d) the rebuild `mkdocs serve --dirty` does after a prose-only edit;
(e) the rebuild after a one-snippet edit;
(h) `make serve` in a fresh copy (no lab run kept): from its start to the first page it serves, and
    to every page of both editions filled in (each example's result, each lab's outputs);
(f) `make test`, one run building the site afresh, and (f') `make check`, each also as a ratio
    to the cold build (a): a slower machine takes longer for both, and the ratio holds;
(g) the largest page: its HTML, and everything it transfers (gzip, figures loaded).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from website import transferred
from workspace import project_copy, serve_session

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
CHECK = re.search(r'-m "([^"]+)"', (ROOT / "Makefile").read_text().split("\ncheck:")[1]).group(1)  # make check's tests

# Two clean builds in one process: the second finds every snippet already run (the floor).
TWICE = textwrap.dedent("""
    import os, sys, time
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    for _ in range(2):
        start = time.perf_counter()
        build(load_config("mkdocs.yml", site_dir=sys.argv[1], strict=True))
        seconds = time.perf_counter() - start
    print(seconds)
""")

# A cold strict build of the Korean edition alone: mkdocs.yml with no other edition.
KOREAN = textwrap.dedent("""
    import os, sys
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    config = load_config("mkdocs.yml", site_dir=sys.argv[1], strict=True)
    config.plugins["handbook/editions"].config.enabled = False  # this edition alone
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
""")

# Every snippet once, after the imports they share, in one process; then every lab notebook,
# executed as the build executes it (each in a new kernel: start-up and imports are its own cost).
COMPUTE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import koreanize_matplotlib, matplotlib.pyplot, nbformat, torch  # noqa: F401
    from handbook import kernels, labs as lab, runs
    from handbook.editions import EditionRunner
    from handbook.snippets import Runner
    runner = Runner(Path("snippets"))
    snippets = labs = 0.0
    for name in runner.all():
        start = time.perf_counter()
        runner.run(name)
        snippets += time.perf_counter() - start
    codes = set()  # a lab another edition shares runs once, as in the build
    server = kernels.Server()
    for lang, variants in (("ko", None), ("en", "en")):
        for path in sorted(Path("labs").glob("*.py")):
            text = nbformat.writes(lab.notebook(path, runner.folder, lang, shows=EditionRunner(runner, variants).source))
            if runs.code_of(text) in codes:
                continue
            codes.add(runs.code_of(text))
            start = time.perf_counter()
            runs.execute(str(path), text, "bench", server)
            labs += time.perf_counter() - start
    server.close()
    print(snippets, labs)
""")


def _python(code: str, *args: str) -> list[float]:
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                         text=True, env=ENV, check=True)
    return [float(x) for x in out.stdout.split()]


def _wall(command: list[str], **env: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env={**ENV, **env}, check=True, capture_output=True)
    return time.perf_counter() - start


def serve_times(project: Path) -> tuple[float, float]:
    """`make serve`'s command in ``project``: seconds from its start to the home page served, and
    to every page (both editions) filled in: each chapter's examples and each lab's outputs shown
    rather than their running notices."""
    import socket
    import urllib.request

    from handbook.editions import read_words

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    labs = [f"{prefix}labs/{p.stem}/" for prefix in ("", "en/") for p in sorted((project / "labs").glob("*.py"))]
    labs += [f"{prefix}{p.stem}/" for prefix, docs in (("", "docs"), ("en/", "docs-en"))
             for p in sorted((project / docs).glob("*.md")) if p.stem != "index"]
    start = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dirty", "-a", f"127.0.0.1:{port}"],
                              cwd=project, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def page(path: str) -> str | None:
            try:
                return urllib.request.urlopen(url + path, timeout=60).read().decode()
            except OSError:
                return None
        while page("") is None:
            assert server.poll() is None, "mkdocs serve exited"
            time.sleep(0.1)
        first = time.perf_counter() - start
        running = [read_words(project / c)[w] for c in ("mkdocs.yml", "mkdocs.en.yml") for w in ("lab running", "example running")]
        while labs:
            assert server.poll() is None, "mkdocs serve exited"
            labs = [p for p in labs if (text := page(p)) is None or any(r in text for r in running)]
            time.sleep(0.2)
        return first, time.perf_counter() - start
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cold = statistics.median(  # as `make build` deploys: no lab cache
            _wall([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp / f"a{i}")], LABS_CACHE="false")
            for i in range(RUNS)
        )
        korean = statistics.median(
            _wall([sys.executable, "-c", KOREAN, str(tmp / f"k{i}")], LABS_CACHE="false") for i in range(RUNS)
        )
        floor = statistics.median(_python(TWICE, str(tmp / f"b{i}"))[0] for i in range(RUNS))
        runs = [_python(COMPUTE) for _ in range(RUNS)]
        snippets, labs = (statistics.median(r[i] for r in runs) for i in (0, 1))
        compute = snippets + labs
        rows += [
            ("(a) cold strict build (no lab cache), both editions", f"{cold:.2f} s",
             f"≤ 1.2 × (b + c) = {1.2 * (floor + compute):.2f} s", cold <= 1.2 * (floor + compute)),
            ("(a) against (a'): the English edition's share", f"{cold / korean:.2f} ×", "≤ 1.3 ×", cold <= 1.3 * korean),
            ("(a') the same build, Korean edition alone", f"{korean:.2f} s", "", None),
            ("(b) the same build, every snippet and lab already run", f"{floor:.2f} s", "", None),
            (f"(c) compute: snippets {snippets:.2f} s + lab notebooks {labs:.2f} s", f"{compute:.2f} s", "", None),
        ]
        prose, code = [], []
        for i in range(RUNS):
            project = project_copy(tmp / f"p{i}")
            session = serve_session(project, ["", "docs/softmax.md", "snippets/causal/weights.py"])
            prose.append(session[1][0])
            code.append(session[2][0])
        served = [serve_times(project_copy(tmp / f"s{i}")) for i in range(RUNS)]
        first, filled = (statistics.median(s[i] for s in served) for i in (0, 1))
        prose = statistics.median(prose)
        rows += [
            ("(d) rebuild after a prose edit (serve --dirty)", f"{prose:.2f} s", "", None),
            ("(d) against (a)", f"{100 * prose / cold:.1f} %", "≤ 2 %", prose <= 0.02 * cold),
            ("(e) rebuild after a snippet edit (serve --dirty)", f"{statistics.median(code):.2f} s", "", None),
            ("(h) make serve: start to the first page", f"{first:.1f} s", "", None),
            ("(h) against (a)", f"{first / cold:.2f} ×", "≤ 0.3 ×", first <= 0.3 * cold),
            ("(h) make serve: start to every page filled in (examples, labs)", f"{filled:.1f} s", "", None),
        ]
        # make test as make runs it, building the site afresh (none kept from an earlier run), and
        # make check; each as a ratio to the cold build (a), which holds on a slower machine too.
        shutil.rmtree(ROOT / ".cache" / "test-site", ignore_errors=True)
        pytest = [str(ROOT / ".venv/bin/pytest"), "-q", "-p", "no:cacheprovider", "-n", "auto", "--dist", "worksteal"]
        suite = _wall(pytest)
        check = _wall([*pytest, "--dist", "loadfile", "-m", CHECK])
        rows += [
            ("(f) make test (one run)", f"{suite:.1f} s", "", None),
            ("(f) make test against (a)", f"{suite / cold:.2f} ×", "≤ 6 ×", suite <= 6 * cold),
            ("(f') make check (one run)", f"{check:.1f} s", "", None),
            ("(f') make check against (a)", f"{check / cold:.2f} ×", "≤ 0.7 ×", check <= 0.7 * cold),
        ]
        site = tmp / "a0"
        largest = max(site.rglob("index.html"), key=lambda p: transferred(site, p)["total"])
        html, total = (transferred(site, largest)[k] for k in ("html", "total"))
        name = largest.parent.relative_to(site).as_posix()
        rows += [
            (f"(g) largest page ({name}/): HTML, gzip", f"{html / 1024:.0f} KB", "", None),
            (f"(g) largest page ({name}/): all it loads, gzip", f"{total / 1024:.0f} KB", "≤ 400 KB", total <= 400 * 1024),
        ]
    print(f"| measure (median of {RUNS}) | value | target | met |\n|---|---:|---|---|")
    for what, value, target, met in rows:
        print(f"| {what} | {value} | {target} | {'' if met is None else ('yes' if met else 'NO')} |")


if __name__ == "__main__":
    main()
