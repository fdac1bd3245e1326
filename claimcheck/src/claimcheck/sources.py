"""Where a claim's value comes from. A source answers ``value(claim)`` (a ``document.Claim``: its
target, its expression, and where it is written, which a notebook's source needs to know which
cell's state the claim reads) with plain data (numbers, bools, strings, lists), or raises
``SourceError`` saying why it cannot. Anything with that method is a source: a snippet's run, a
notebook's kernel, a file of results produced elsewhere (a GPU run, say). A source may also say
what it calls a value's origin in messages (``describe(claim)``: "the snippet", "the lab"; "the
source" otherwise). Three come with the package: ``Scripts``, ``Values`` and ``PythonSource``."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import json
import os
import re
import runpy
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol


class SourceError(Exception):
    """A value that cannot be had: the message says why (no such script, a raise, a bad expression)."""


class Source(Protocol):
    def value(self, claim: Any) -> Any: ...


def plain(value: Any) -> Any:
    """Arrays, tensors and tuples as plain lists and numbers (anything with ``tolist``)."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


class Scripts:
    """Python scripts under ``folder``: target ``x.py`` is the namespace ``folder/x.py`` leaves when
    run (once, in this process, as ``python x.py`` would run it), and ``expr`` is evaluated in it.
    The expression must read a name the script defined: a constant proves nothing."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self._runs: dict[str, tuple[str, dict[str, Any] | SourceError]] = {}

    def namespace(self, target: str) -> dict[str, Any]:
        path = self.folder / target
        if not target.endswith(".py") or not path.is_file():
            raise SourceError(f"no script {target} under {self.folder}")
        text = path.read_text(encoding="utf-8")
        if self._runs.get(target, ("",))[0] != text:
            try:
                result: dict[str, Any] | SourceError = runpy.run_path(str(path), run_name="__claimcheck__")
            except Exception as error:  # noqa: BLE001  (reported as the claim's problem)
                result = SourceError(f"{target} raised {type(error).__name__}: {error}")
            self._runs[target] = (text, result)
        result = self._runs[target][1]
        if isinstance(result, SourceError):
            raise result
        return result

    def value(self, claim: Any) -> Any:
        target, expr = claim.target, claim.expr
        names = self.namespace(target)
        try:
            tree = ast.parse(expr, mode="eval")
        except SyntaxError as error:
            raise SourceError(f"cannot read the expression {expr!r}: {error.msg}") from None
        if not any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(tree)):
            raise SourceError(f"the expression {expr!r} reads no name {target} defines")
        try:
            return plain(eval(compile(tree, f"<claim {expr}>", "eval"), dict(names)))  # noqa: S307  (the project's own)
        except Exception as error:  # noqa: BLE001
            raise SourceError(f"{expr!r} raised {type(error).__name__}: {error}") from None


class Values:
    """A JSON file of results made elsewhere: ``{target: {expr: value}}``."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SourceError(f"{self.path}: {error}") from None
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise SourceError(f"{self.path}: the values are an object of targets, each an object of expressions")
        self.data: dict[str, dict[str, Any]] = data

    def value(self, claim: Any) -> Any:
        target, expr = claim.target, claim.expr
        if target not in self.data:
            raise SourceError(f"{self.path.name} has no target {target!r}")
        if expr not in self.data[target]:
            raise SourceError(f"{self.path.name} has no value of {expr!r} for {target!r}")
        return self.data[target][expr]


class PythonSource:
    """The installed source of a Python module, class or function: target ``torch.nn.attention.bias``
    is that module's file as text; ``torch.nn.attention.bias.CausalBias._dispatch`` that method's
    source. Nothing is imported or run: the file is found as ``importlib`` would find it
    (``find_spec`` of the top-level package, then each submodule's file in its package's folder),
    and a definition is found in its text with ``ast`` (where a name is defined more than once, in
    an ``if``/``else`` or an overload, every definition counts). A compiled extension has no text."""

    def value(self, claim: Any) -> str:
        return self.lookup(claim.target)[2]

    def describe(self, claim: Any) -> str:
        try:
            module, path, _ = self.lookup(claim.target)
        except SourceError:
            return claim.target
        return f"{claim.target} (module {module}, {path})"

    @staticmethod
    def lookup(name: str) -> tuple[str, str, str]:
        """(module, file, text): the longest prefix of ``name`` that is a module, its file, and the
        text of that file or of the definition the rest of the name picks in it."""
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name):
            raise SourceError(f"{name!r} is not a dotted name (module.path[.Class.function])")
        parts = name.split(".")
        try:
            spec = importlib.util.find_spec(parts[0])  # a top-level name: imports nothing
        except (ImportError, ValueError) as error:
            raise SourceError(f"cannot look up module {parts[0]!r}: {error}") from None
        if spec is None:
            raise SourceError(f"no module named {parts[0]!r} is installed")
        depth = 1
        while depth < len(parts) and spec.submodule_search_locations:
            folders = [str(f) for f in spec.submodule_search_locations]  # a loaded transformers holds Paths here
            sub = importlib.machinery.PathFinder.find_spec(".".join(parts[: depth + 1]), folders)
            if sub is None:
                break
            spec, depth = sub, depth + 1
        module, path = ".".join(parts[:depth]), spec.origin
        if not path or not path.endswith(".py"):
            raise SourceError(f"module {module} has no Python source to read (its file: {path})")
        mtime = os.stat(path).st_mtime_ns  # a reinstall reads afresh
        rest = parts[depth:]
        return module, path, _definition(rest, module, path, mtime) if rest else _read(path, mtime)


@lru_cache(maxsize=64)
def _read(path: str, mtime_ns: int) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read()


@lru_cache(maxsize=16)
def _parsed(path: str, mtime_ns: int) -> tuple[ast.Module, list[bytes]]:
    """A module's tree and its lines as bytes (the tree's column offsets count UTF-8 bytes), once
    per file: a module read many times parses once."""
    text = _read(path, mtime_ns)
    return ast.parse(text), text.encode("utf-8").splitlines(keepends=True)  # \n, \r\n and \r, as Python counts lines


def _definition(names: list[str], module: str, path: str, mtime_ns: int) -> str:
    """The source of ``A.b`` (classes, functions, assignments) in a module's text."""
    tree, lines = _parsed(path, mtime_ns)
    nodes: list[ast.AST] = [tree]
    for depth, part in enumerate(names):
        nodes = [n for parent in nodes for n in _defined(parent, part)]
        if not nodes:
            raise SourceError(f"module {module} ({path}) defines no {'.'.join(names[: depth + 1])!r}")
    return "\n".join(_segment(lines, n) for n in nodes)


def _segment(lines: list[bytes], node: ast.AST) -> str:
    """The source text of ``node``, as ``ast.get_source_segment`` gives it (which splits the whole
    file again at each call: 80 ms a lookup in a large module)."""
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
