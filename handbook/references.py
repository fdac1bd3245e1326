"""The GitHub threads the pages cite, against one list (``references.yml`` at the repository root).

A link to an issue, pull request or discussion must name an entry of the list, as the kind it is (a
pull request linked as ``/issues/N`` works on GitHub, and says the wrong thing); a link whose text
names a number (``pytorch#18287``) must name the number it links to; a ``#123`` in prose outside a
link says nothing a reader can follow; and every entry of the list must be cited somewhere, so the
list is what the pages cite. The titles in the list were read on GitHub: a number mistyped in a page
points at another thread, and the check names it.
"""

from __future__ import annotations

import re
from pathlib import Path

KINDS = {"issues": "issue", "pull": "pull", "discussions": "discussion"}
_SAID = {"issue": "an issue", "pull": "a pull request", "discussion": "a discussion"}
_LINK = re.compile(r"\[(?P<text>[^\]\n]*)\]\(https://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/"
                   r"(?P<kind>issues|pull|discussions)/(?P<number>\d+)[^)\s]*\)")
_BARE = re.compile(r"(?<![\w/&])#(\d+)\b")


def load(path: Path) -> dict[tuple[str, int], dict]:
    """The list, by (repo, number); a malformed entry raises ``ValueError`` naming it."""
    import yaml

    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    found = {}
    for entry in entries:
        if not (isinstance(entry, dict) and {"repo", "number", "kind", "title"} <= entry.keys()
                and entry["kind"] in KINDS.values() and isinstance(entry["number"], int)):
            raise ValueError(f"{path.name}: an entry needs repo, number (an integer), kind "
                             f"({', '.join(KINDS.values())}) and title: {entry!r}")
        key = (entry["repo"], entry["number"])
        if key in found:
            raise ValueError(f"{path.name}: {entry['repo']}#{entry['number']} is listed twice")
        found[key] = entry
    return found


def problems(pages: dict[str, str], listed: dict[tuple[str, int], dict], list_name: str = "references.yml") -> list[str]:
    """Every citation problem of ``pages`` (file -> Markdown text, the prose as an author wrote it)."""
    from claimcheck.document import prose_lines

    found, cited = [], set()
    for file, text in pages.items():
        for number, line in prose_lines(text, file):
            for m in _LINK.finditer(line):
                key, kind = (m["repo"], int(m["number"])), KINDS[m["kind"]]
                cited.add(key)
                entry = listed.get(key)
                if entry is None:
                    found.append(f"{file}:{number}: {m['repo']}#{m['number']} is not in {list_name}: add it with "
                                 "its title as GitHub shows it")
                elif entry["kind"] != kind:
                    found.append(f"{file}:{number}: {m['repo']}#{m['number']} is linked as {_SAID[kind]}, and it "
                                 f"is {_SAID[entry['kind']]} ({entry['title']!r})")
                named = re.findall(r"#(\d+)", m["text"])
                if named and named != [m["number"]]:
                    found.append(f"{file}:{number}: the link text {m['text']!r} names #{named[0]}, and the link "
                                 f"goes to #{m['number']}")
            rest = _LINK.sub(" ", line)
            for bare in _BARE.findall(re.sub(r"\]\([^)]*\)|\{[^}\n]*\}", " ", rest)):
                found.append(f"{file}:{number}: #{bare} is cited without a link: link the thread "
                             "([`owner/repo#N`](https://github.com/…)), which names its repository too")
    for key in sorted(listed.keys() - cited):
        found.append(f"{list_name}: {key[0]}#{key[1]} ({listed[key]['title']!r}) is cited by no page")
    return found
