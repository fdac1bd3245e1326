"""The claims hold whichever CPU kernels torch picks, and what a reader sees that changes between
them is listed here, with the claims about it stated as bounds or ranges.

torch chooses its float32 kernels by the CPU's capability (``ATEN_CPU_CAPABILITY``: default, avx2,
avx512); their rounding differs in the last bits. Each test runs the snippets in a new process
under one capability (the machine's own is the rest of the suite), and on one thread, as on a
one-core machine (the rest of the suite uses every core): the thread count changes rounding too,
in padding/encoder.py's output (measured). One thread also spares the busy machine the probes'
waiting threads: 46 -> 39 CPU seconds for the two, run together."""

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest
from project import ROOT, RUNNER, runner_for

CAPABILITIES = ["default", "avx2"]
# Snippets whose output (printed text or figures) differs between capabilities or thread counts on
# the machines measured (AMD and Intel AVX-512, and under avx2 and default): rounding in the last printed digits. Every claim
# about them is checked under each capability below.
VARIES = {
    "adding/fused.py", "causal/unequal.py", "decoding/kv_cache.py", "padding/encoder.py", "pitfalls/sum_check.py", "scaling/sweep.py", "softmax/range.py",
    "softmax/temperature.py", "together/empty_rows.py", "together/multihead.py",
    "online/attention.py", "online/figure.py", "online/guard.py", "online/merge.py",
    "online/backward.py", "online/sink.py", "flex/hf_packing.py",
    "chunked/hf_chunks.py", "chunked/prefill.py", "chunked/prefix.py", "chunked/split_kv.py",
    # their tables (not their printed output) show rounding: a largest difference, a gradient's digits
    "flex/align.py", "flex/zoo.py", "scaling/gradient.py",
}

# Labs whose printed outputs differ between capabilities or thread counts (the same rounding, in
# cells of their own); a lab's claims about them are bounds or ranges too.
VARIES_LABS = {"labs/chunked.py", "labs/decoding.py", "labs/flex.py", "labs/online.py", "labs/together.py"}

# One process per capability runs every snippet once: the digest of what each shows (its output, and
# each page block that shows it, tables and matrices included, as the build renders them), the digest
# of each lab's printed cells, and every claim of the chapters checked against those runs.
PROBE = """
import json, sys
sys.path[:0] = ["tests", "tests/content"]  # the helpers, and this tier's modules
from project import RUNNER, runner_for
from test_claims import CLAIMS
from test_portability import lab_claim_problems, seen
problems = [str(p) for p in (claim.check(runner_for(claim.file)) for claim in CLAIMS) if p]
print(json.dumps({"seen": seen(), "claims": len(CLAIMS), "problems": problems + lab_claim_problems()}))
"""
EXEC_BLOCK = re.compile(r'^```python exec="on"\n(.*?)^```', re.S | re.M)


def seen() -> dict[str, str]:
    """What a reader sees, by the snippet (or lab) it comes from: digests of each snippet's output and
    figures, of every page block that shows it as the build renders it, and of each lab's printed cells."""
    found = {name: _digest(RUNNER.run(name).stdout + "".join(RUNNER.run(name).figures)) for name in RUNNER.all()}
    for file, name, shown in _page_blocks():
        found[f"{name} on {file}"] = _digest(shown)
    for lab in sorted(ROOT.glob("labs/*.py")):
        found[f"labs/{lab.name}"] = _digest(_lab_run(lab)[0])
    return found


