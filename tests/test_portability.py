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
from project import ROOT, RUNNER

CAPABILITIES = ["default", "avx2"]
# Snippets whose output (printed text or figures) differs between capabilities or thread counts on
# the machines measured (AVX-512, and under avx2 and default): rounding in the last printed digits. Every claim
# about them is checked under each capability below.
VARIES = {
    "adding/fused.py", "causal/unequal.py", "decoding/kv_cache.py", "padding/encoder.py", "pitfalls/sum_check.py", "scaling/sweep.py", "softmax/range.py",
    "softmax/temperature.py", "together/empty_rows.py", "together/multihead.py",
    "online/attention.py", "online/figure.py", "online/guard.py", "online/merge.py",
}

# One process per capability runs every snippet once: the digest of what each shows, and every
# claim of the chapters and labs (test_claims reads them) checked against those runs.
PROBE = """
import json, sys
sys.path.insert(0, "tests")
from project import RUNNER, runner_for
from test_claims import CLAIMS
from test_portability import _digest
seen = {name: _digest(name) for name in RUNNER.all()}
problems = [str(p) for p in (claim.check(runner_for(claim.file)) for claim in CLAIMS) if p]
print(json.dumps({"seen": seen, "claims": len(CLAIMS), "problems": problems}))
"""


def _digest(name: str) -> str:
    run = RUNNER.run(name)
    return hashlib.sha256((run.stdout + "".join(run.figures)).encode()).hexdigest()


@pytest.mark.kernels
@pytest.mark.parametrize("capability", CAPABILITIES)
def test_claims_hold_and_what_changes_is_listed_under_other_cpu_kernels(capability):
    env = {**os.environ, "ATEN_CPU_CAPABILITY": capability, "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result["claims"] > 500 and not result["problems"], "\n".join(result["problems"])
    # against this process; an edition's variant (x.en.py) changes where its snippet does
    changed = {re.sub(r"\.\w+(\.py)$", r"\1", n) for n, digest in result["seen"].items() if _digest(n) != digest}
    assert changed <= VARIES, f"output changes with the CPU kernels or threads but is not listed: {sorted(changed - VARIES)}"
