"""Running a lab: the notebook that runs (the download, with a cell after each answer's check that
evaluates the lab's own claims), executed top to bottom in a warm Jupyter kernel (handbook/kernels.py)
from an empty folder, and the key its outputs are kept under: its code as Python reads it, and the
environment (interpreter, every installed distribution, CPU kernels, numeric settings)."""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import platform
import re
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

import nbformat

from .labs import LabError

# What else changes a lab's printed numbers besides its text: the CPU kernels torch picks and the
# thread and BLAS settings. Their values are part of the key under which outputs are reused.
NUMERIC_ENV = re.compile(r"ATEN_|OMP_|MKL_|OPENBLAS_|KMP_|TORCH_|PYTHONHASHSEED$")
# ...but not how idle threads wait for work (spin or sleep): that changes when a result comes, not
# what it is. The tests set OMP_WAIT_POLICY and `make serve` does not; in the key, each would run
# every lab again after the other.
TIMING_ONLY = {"OMP_WAIT_POLICY", "KMP_BLOCKTIME"}
# What an executed notebook holds besides its outputs; a change here makes every lab run again
# rather than reuse a notebook made the old way.
FORMAT = "executed notebooks 2: the claims cells taken out, the code cells counted without them"
HANG_S = 600  # how long a cell, or a kernel's start, may take before the build calls it hung


def environment() -> str:
    """A digest of everything besides a notebook's text that can change its outputs: the
    interpreter, every installed distribution, the CPU capability torch uses, numeric settings."""
    import torch

    parts = [FORMAT, platform.python_version(), platform.machine(), torch.backends.cpu.get_cpu_capability()]
    parts += _distributions()
    parts += sorted(f"{k}={v}" for k, v in os.environ.items() if NUMERIC_ENV.match(k) and k not in TIMING_ONLY)
    return digest("\n".join(parts))


@functools.cache
def _distributions() -> list[str]:
    """Every installed distribution and its version, read once a process (0.1 s; a `serve --dirty`
    rebuild asks twice): what a running process has imported does not change with a later install.
    The installed ones only: importing koreanize_matplotlib (pkg_resources) puts setuptools/_vendor
    on sys.path, and the key must not change because a snippet ran earlier in the same process."""
    installed = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    return sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions(path=installed))


# Evaluates a text cell's lab claims in the kernel, right after the code cell that follows it: each
# expression's value (handbook.values.plain), or that it reads no name the lab defined, or the error.
# The cell prints one JSON line; execute() takes it out of the notebook and keeps what it printed.
_EVALUATE = """\
def _handbook_claims(expressions):
    import ast, json, types
    from handbook.values import plain
    shell = get_ipython()
    own = {k for k, v in shell.user_ns.items() if k not in shell.user_ns_hidden
           and not k.startswith("_") and not isinstance(v, types.ModuleType)}
    found = {}
    for expr in expressions:
        try:
            names = {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}
            found[expr] = ["value", plain(eval(expr, shell.user_ns))] if names & own else ["constant", None]
        except Exception as error:
            found[expr] = ["error", f"{type(error).__name__}: {error}"]
    print(json.dumps(found, default=repr))
_handbook_claims({expressions!r}); del _handbook_claims"""
CLAIMS_CELL = "handbook-claims"  # the metadata mark of a claims cell


def with_claims(text: str, claims: list[tuple[int, int, str]]) -> str:
    """The notebook (JSON text) that runs: ``text`` with a claims cell after each code cell whose
    text cell above makes lab claims. The download is ``text`` itself."""
    if not claims:
        return text
    book = nbformat.reads(text, as_version=4)
    code = [i for i, c in enumerate(book.cells) if c.cell_type == "code"][1:]  # after the setup cell
    by_cell: dict[int, list[str]] = {}
    for _, cell, expr in claims:
        by_cell.setdefault(cell, []).append(expr)
    for cell in sorted(by_cell, reverse=True):
        evaluate = nbformat.v4.new_code_cell(_EVALUATE.replace("{expressions!r}", repr(sorted(set(by_cell[cell])))))
        evaluate.id, evaluate.metadata = f"{book.cells[code[cell]].id}-claims", {CLAIMS_CELL: cell}
        book.cells.insert(code[cell] + 1, evaluate)
    return nbformat.writes(book)


@functools.lru_cache(maxsize=256)  # a `serve` rebuild asks again for every lab, most unchanged
def code_of(text: str) -> str:
    """What of a notebook (its JSON text) its outputs depend on: the code cells, in order, as
    Python's tokenizer reads them. A comment, a blank line or the width of an indent changes no
    output, so an edit to one runs no lab again (the page shows the code from the sources)."""
    return "\n# %%\n".join(_tokens(c.source) for c in nbformat.reads(text, as_version=4).cells
                            if c.cell_type == "code")