def lab_claim_problems() -> list[str]:
    """Each lab's own claims (``lab: expr``), in both editions, against the lab run in this process
    (the editions' labs run the same code)."""
    from handbook import labs
    from handbook.claims import LabValues
    from handbook.prose import check_page
    from project import EDITIONS, LANGS

    problems = []
    for lab in sorted(ROOT.glob("labs/*.py")):
        values = _lab_run(lab)[1]
        for folder, lang in zip(EDITIONS, LANGS.values()):
            lab_values = LabValues({(line, expr): values.get((cell, expr), ("missing", None))
                                    for line, cell, expr in labs.lab_claims(lab, lang)})
            problems += [p for p in check_page(labs.prose(lab, lang), labs.shown(lab), runner_for(f"{folder}/x.md"),
                                               lab_values) if "(lab: " in p]
    return problems


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _page_blocks():
    """(page, snippet, Markdown) for each exec block of each page of every edition, rendered as the
    build renders it (the edition's snippet variant and words)."""
    import contextlib
    import io

    import handbook
    from project import WORDS
    from handbook.plugins.snippets import RUN_CALL
    from handbook.render import Example, Figures
    from project import EDITIONS

    for folder, lang in EDITIONS.items():
        runner = runner_for(f"{folder}/x.md")

        class Build:  # what a page's handbook.run asks of the plugin
            def show(self, name, runner=runner, words=WORDS[lang or "ko"]):
                return Example(runner.run(name), Figures(), words)

        for page in sorted((ROOT / folder).glob("*.md")):
            for block in EXEC_BLOCK.finditer(page.read_text(encoding="utf-8")):
                name = RUN_CALL.search(block[1])
                out = io.StringIO()
                handbook._activate(Build())
                try:
                    with contextlib.redirect_stdout(out):
                        exec(compile(block[1], f"{folder}/{page.name}", "exec"), {})
                finally:
                    handbook._activate(None)
                yield f"{folder}/{page.name}", name[1] if name else "?", out.getvalue()


_LAB_RUNS: dict = {}


def _lab_run(source) -> tuple[str, dict]:
    """What a lab's code cells print and display (the repr of a cell's last expression, as Jupyter
    shows it), run in this process in order (figures are the snippets', compared above), and its
    claims' values by (code cell, expression), evaluated after the cell as the build's kernel does."""
    if source not in _LAB_RUNS:
        _LAB_RUNS[source] = _run_lab(source)
    return _LAB_RUNS[source]


def _run_lab(source) -> tuple[str, dict]:
    import ast
    import contextlib
    import io

    import matplotlib
    from handbook import labs

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from handbook.values import plain

    book = labs.notebook(source, RUNNER.folder, "ko")
    claims = {}
    for _, cell, expr in labs.lab_claims(source, "ko") + labs.lab_claims(source, "en"):  # both texts' claims
        claims.setdefault(cell, []).append(expr)
    namespace, printed, values = {"__name__": "__main__"}, [], {}
    for number, cell in enumerate(c for c in book.cells if c.cell_type == "code"):
        if number == 0:
            continue  # the setup cell: it installs a font package where one is missing
        tree = ast.parse(cell.source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(tree, f"{source.name} cell {number}", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), f"{source.name} cell {number}", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        plt.close("all")
        printed.append(f"# cell {number}\n{out.getvalue()}")
        for expr in claims.get(number - 1, []):  # the source's code cells, the setup cell not counted
            try:
                values[(number - 1, expr)] = ("value", plain(eval(expr, namespace)))
            except Exception as error:  # noqa: BLE001 - the claim reports it
                values[(number - 1, expr)] = ("error", f"{type(error).__name__}: {error}")
    return "\n".join(printed), values


@pytest.mark.kernels
@pytest.mark.parametrize("capability", CAPABILITIES)
def test_claims_hold_and_what_changes_is_listed_under_other_cpu_kernels(capability):
    env = {**os.environ, "ATEN_CPU_CAPABILITY": capability, "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result["claims"] > 500 and not result["problems"], "\n".join(result["problems"])
    # against this process; an edition's variant (x.en.py), and a page block showing a snippet,
    # change where the snippet does
    ours = _seen_here()
    changed = {re.sub(r"\.\w+(\.py)$", r"\1", n.split(" on ")[0]) for n, digest in result["seen"].items()
               if ours.get(n) != digest}
    assert changed <= VARIES | VARIES_LABS, \
        f"what a reader sees changes with the CPU kernels or threads but is not listed: {sorted(changed - VARIES - VARIES_LABS)}"


_SEEN: dict[str, str] = {}


def _seen_here() -> dict[str, str]:
    if not _SEEN:
        _SEEN.update(seen())
    return _SEEN
