"""The handbook's build, as MkDocs plugins (``handbook/editions``, ``handbook/snippets`` … in
mkdocs.yml's ``plugins``: ``handbook/plugins/__init__.py`` says what each does).

Pages show a snippet with one call in a ``markdown-exec`` block::

    ```python exec="on"
    import handbook
    ex = handbook.run("causal/weights.py")
    print(ex.example(ex.matrix("weights", rows="{}번 줄", cols="{}번 칸")))
    ```

Modules: ``snippets`` (running them), ``apart`` (the build's snippet process) and ``capture``
(what a snippet writes, warns and logs); ``render`` (tables, figures, code as Markdown) and
``values`` (a value as a page shows it); ``claims`` (a page's claims and how they are checked,
through claimcheck's forms, quotes of library source among them) and ``prose`` (a page's claims
and bare numbers); ``mathml`` (TeX);
``labs`` (a lab source as each edition's notebook and page), ``runs`` (running a lab, its reuse
key) and ``kernels`` (warm kernels); ``editions`` (languages) and ``catalogue`` (a language's
words for the snippets); ``links`` (the built site's links);
and the plugins: ``plugins/`` (one module a seam), and ``shared`` (what every edition's plugins
share in one process).
"""

from __future__ import annotations

from typing import Any

_build: Any = None  # the handbook/snippets plugin building a page in this process, for the pages' `run`


def _activate(plugin: Any) -> None:
    global _build
    _build = plugin


def run(name: str) -> Any:
    """``snippets/<name>`` as the page being built shows it (``render.Example``)."""
    if _build is None:
        raise RuntimeError("handbook.run shows snippets while the handbook/snippets plugin builds the site")
    return _build.show(name)
