"""The claims hold whichever CPU kernels torch picks, and what a reader sees that changes between
them is listed here, with the claims about it stated as bounds or ranges.

torch chooses its float32 kernels by the CPU's capability (``ATEN_CPU_CAPABILITY``: default, avx2,
avx512); their rounding differs in the last bits. Each test runs the snippets in a new process
under one capability (the machine's own is the rest of the suite)."""

import json
import os
import subprocess
import sys

import pytest
from project import ROOT

CAPABILITIES = ["default", "avx2"]
# Snippets whose output (printed text or figures) differs between capabilities on the machines
# measured (AVX-512, and under avx2 and default): rounding in the last printed digits. Every claim
# about them is checked under each capability below.
VARIES = {
    "adding/fused.py", "causal/unequal.py", "decoding/kv_cache.py", "padding/encoder.py", "pitfalls/sum_check.py", "scaling/sweep.py", "softmax/range.py",
    "softmax/temperature.py", "together/empty_rows.py", "together/multihead.py",
    "online/attention.py", "online/figure.py", "online/guard.py", "online/merge.py",
}

SEEN = """
import hashlib, json
from pathlib import Path
from handbook.snippets import Runner
runner = Runner(Path("snippets"))
print(json.dumps({n: hashlib.sha256((r.stdout + "".join(r.figures)).encode()).hexdigest()
                  for n in runner.all() for r in [runner.run(n)]}))
"""


def _seen(capability: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ATEN_CPU_CAPABILITY"}
    if capability:
        env["ATEN_CPU_CAPABILITY"] = capability
    out = subprocess.run([sys.executable, "-c", SEEN], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_claims_hold_under_other_cpu_kernels(capability):
    env = {**os.environ, "ATEN_CPU_CAPABILITY": capability}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                             "tests/test_claims.py", "-k", "claim_holds"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]


def test_what_changes_between_cpu_kernels_is_listed():
    native = _seen(None)
    changed = {n for cap in CAPABILITIES for n, digest in _seen(cap).items() if native[n] != digest}
    assert changed <= VARIES, f"output changes with the CPU kernels but is not listed: {sorted(changed - VARIES)}"
