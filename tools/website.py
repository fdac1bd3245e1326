"""The built site as readers get it: built strictly, served like GitHub Pages, measured by Lighthouse.

A library, imported by the tests (tests/conftest.py, test_site, test_browser, test_audit) and by the
``make audit`` script (tools/audit.py); it runs nothing when imported.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from handbook.book import CHROMIUM, CHROMIUM_FLAGS  # one list for the build and the tests


ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# How long a page, a build or a tool may take before a test calls it hung. No test asks how fast
# anything is (make bench and make audit do): this is far above any machine's time, so that only a
# hang reaches it, and what reaches it is named.
HANG_S = 600
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


def base_path() -> str:
    """The path part of the site's URL ("/handbook/" for https://example.org/handbook/): where it
    is served, as GitHub Pages serves a project site. The Pages workflow sets SITE_URL."""
    return urlsplit(os.environ.get("SITE_URL", "")).path or "/"


def build(site_dir: Path) -> Path:
    """``mkdocs build --strict`` into ``site_dir``; raises with mkdocs' own output if it fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site_dir)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build --strict failed:\n{result.stderr}")
    return site_dir


def build_once(folder: Path, build: Callable[[Path], Path] = build, run: str = "") -> Path:
    """``build(folder / "site")`` once for every process that asks (the test workers of one run).

    The first to take the lock builds; the others wait, then reuse the site. A build that fails
    leaves its message in ``site.failed.<run>``: the others of that run raise it at once instead of
    building again (a later run, another ``run``, builds again).
    """
    from filelock import FileLock

    site, built, failed = folder / "site", folder / "site.built", folder / f"site.failed.{run}"
    with FileLock(str(folder / "site.lock")):
        if failed.is_file():
            raise RuntimeError(f"(this run's site build already failed)\n{failed.read_text(encoding='utf-8')}")
        if not built.is_file():
            try:
                build(site)
            except Exception as error:
                failed.write_text(str(error), encoding="utf-8")
                raise
            built.touch()  # only after a successful (strict) build
    return site


def pages(site: Path) -> list[str]:
    """Every page of the site, as paths relative to its root ("", "causal/", "labs/causal/", …)."""
    found = [p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")]
    return sorted("" if p == "." else p + "/" for p in found)


class _Handler(SimpleHTTPRequestHandler):
    """Static files under a path prefix, gzip for text, 404.html for what is missing."""

    prefix = "/"

    def log_message(self, *_args) -> None:  # keep test output clean
        pass

    def send_head(self):
        path = urlsplit(self.path).path
        if not path.startswith(self.prefix):
            self.send_error(404)
            return None
        self.path = "/" + path[len(self.prefix):]
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            if not path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", path + "/")
                self.end_headers()
                return None
            file = file / "index.html"
        status = 200
        if not file.is_file():
            status, file = 404, Path(self.directory) / "404.html"
        body = file.read_bytes()
        self.send_response(status)
        self.send_header("Content-Type", self.guess_type(str(file)))
        if file.suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(body, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_args) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path, prefix: str | None = None):
    """Serve ``site`` on 127.0.0.1 under ``prefix`` (the site URL's path unless given) and yield
    the base URL of its home page."""
    prefix = prefix or base_path()
    handler = type("Handler", (_Handler,), {"prefix": prefix})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse(urls: list[str], device: str = "mobile", categories: tuple[str, ...] = CATEGORIES) -> dict[str, dict]:
    """Lighthouse's category scores (0–100) for each URL, as a phone (Lighthouse's default: slow 4G,
    CPU slowed four times) or a desktop sees it, and the weighted audits below 1; ``categories``
    chooses which (all four unless given). One Node process runs them in turn, a fresh Chromium for
    each (tools/lighthouse.mjs). A page gets as long as it needs to load: the limits only end a hang."""
    if device not in ("mobile", "desktop"):
        raise ValueError(f"device must be 'mobile' or 'desktop', not {device!r}")
    if isinstance(urls, str) or not urls:
        raise ValueError(f"urls must be a non-empty list of URLs, not {urls!r}")
    if isinstance(categories, str) or not categories or set(categories) - set(CATEGORIES):
        raise ValueError(f"categories must be a non-empty tuple of {CATEGORIES}, not {categories!r}")
    options = {"device": device, "chromePath": CHROMIUM, "chromeFlags": CHROMIUM_FLAGS,
               "categories": list(categories), "wait": HANG_S * 1000}
    run = subprocess.run(["node", str(ROOT / "tools/lighthouse.mjs"), json.dumps(options), *urls],
                         cwd=ROOT, capture_output=True, text=True, timeout=2 * HANG_S * len(urls))
    if run.returncode != 0:
        raise RuntimeError(f"Lighthouse failed ({run.returncode}):\n{run.stderr[-3000:]}")
    results = {}
    for line in run.stdout.splitlines():
        data = json.loads(line)
        scores = {c: round(100 * data["categories"][c]["score"]) for c in categories}
        scores["failing"] = [
            audit for c in categories for audit, weight in data["categories"][c]["weights"]
            if weight > 0 and data["audits"][audit] not in (None, 1)
        ]
        results[data["url"]] = scores
    if list(results) != list(urls):
        raise RuntimeError(f"Lighthouse reported {list(results)} for {list(urls)}")
    return results