def _tokens(source: str) -> str:
    import io
    import tokenize

    layout = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    try:
        return repr([(t.type, "" if t.type in layout else t.string)
                     for t in tokenize.generate_tokens(io.StringIO(source).readline)
                     if t.type not in (tokenize.COMMENT, tokenize.NL)])
    except (tokenize.TokenError, SyntaxError):  # not Python as written (an IPython magic): the text itself
        return source


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def execute(file: str, text: str, key: str, server: Any) -> Any:
    """Run a notebook (its JSON text) in a new kernel from an empty folder, as Jupyter would, the
    kernel a warm fork of ``server`` (a ``kernels.Server``); return it with its outputs, marked
    with ``key``. A cell that raises or writes to stderr (a warning, a
    logged message) stops it with ``LabError`` naming the cell."""
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager
    from traitlets.config import Config
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    book = nbformat.reads(text, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        # Local sockets in the run's own folder, not TCP: private, and the kernel has no
        # "running over TCP without encryption" warning to print on the build's stderr.
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(folder, "kernel")}})
        specs = KernelSpecManager(kernel_dirs=[str(server.folder / "kernels")])
        manager = KernelManager(config=ipc, kernel_name="python3", kernel_spec_manager=specs)
        # A cell and a kernel's start get as long as a busy slow machine needs: the limits end a hang.
        client = NotebookClient(book, km=manager, timeout=HANG_S, startup_timeout=HANG_S, record_timing=False,
                                resources={"metadata": {"path": folder}})
        # The kernel draws figures inline, whatever backend the caller's environment names (a
        # headless CI often sets MPLBACKEND=Agg, which would leave every figure out of the page).
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"} | server.env()
        try:
            client.execute(env=env, cleanup_kc=True)  # its kernel manager is ours: shut it down
        except CellExecutionError as error:
            report = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # the kernel colours its traceback
            raise LabError(f"{file}: a cell raised while the notebook ran\n{report}") from None
        finally:
            _close_loop()
    claims = {}
    for cell in [c for c in book.cells if CLAIMS_CELL in c.metadata]:
        printed = "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")
        claims[str(cell.metadata[CLAIMS_CELL])] = json.loads(printed)
        book.cells.remove(cell)
    # Counted as the reader's Jupyter counts them: the claims cells took a number each, and are gone.
    for count, cell in enumerate((c for c in book.cells if c.cell_type == "code"), 1):
        cell.execution_count = count
        for output in cell.outputs:
            if "execution_count" in output:
                output.execution_count = count
    for number, cell in enumerate(c for c in book.cells if c.cell_type == "code"):
        outputs = []  # the kernel sends printed text in chunks timed by chance: join them
        for output in cell.outputs:
            if output.output_type == "stream" and output.name == "stderr":
                raise LabError(f"{file}: code cell {number + 1} wrote to stderr "
                               f"(a warning or a log line):\n{cell.source}\n--- stderr:\n{output.text}")
            if outputs and output.output_type == outputs[-1].output_type == "stream":
                outputs[-1].text += output.text
            else:
                outputs.append(output)
        cell.outputs = outputs
    book.metadata["handbook"] = {"key": key, "claims": claims}
    return book


def _close_loop() -> None:
    """Close the event loop jupyter_core made for this thread to run the kernel client. Left open,
    it is collected later, in whatever runs then, and where ResourceWarning shows (``python -X dev``)
    it writes "unclosed event loop" to the build's stderr, which fails --strict's promise of none."""
    import asyncio

    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:  # none was made here
        return
    if not loop.is_running():
        loop.close()
    asyncio.set_event_loop(None)


def is_current(path: Path, key: str) -> bool:
    """Whether ``path`` holds outputs made under exactly ``key`` (text and environment)."""
    if not path.is_file():
        return False
    stat = path.stat()
    return _key_in(path, stat.st_ino, stat.st_mtime_ns, stat.st_size) == key


@functools.lru_cache(maxsize=256)  # read again only when the file changed (a run replaces it: a new inode)
def _key_in(path: Path, _inode: int, _mtime_ns: int, _size: int) -> str | None:
    return nbformat.read(path, as_version=4).metadata.get("handbook", {}).get("key")


def write_whole(text: str, path: Path) -> None:
    """Write ``text`` to ``path`` whole: a build reading it meanwhile sees the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    part.replace(path)
