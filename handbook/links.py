"""Every internal link and anchor of the built site resolves, raw HTML included (MkDocs validates
only the links it writes from Markdown). The plugin runs this after every build, so a broken link
fails ``mkdocs build --strict`` wherever the site is built, the Pages workflow included."""

from __future__ import annotations

import os
import re
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


def _read(html: Path, read: dict[Path, Any]) -> _Page:
    stat = html.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    known = read.get(html)
    if known is None or known[0] != stamp:
        parser = _Page()
        parser.feed(html.read_text(encoding="utf-8"))
        known = read[html] = (stamp, parser)
    return known[1]


def broken_links(site: Path, base_path: str = "/", sources: dict[Path, tuple[str, str]] | None = None,
                 read: dict[Path, Any] | None = None, made_later: frozenset[Path] = frozenset()) -> list[str]:
    """``page: link (why)`` for each internal link of the HTML files under ``site`` that points at
    no file, or at an anchor the target page lacks. Absolute paths are read under ``base_path``.
    ``sources`` (a built page's path -> its source file and text) puts the source's file and line
    first: ``docs/a.md:12: link (why), in a/index.html``. ``read`` keeps each file's ids and links,
    with the (mtime, size) they were read at, from one call to the next: `mkdocs serve --dirty`
    rewrites only the pages an edit touched, and parsing the rest again cost 1.4 s a rebuild.
    ``made_later``: files (resolved paths) that count as there though this build does not write them."""
    read = {} if read is None else read
    pages = {html: _read(html, read) for html in sorted(p.resolve() for p in site.rglob("*.html"))}
    for gone in read.keys() - pages.keys():
        if gone.is_relative_to(site.resolve()):
            del read[gone]
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
                files[name] = target if target.is_file() or target in made_later else None
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


# The 404 page, served for a missing address anywhere under the site, names its styles, scripts
# and links from the site's root: MkDocs writes them under site_url's path, and with no site_url (a
# local build, a fork's) under "/", so under a sub-path (GitHub Pages' /<repository>/) the page
# came unstyled. Without a site_url, this page finds the root where it is served: the path before
# the first folder the site has at its top (the "causal" of /fork/causal/gone/), or else before the
# missing name (/fork/gone/ -> /fork/; /fork/a/b/ takes /fork/a/, which no page can tell apart from
# a site at /fork/a/); a <base> names it, and the links are relative to it.
_FIND_ROOT = """<script>(()=>{const top=new Set(%s),p=location.pathname.split("/");if(p.at(-1)==="")p.pop();
let i=p.findIndex((s,j)=>j>0&&j<p.length-1&&top.has(decodeURIComponent(s)));if(i<0)i=p.length-1;
document.write(`<base href="${p.slice(0,i).join("/")}/">`)})()</script>"""
# What loads a file (the head's styles and scripts, the scripts at the end) is written by the page's
# script once the <base> is in: as markup, Chromium's preload scanner fetched each file from the
# missing address's folder before the script ran. A <noscript> holds it (raw text where scripts
# run; without scripts, the head's styles still apply).
_INERT = """<noscript id="%s">%s</noscript><script>document.write(document.getElementById("%s").textContent)</script>"""
# Material's script reads the root and its search worker from its config, from "/" too.
_CONFIG_ROOT = """<script>(c=>{const j=JSON.parse(c.textContent),r=document.baseURI;j.base=r;
j.search=new URL(j.search.replace(/^\\//,""),r).href;c.textContent=JSON.stringify(j)})(document.getElementById("__config"))</script>"""
_ABSOLUTE = re.compile(r'(\s(?:href|src)=")/(?!/)')
_CONFIG = re.compile(r'<script id="__config" type="application/json">.*?</script>', re.S)


def served_anywhere(page_html: str, top: set[str]) -> str:
    """The 404 page (written with root-absolute links, from "/") served under any path: its links
    relative to a <base> that a script in its head finds, ``top`` being the names (folders and
    files) at the site's top."""
    import json

    charset, config = '<meta charset="utf-8">', _CONFIG.search(page_html)
    if charset not in page_html or "</head>" not in page_html or not config or "</noscript" in page_html:
        raise ValueError("the 404 page lacks <meta charset>, </head> or Material's config, or has a <noscript>")
    head = page_html.index(charset) + len(charset)
    head_end, tail, tail_end = page_html.index("</head>"), config.start(), page_html.rindex("</body>")

    def inert(name: str, part: str) -> str:
        return _INERT % (name, _ABSOLUTE.sub(r"\1", part), name)

    return "".join([
        page_html[:head], _FIND_ROOT % json.dumps(sorted(top), ensure_ascii=False),
        inert("__head", page_html[head:head_end]),
        _ABSOLUTE.sub(r"\1", page_html[head_end:tail]),
        inert("__tail", page_html[tail:config.end()] + _CONFIG_ROOT + page_html[config.end():tail_end]),
        page_html[tail_end:],
    ])