def table(results: dict[str, dict], device: str = "mobile", categories: tuple[str, ...] = CATEGORIES) -> str:
    """Lighthouse results (page -> one URL's scores from ``lighthouse``) as a Markdown table."""
    head = f"| page ({device}) | " + " | ".join(categories) + " | audits below 1 |"
    rule = "|---|" + "---:|" * len(categories) + "---|"
    rows = [
        f"| {page} | " + " | ".join(str(s[c]) for c in categories) + f" | {', '.join(s['failing'])} |"
        for page, s in results.items()
    ]
    return "\n".join([head, rule, *rows])


def transferred(site: Path, page: Path) -> dict[str, int]:
    """What a page's HTML makes the browser fetch from the site, in gzip bytes as the server sends
    them: ``html``, its ``scripts`` and ``styles`` (files it links and inline blocks), and ``total``,
    everything its markup names (figures included, as a reader who scrolls loads them all)."""
    html = page.read_bytes()
    found = _References()
    found.feed(html.decode("utf-8"))
    found.close()

    def local(refs: list[str]) -> set[Path]:
        return {(page.parent / r.split("?")[0].split("#")[0]).resolve() for r in refs
                if r and "://" not in r and not r.startswith(("data:", "mailto:"))}

    styles, scripts, images = (local(found.refs[kind]) for kind in ("style", "script", "img"))
    missing = sorted(str(f) for f in styles | scripts | images if not f.is_file())
    if missing:
        raise FileNotFoundError(f"{page} names files the site does not have: {missing[:5]}")
    inline = {kind: _gzipped("".join(text).encode()) if text else 0 for kind, text in found.inline.items()}
    return {
        "html": _gzipped(html),
        "scripts": sum(_file_gzipped(f) for f in scripts) + inline["script"],
        "styles": sum(_file_gzipped(f) for f in styles) + inline["style"],
        "total": _gzipped(html) + sum(_file_gzipped(f) for f in styles | scripts | images),
    }


def _gzipped(data: bytes) -> int:
    return len(gzip.compress(data, mtime=0))


@functools.lru_cache(maxsize=None)
def _file_gzipped(path: Path) -> int:
    """A file's gzip size, once per file: every page links the same styles and scripts."""
    return _gzipped(path.read_bytes())


class _References(HTMLParser):
    """The stylesheets, scripts and images a page names, and its inline scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: dict[str, list[str]] = {"style": [], "script": [], "img": []}
        self.inline: dict[str, list[str]] = {"script": [], "style": []}
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and "stylesheet" in (a.get("rel") or "").split():
            self.refs["style"].append(a.get("href") or "")
        elif tag in ("script", "img") and a.get("src"):
            self.refs[tag].append(a["src"])
        elif tag in ("script", "style"):
            self._in = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.inline[self._in].append(data)
