"""Quotes: sentences about what a library's code does, tied to the installed, pinned source.

    `_dispatch`{ data-quote="torch.nn.attention.bias.CausalBias._dispatch: if can_use_flash_attention(sdpa_params): … is_causal=True, # TODO: Flash accepts causal = True and for this particular op it means lower right" }

The reader sees plain code, as with a claim. The target is a dotted name, ``: `` and a passage. The
name is a module (``torch.nn.attention.bias``), optionally followed by a class, function or
assignment inside it (``CausalBias._dispatch``); the passage must appear in that module's source
file, or in that definition's source, once runs of whitespace are made one space. `` … `` splits a
passage into pieces that must appear in that order ("this, and later that"). The attribute ends at
a double quote, so a ``"`` of the source is written ``&quot;``.

Nothing is imported or executed: the module's file is found as ``importlib`` would find it
(``find_spec`` for the top-level package, then each submodule's file within its package's folder)
and read as text; a class or function is found in that text with ``ast``. A version bump that changes
the code fails the check, with the page's file and line, the module, its file and the piece missing.
The file must be Python source: a compiled extension has no text to quote (cite its repository
path and commit instead, and say it was not run here).
"""

from __future__ import annotations

import ast
import html
import importlib.machinery
import importlib.util
import os
import re
from dataclasses import dataclass
from functools import lru_cache

QUOTE = re.compile(r'`(?P<literal>[^`\n]+)`\{\s*data-quote="(?P<target>[^"\n]*)"\s*\}')
GAP = re.compile(r"\s…(?=\s)")  # " … " between two pieces (three dots are Python's Ellipsis, a piece's own)


class QuoteError(ValueError):
    """A quote that cannot be checked: no such module or definition, no Python source, no passage."""


@dataclass(frozen=True)
class Quote:
    file: str  # docs/decoding.md
    line: int
    literal: str
    name: str  # torch.nn.attention.bias.CausalBias._dispatch
    passage: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def pieces(self) -> list[str]:
        return [normalised(html.unescape(p)) for p in GAP.split(f" {self.passage} ")]

    def check(self) -> str | None:
        """None when the passage is in the named source, else a message naming file, line, module,
        its file and the passage."""
        head = f"{self.where}: quote `{self.literal}` ({self.name}: {self.passage})"
        try:
            module, path, text = source(self.name)
            if not all(self.pieces):
                raise QuoteError("a piece of the passage is empty (' … ' at an end, or twice in a row)")
        except QuoteError as error:
            return f"{head} cannot be checked: {error}"
        where, at = normalised(text), 0
        for number, piece in enumerate(self.pieces):
            found = where.find(piece, at)
            if found < 0:
                after = f" after {self.pieces[number - 1]!r}" if number else ""
                return (f"{head} does not hold: {self.name} (module {module}, {path}) has no {piece!r}{after}; "
                        "read the installed source: a typo, or a version that changed what the sentence says")
            at = found + len(piece)
        return None


def normalised(text: str) -> str:
    return " ".join(text.split())


def parse_target(target: str) -> tuple[str, str]:
    """``name: passage`` as (name, passage), or a ``QuoteError`` saying what is wrong."""
    name, sep, passage = target.partition(": ")
    name = name.strip()
    if not sep or not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name):
        raise QuoteError('quote target must read "module.path[.Class.function]: passage"')
    if not passage.strip():
        raise QuoteError(f"quote of {name} has an empty passage")
    return name, passage.strip()


def source(name: str) -> tuple[str, str, str]:
    """(module, file, text) for a dotted name: the longest prefix that is a module, its file, and the
    text of that file or of the definition the rest of the name picks in it."""
    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0])  # a top-level name: imports nothing
    except (ImportError, ValueError) as error:
        raise QuoteError(f"cannot look up module {parts[0]!r}: {error}") from None
    if spec is None:
        raise QuoteError(f"no module named {parts[0]!r} is installed")
    depth = 1
    while depth < len(parts) and spec.submodule_search_locations:
        folders = [str(f) for f in spec.submodule_search_locations]  # a loaded transformers holds Paths here
        sub = importlib.machinery.PathFinder.find_spec(".".join(parts[: depth + 1]), folders)
        if sub is None:
            break
        spec, depth = sub, depth + 1
    module, path = ".".join(parts[:depth]), spec.origin
    if not path or not path.endswith(".py"):
        raise QuoteError(f"module {module} has no Python source to quote (its file: {path})")
    text = _read(path, os.stat(path).st_mtime_ns)
    rest = parts[depth:]
    return module, path, _definition(rest, module, path) if rest else text


@lru_cache(maxsize=64)
def _read(path: str, mtime_ns: int) -> str:  # the modification time makes a reinstall read afresh
    with open(path, encoding="utf-8") as file:
        return file.read()


@lru_cache(maxsize=16)
def _parsed(path: str, mtime_ns: int) -> tuple[ast.Module, list[bytes]]:
    """A module's tree and its lines as bytes (the tree's column offsets count UTF-8 bytes), once
    per file: modules quoted many times (transformers' masking_utils, 20 times) parse once."""
    text = _read(path, mtime_ns)
    return ast.parse(text), text.encode("utf-8").splitlines(keepends=True)  # \n, \r\n and \r, as Python counts lines


def _definition(names: list[str], module: str, path: str) -> str:
    """The source of ``A.b`` (classes, functions, assignments) in a module's text; where a name is
    defined more than once (an ``if``/``else``, an overload), every definition counts."""
    tree, lines = _parsed(path, os.stat(path).st_mtime_ns)
    nodes: list[ast.AST] = [tree]
    for depth, part in enumerate(names):
        nodes = [n for parent in nodes for n in _defined(parent, part)]
        if not nodes:
            raise QuoteError(f"module {module} ({path}) defines no {'.'.join(names[: depth + 1])!r}")
    return "\n".join(_segment(lines, n) for n in nodes)


def _segment(lines: list[bytes], node: ast.AST) -> str:
    """The source text of ``node``, as ``ast.get_source_segment`` gives it (which splits the whole
    file again at each call: 80 ms a quote of a large module)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first][node.col_offset:node.end_col_offset].decode("utf-8")
    body = [lines[first][node.col_offset:], *lines[first + 1:last], lines[last][:node.end_col_offset]]
    return b"".join(body).decode("utf-8")


def _defined(parent: ast.AST, name: str) -> list[ast.AST]:
    """The definitions of ``name`` directly in ``parent``'s body, looking into ``if``, ``try`` and
    ``with`` blocks but not into other classes or functions (``A.b`` is b defined in A)."""
    found = []
    for node in _statements(getattr(parent, "body", [])):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == name:
                found.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found.append(node)
    return found


def _statements(body: list[ast.stmt]):
    for node in body:
        yield node
        if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                yield from _statements(getattr(node, field, []) or [])
