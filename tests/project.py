"""What the tests share: the project's folders, and one runner of the snippets per test process (each
snippet runs once, however many tests read its names)."""

from pathlib import Path

from handbook.snippets import Run, Runner

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
RUNNER = Runner(SNIPPETS)


def run(name: str) -> Run:
    return RUNNER.run(name)
