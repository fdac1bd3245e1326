"""Builds of a small copy of the project: `make serve` rebuilds in place (a prose edit rebuilds its page
only, a snippet edit the pages showing it), and the strict build fails on what it must."""

import contextlib
import os
import subprocess
import sys

import pytest
from website import HANG_S
from workspace import project_copy, serve_session

pytestmark = pytest.mark.build


def test_dirty_rebuilds(tmp_path):
    small = project_copy(tmp_path, pages=("index.md", "causal.md", "softmax.md", "labs/causal.py"))
    builds = serve_session(small, ["", "docs/softmax.md", "snippets/causal/weights.py", "labs/causal.py", ""])
    first, prose, code, lab, nothing = (pages for _seconds, pages in builds)
    assert {"causal", "softmax", "labs/causal"} <= set(first)  # the first build builds everything
    assert prose == ["softmax"]  # a prose edit: that page only
    # A snippet edit (a comment): the pages that show it, the labs among them, in each edition...
    assert code == ["causal", "en/causal", "en/labs/causal", "labs/causal"]
    page = small / "site/labs/causal/index.html"
    assert "# edited" in page.read_text(encoding="utf-8")
    # ...shown over the outputs of the run they had: a comment changes no output, so no lab ran again.
    executed = small / os.environ["LABS_CACHE_DIR"] / "causal.ipynb"
    assert "# edited" not in executed.read_text(encoding="utf-8")
    # A comment in the lab's code (one source for both editions): both its pages, over the same run.
    assert lab == ["en/labs/causal", "labs/causal"] and page.read_text(encoding="utf-8").count("# edited") == 2
    assert "# edited" not in executed.read_text(encoding="utf-8")
    assert nothing == []  # every output is current: nothing runs or is written again


def test_a_broken_link_in_raw_html_fails_the_strict_build(tmp_path):
    # MkDocs validates only the links it writes from Markdown; the plugin checks the built site.
    small = project_copy(tmp_path, pages=("index.md",))
    page = small / "docs/index.md"
    page.write_text(page.read_text(encoding="utf-8") + '\n<a href="nowhere/">없는 곳</a>\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=small,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True)
    assert result.returncode != 0
    # named at the source line an author edits, and at the built page
    line = len(page.read_text(encoding="utf-8").splitlines())
    assert f"broken link: docs/index.md:{line}: nowhere/ (no such file), in index.html" in result.stderr


ENV = {**{k: v for k, v in os.environ.items() if k not in ("SITE_URL", "REPO_URL")}, "NO_MKDOCS_2_WARNING": "1"}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serving(small, tmp_path):
    """`mkdocs serve --dirty` as `make serve` runs it in ``small``: (the server, its URL, its log),
    and the server ended whatever the test did."""
    port, logfile = _free_port(), tmp_path / "serve.log"
    with logfile.open("w") as log:  # a file: a full pipe would block it
        server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dirty",
                                   "-a", f"127.0.0.1:{port}"], cwd=small, env=ENV,
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            yield server, f"http://127.0.0.1:{port}/", logfile
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


def _stop(server, logfile) -> None:
    """Ctrl-C: the server stops, as after Ctrl-C (exit status 0), however long the machine takes;
    only a hang reaches the limit."""
    import signal

    server.send_signal(signal.SIGINT)
    try:
        assert server.wait(timeout=HANG_S) == 0, logfile.read_text()[-3000:]
    except subprocess.TimeoutExpired:
        raise AssertionError(f"mkdocs serve still running {HANG_S} s after Ctrl-C") from None


def _gated(gate) -> str:
    """Python that waits until the file ``gate`` exists: a run that ends when the test says so."""
    return f"import pathlib, time\nwhile not pathlib.Path({str(gate)!r}).exists():\n    time.sleep(0.05)\n"


