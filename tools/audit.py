"""``make audit``: Lighthouse on every page of a fresh strict build, as a phone and as a desktop sees it.

Builds the site into a temporary folder, serves it like GitHub Pages (tools/website.py) and prints
one page x category table per device. ``make test`` gates on a representative few pages only
(tests/browser/test_audit.py); this table is the whole site.
"""

import tempfile
from pathlib import Path

from website import build, lighthouse, pages, serve, table  # tools/ is on the path: the script's folder


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        site = build(Path(tmp) / "site")
        with serve(site) as base:
            for device in ("mobile", "desktop"):
                scores = lighthouse([base + page for page in pages(site)], device)
                results = {page or "/": scores[base + page] for page in pages(site)}
                print(table(results, device), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
