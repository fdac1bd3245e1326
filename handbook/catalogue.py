"""A language's words for the snippets, without a copy of their code.

``snippets/<chapter>/<lang>.yml`` is the ``lang`` edition's catalogue for that chapter's snippets:
for each snippet that prints or draws words, each of its strings and comments as written in the
snippet (the text between the quotes, or after ``#``) and the words written in their place::

    fixes.py:
      "-inf 그대로": "-inf as is"
      "keep: True=see": "True = attend"

The edition's variant of ``fixes.py`` (named ``fixes.<lang>.py``: ``editions.variant``) is the
snippet with those tokens replaced, and nothing else: its code is the snippet's, token for token,
so a change to the snippet reaches every language at once. A string or comment is replaced whole,
where its text is exactly the entry's; an entry that replaces nothing is a problem (it went stale
when the snippet changed), as is a variant whose code is not the snippet's (an f-string's
expressions are code too) (``problems``).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Any

from .capture import SnippetError

STRING = re.compile(r"(?s)(?P<open>[rRbBuUfF]*('''|\"\"\"|'|\"))(?P<text>.*)\2")
COMMENT = re.compile(r"(?s)(?P<open>#[ \t]*)(?P<text>.*)")
VARIANT = re.compile(r"(?P<chapter>[^/]+)/(?P<stem>[^/]+)\.(?P<lang>[a-z]{2,3})\.py")


class CatalogueError(SnippetError):
    """A catalogue that cannot be read as one: its file and what is wrong."""


def read(path: Path, where: str) -> dict[str, dict[str, str]]:
    """The catalogue in ``path`` (``where`` names it in errors): snippet file name -> {text as
    written in the snippet: the words in its place}."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise CatalogueError(f"{where}: not YAML: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise CatalogueError(f"{where}: a catalogue maps a snippet's file name to its words, not {type(data).__name__}")
    for name, words in data.items():
        if not (isinstance(name, str) and name.endswith(".py") and "/" not in name):
            raise CatalogueError(f"{where}: {name!r} is not a snippet's file name in this chapter (x.py)")
        if not isinstance(words, dict) or not words:
            raise CatalogueError(f"{where}: {name}: its words are a mapping of text to text, not {words!r}")
        for old, new in words.items():
            if not (isinstance(old, str) and isinstance(new, str) and old and new):
                raise CatalogueError(f"{where}: {name}: {old!r}: {new!r}: both sides are non-empty text")
    return data


def translate(source: str, words: dict[str, str], where: str) -> tuple[str, set[str]]:
    """``source`` with each string and comment whose text is an entry of ``words`` replaced, and
    the entries it used."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as error:
        raise SnippetError(f"{where}: the snippet does not tokenize: {error}") from None
    pieces, at, used = [], 0, set()
    for token in tokens:
        pattern = {tokenize.STRING: STRING, tokenize.COMMENT: COMMENT}.get(token.type)
        match = pattern.fullmatch(token.string) if pattern else None
        if match is None or match["text"] not in words:
            continue
        start = starts[token.start[0] - 1] + token.start[1]
        end = starts[token.end[0] - 1] + token.end[1]
        close = token.string[len(match["open"]) + len(match["text"]):]
        pieces += [source[at:start], match["open"], words[match["text"]], close]
        at = end
        used.add(match["text"])
    return "".join(pieces) + source[at:], used


class Catalogues:
    """The catalogues under a snippets ``folder``, each read again only when its text changes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[Path, tuple[str, dict[str, dict[str, str]]]] = {}
        self._made: dict[str, tuple[str, Any, str]] = {}  # variant -> (its snippet's text, its words, its text)

    def words(self, chapter: str, lang: str) -> dict[str, dict[str, str]] | None:
        path = self.folder / chapter / f"{lang}.yml"
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
        if self._read.get(path, ("",))[0] != text:
            self._read[path] = (text, read(path, f"snippets/{chapter}/{lang}.yml"))
        return self._read[path][1]

    def variant(self, name: str) -> str | None:
        """The text of variant ``chapter/x.<lang>.py``: ``chapter/x.py`` in ``lang``'s words, or
        None when the chapter's catalogue for ``lang`` has no words for ``x.py``."""
        match = VARIANT.fullmatch(name)
        if match is None:
            return None
        snippet = self.folder / match["chapter"] / f"{match['stem']}.py"
        words = self.words(match["chapter"], match["lang"])
        if words is None or f"{match['stem']}.py" not in words or not snippet.is_file():
            return None
        source, entries = snippet.read_text(encoding="utf-8"), words[f"{match['stem']}.py"]
        made = self._made.get(name)
        if made is None or made[0] != source or made[1] is not entries:  # asked for on every page that shows it
            made = self._made[name] = (source, entries, translate(source, entries, f"snippets/{name}")[0])
        return made[2]

    def names(self) -> list[str]:
        """Every variant the catalogues make (``chapter/x.<lang>.py``), sorted."""
        names = []
        for path in sorted(self.folder.glob("*/*.yml")):
            words = self.words(path.parent.name, path.stem) or {}
            names += [f"{path.parent.name}/{n[:-3]}.{path.stem}.py" for n in words
                      if (path.parent / n).is_file()]
        return sorted(names)

    def problems(self, langs: list[str]) -> list[str]:
        """What is wrong with the catalogues of ``langs`` (all but the first, whose words the
        snippets are written in): one that cannot be read, one for a language the site lacks,
        words for a snippet that does not exist, an entry that replaces nothing, and a variant
        whose code differs from its snippet's."""
        problems = []
        for path in sorted(self.folder.glob("*/*.yml")):
            where, chapter = f"snippets/{path.parent.name}/{path.name}", path.parent.name
            if path.stem not in langs[1:]:
                problems.append(f"{where}: a catalogue for {path.stem!r}, which is not one of the other editions {langs[1:]}")
                continue
            try:
                catalogue = self.words(chapter, path.stem) or {}
            except CatalogueError as error:
                problems.append(str(error))
                continue
            for name, words in catalogue.items():
                snippet = path.parent / name
                if not snippet.is_file():
                    problems.append(f"{where}: words for snippets/{chapter}/{name}, which does not exist")
                    continue
                source = snippet.read_text(encoding="utf-8")
                text, used = translate(source, words, f"snippets/{chapter}/{name}")
                stale = [w for w in words if w not in used]
                if stale:
                    problems.append(f"{where}: {name}: no string or comment of the snippet reads {stale} "
                                    "(an entry replaces a whole string's text, or a comment's after '#')")
                if _code(text) != _code(source):
                    problems.append(f"{where}: {name}: its words change the snippet's code (an f-string's "
                                    "expressions, or text that is not a string's): a catalogue changes words only")
        return problems


def _code(source: str) -> Any:
    """The snippet's syntax tree with every string constant blanked (None if it does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)
