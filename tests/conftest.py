"""Shared test setup: the build glue (tools/glue.py) is imported exactly as the pages import it."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