def _until(page, check, what: str):
    """Wait until ``check(page)`` holds: `mkdocs serve` rebuilds and livereload reloads the page,
    however long that takes; only a hang (HANG_S) fails, naming ``what`` never appeared."""
    import time

    end = time.monotonic() + HANG_S
    while time.monotonic() < end:
        try:
            if check(page):
                return
        except Exception:  # the page is being reloaded under us
            pass
        page.wait_for_timeout(200)  # between looks at the page, not a wait for anything
    raise AssertionError(f"{what} never appeared ({HANG_S} s); the page says: {page.inner_text('article')[:300]}")


def _filled(server, logfile, read, path: str, running: str) -> str:
    """``path`` once it no longer shows the notice ``running``: the rebuild a run's end asked for,
    however long it takes; only a hang (HANG_S) or the server's exit fails."""
    import time

    end = time.monotonic() + HANG_S
    while running in (page := read(path)):
        assert time.monotonic() < end and server.poll() is None, f"/{path} never filled in:\n{logfile.read_text()[-3000:]}"
        time.sleep(0.2)  # between looks at the page
    return page


def _ready(server, log, url: str) -> None:
    """Wait until `mkdocs serve` answers at ``url`` (a page of the first build, or one of another
    edition, built next); if it exits first, fail with what it printed, not with a connection
    error later."""
    import time
    import urllib.request

    end = time.monotonic() + HANG_S
    while time.monotonic() < end:
        if server.poll() is not None:
            raise AssertionError(f"mkdocs serve exited with {server.returncode} before it served:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=HANG_S)
            return
        except OSError:  # not listening yet
            time.sleep(0.2)
    raise AssertionError(f"mkdocs serve never answered at {url} ({HANG_S} s):\n{log.read_text()[-3000:]}")


def _clean(logfile) -> None:
    assert "Traceback" not in logfile.read_text() and "ERROR" not in logfile.read_text(), logfile.read_text()[-3000:]


def test_serve_shows_pages_while_labs_run_and_fills_them_in(tmp_path):
    """`mkdocs serve` serves once the pages are built, without waiting for the labs: a lab whose
    run has not ended shows its text and code under a notice, and its outputs once the run ends
    (here, when the test opens the lab's gate: no guess at how long a run takes)."""
    import html
    import re
    import urllib.request

    small = project_copy(tmp_path, pages=("index.md", "causal.md", "labs/causal.py"))
    gate = tmp_path / "gate"
    lab = small / "labs/causal.py"  # the lab (one run, both editions' pages) waits at its first code cell
    lab.write_text(lab.read_text(encoding="utf-8").replace("\n# %%\n", f"\n# %%\n{_gated(gate)}\n# %%\n", 1),
                   encoding="utf-8")
    labs = {"labs/causal/": ("실습을 실행하는 중입니다", "출력"), "en/labs/causal/": ("The lab is still running", "Output")}
    with _serving(small, tmp_path) as (server, url, logfile):
        read = lambda path: urllib.request.urlopen(url + path, timeout=HANG_S).read().decode()  # noqa: E731
        _ready(server, logfile, url + "labs/causal/")  # the gate is shut: no lab has ended
        _ready(server, logfile, url + "en/labs/causal/")  # the other edition: in the rebuild serving asked for
        assert not gate.exists()
        for path, (running, output) in labs.items():
            page = read(path)
            text = html.unescape(re.sub(r"<[^>]+>", "", page))  # the code is highlighted: one span a word
            assert running in text and "mask = torch.tril(torch.ones(T, T))" in text, text[:2000]
            assert f'<span class="filename">{output}</span>' not in page  # no cell has printed
        gate.touch()
        for path, (running, output) in labs.items():
            page = _filled(server, logfile, read, path, running)
            assert f'<span class="filename">{output}</span>' in page and "0.1667])" in page, page[:2000]
        _stop(server, logfile)
    _clean(logfile)


def test_serve_shows_pages_while_snippets_run_and_fills_them_in(tmp_path):
    """`mkdocs serve` serves the pages before their snippets have run: an example whose snippet
    still runs is a notice, and the claims that read it wait with it (no failure shown); the run's
    end fills the page in, in both editions, with its claims checked (here the snippet runs once
    the test opens its gate: no guess at how long a run takes)."""
    import html
    import re
    import urllib.request

    small = project_copy(tmp_path, pages=("index.md", "causal.md"))
    gate = tmp_path / "gate"
    snippet = small / "snippets/causal/weights.py"
    snippet.write_text(_gated(gate) + snippet.read_text(encoding="utf-8"), encoding="utf-8")
    pages = {"causal/": "예제를 실행하는 중입니다", "en/causal/": "This example is still running"}
    shown = "# pretend every score is equal"  # weights.py's code, in its example
    with _serving(small, tmp_path) as (server, url, logfile):
        text = lambda path: html.unescape(re.sub(r"<[^>]+>", "", urllib.request.urlopen(url + path, timeout=HANG_S).read().decode()))  # noqa: E731
        _ready(server, logfile, url + "causal/")  # the gate is shut: weights.py has not run
        _ready(server, logfile, url + "en/causal/")  # the other edition: in the rebuild serving asked for
        assert not gate.exists()
        for path, running in pages.items():
            page = text(path)
            assert running in page and shown not in page, page[:3000]  # (others may have run: no count)
            assert "인과 마스크" in page or "causal mask" in page  # the prose is there
            assert "claim `" not in page  # its claims wait for its run: no failure shown
        gate.touch()
        for path, running in pages.items():
            page = _filled(server, logfile, text, path, running)
            assert shown in page and "claim `" not in page, page[:3000]
        _stop(server, logfile)
    _clean(logfile)


@pytest.mark.browser
def test_make_serve_in_a_browser(tmp_path, browser):
    """`mkdocs serve --dirty` as `make serve` runs it, with the page open in Chromium: a snippet
    edit that breaks a claim shows the failing claim on the page; one that raises shows the error
    on the chapter and its lab; fixing the snippet alone brings both back; Ctrl-C stops the server
    with the page still open. The strict build of the broken snippet fails, and the
    plain build shows no failure box (a deployed page never does)."""
    small = project_copy(tmp_path, pages=("index.md", "causal.md", "labs/causal.py"))
    snippet = small / "snippets/causal/weights.py"
    good = snippet.read_text(encoding="utf-8")
    with _serving(small, tmp_path) as (server, url, logfile):
        _ready(server, logfile, url + "causal/")
        page, lab = browser.new_page(), browser.new_page()
        page.goto(url + "causal/")
        lab.goto(url + "labs/causal/")
        failure = "article .admonition.failure"
        assert page.locator(failure).count() == 0 and lab.locator(failure).count() == 0

        snippet.write_text(good.replace("T = 4", "T = 5"), encoding="utf-8")  # the claims no longer hold
        _until(page, lambda p: "이 페이지의 검사" in p.inner_text(failure), "the failing claim")
        assert "causal/weights.py: weights[1]" in page.inner_text(failure)

        snippet.write_text(good + 'raise ValueError("broken on purpose")\n', encoding="utf-8")
        _until(page, lambda p: "broken on purpose" in p.inner_text("article"), "the snippet's error")
        _until(lab, lambda p: "실습이 실패했습니다" in p.inner_text(failure), "the lab's failure")

        snippet.write_text(good, encoding="utf-8")  # the fix, and no other file touched
        for tab in (page, lab):
            _until(tab, lambda p: p.locator(failure).count() == 0 and "broken on purpose" not in p.inner_text("article"),
                   "the fixed page")
        _stop(server, logfile)  # with both tabs still open (livereload polling)

    snippet.write_text(good.replace("T = 4", "T = 5"), encoding="utf-8")
    build = [sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "site")]
    strict = subprocess.run([*build, "--strict"], cwd=small, env=ENV, capture_output=True, text=True)
    assert strict.returncode != 0 and "causal/weights.py: weights[1]" in strict.stderr
    subprocess.run(build, cwd=small, env=ENV, capture_output=True, text=True, check=True)
    built = (tmp_path / "site/causal/index.html").read_text(encoding="utf-8")
    assert "이 페이지의 검사" not in built and "mkdocs serve에서만" not in built
