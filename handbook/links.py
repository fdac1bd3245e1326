"""Every internal link and anchor of the built site resolves, raw HTML included (MkDocs validates
only the links it writes from Markdown). The plugin runs this after every build, so a broken link
fails ``mkdocs build --strict`` wherever the site is built, the Pages workflow included."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

REFERENCES = {"a": "href", "link": "href", "img": "src", "script": "src", "source": "src"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if values.get(REFERENCES.get(tag, "")):
            self.refs.append(values[REFERENCES[tag]])


# Each HTML file's ids and links, by its path, with the (mtime, size) they were read at: `mkdocs serve
# --dirty` rewrites only the pages an edit touched, and parsing the rest again cost 1.4 s a rebuild.
_READ: dict[Path, tuple[tuple[int, int], _Page]] = {}


def _read(html: Path) -> _Page:
    stat = html.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = _READ.get(html)
    if known is None or known[0] != stamp:
        parser = _Page()
        parser.feed(html.read_text(encoding="utf-8"))
        known = _READ[html] = (stamp, parser)
    return known[1]


def broken_links(site: Path, base_path: str = "/", sources: dict[Path, tuple[str, str]] | None = None) -> list[str]:
    """``page: link (why)`` for each internal link of the HTML files under ``site`` that points at
    no file, or at an anchor the target page lacks. Absolute paths are read under ``base_path``.
    ``sources`` (a built page's path -> its source file and text) puts the source's file and line
    first: ``docs/a.md:12: link (why), in a/index.html``."""
    pages = {html: _read(html) for html in sorted(p.resolve() for p in site.rglob("*.html"))}
    for gone in _READ.keys() - pages.keys():
        if gone.is_relative_to(site.resolve()):
            del _READ[gone]
    broken, files = [], {}  # files: a link's target, normalised -> the file it names, or None
    for html, parser in pages.items():
        for ref in parser.refs:
            url = urlsplit(ref)
            if url.scheme or url.netloc or ref == "#":
                continue  # external, data: and mailto: links; the bare "#" of theme buttons
            path = unquote(url.path)
            if path.startswith("/"):  # absolute, as on 404.html: under the site's base path
                path = str(site.resolve() / path.removeprefix(base_path))
            # the pages' paths are resolved and a built site has no symbolic links: normalising the
            # joined path names the same file, without a system call for each of 2-3 links out of 4
            # that every page repeats (the navigation)
            name = os.path.normpath(os.path.join(html.parent, path)) if path else str(html)
            if name not in files:
                target = Path(name)
                target = target / "index.html" if target.is_dir() else target
                files[name] = target if target.is_file() else None
            target = files[name]
            why = None
            if target is None:
                why = "no such file"
            elif url.fragment and target in pages and unquote(url.fragment) not in pages[target].ids:
                why = "no such anchor"
            if why:
                built = html.relative_to(site.resolve())
                source = (sources or {}).get(html)
                if source is None:
                    broken.append(f"{built}: {ref} ({why})")
                else:
                    broken.append(f"{_source_line(*source, url)}: {ref} ({why}), in {built}")
    return broken


def _source_line(file: str, text: str, url: Any) -> str:
    """``file:line`` of the first line of the source that holds the link as an author wrote it
    (its anchor, or its last path segment as a page name); ``file`` alone when none does."""
    segment = unquote(url.path).rstrip("/").rsplit("/", 1)[-1]
    needles = [f"#{unquote(url.fragment)}"] if url.fragment else []
    needles += [f"{segment}.md", segment] if segment else []
    lines = text.split("\n")
    for needle in needles:
        if line := next((n for n, ln in enumerate(lines, 1) if needle in ln), None):
            return f"{file}:{line}"
    return file
