"""Where a claim's value comes from. A source answers ``value(claim)`` (a ``document.Claim``: its
target, its expression, and where it is written, which a notebook's source needs to know which
cell's state the claim reads) with plain data (numbers, bools, strings, lists), or raises
``SourceError`` saying why it cannot. Anything with that method is a source: a snippet's run, a
notebook's kernel, a file of results produced elsewhere (a GPU run, say). A source may also say
what it calls a value's origin in messages (``describe(claim)``: "the snippet", "the lab"; "the
source" otherwise). Two come with the package: ``Scripts`` and ``Values``."""

from __future__ import annotations

import ast
import json
import runpy
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
