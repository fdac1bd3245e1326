"""``claimcheck check`` and ``claimcheck update``::

    claimcheck check --scripts snippets docs/          # one line per problem; exit 1 on any
    claimcheck update --values results.json docs/a.md  # rewrite exact literals that drifted
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .check import check_text, update_text
from .sources import Scripts, SourceError, Values


def _pages(paths: list[str]) -> list[Path]:
    pages = []
    for path in map(Path, paths):
        if path.is_dir():
            pages += sorted(path.rglob("*.md"))
        elif path.is_file():
            pages.append(path)
        else:
            raise SystemExit(f"claimcheck: no such file or folder: {path}")
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="claimcheck", description="Check the numbers a page states against their sources.")
    parser.add_argument("command", choices=["check", "update"])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scripts", help="a folder of Python scripts: a claim's target names one")
    where.add_argument("--values", help="a JSON file of results: {target: {expression: value}}")
    parser.add_argument("--no-bare", action="store_true", help="allow numbers in prose that no claim covers")
    parser.add_argument("paths", nargs="+", help="Markdown pages, or folders of them")
    args = parser.parse_args(argv)
    try:
        source = Scripts(args.scripts) if args.scripts else Values(args.values)
    except SourceError as error:
        print(f"claimcheck: {error}", file=sys.stderr)
        return 2
    failed = False
    for page in _pages(args.paths):
        text = page.read_text(encoding="utf-8")
        if args.command == "check":
            results, problems = check_text(text, str(page), source, bare=not args.no_bare)
            for line in [r.problem for r in results if r.problem] + problems:
                print(line)
                failed = True
        else:
            new, changed, left = update_text(text, str(page), source)
            if new != text:
                page.write_text(new, encoding="utf-8")
            for line in changed:
                print(f"updated {line}")
            for line in left:
                print(line)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
