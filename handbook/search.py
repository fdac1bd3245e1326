"""What the search index holds of a page, beyond Material's own entries (one per heading).

- ``page``: a page's own entry (its title and opening text) also carries the title in a field of its
  own, which mkdocs.yml weighs above a section's heading (``fields``). A chapter whose title holds the
  word then comes before a chapter with a section about it (기울기: the gradients chapter, not
  pitfalls' section on ``nan_to_num``), even where ``search: boost`` turns the chapter down so that
  the basic words find the chapters that teach them.
- ``code``: code blocks and terminal output move out of ``text`` into a field of their own: still
  found, never shown (a preview shows ``text``, and a listing filled it whole).
"""

from __future__ import annotations

import re

_PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
_TAG = re.compile(r"<[^>]+>")


def refine(entry: dict, page_url: str) -> dict:
    """One of Material's index entries (location, title, text) with the fields above."""
    if entry["location"] == page_url:
        entry["page"] = entry["title"]
    code = [_TAG.sub("", block).strip() for block in _PRE.findall(entry["text"])]
    if code:
        entry["code"] = "\n".join(c for c in code if c)
        entry["text"] = re.sub(r"\s{2,}", " ", _PRE.sub(" ", entry["text"])).strip()
    return entry
