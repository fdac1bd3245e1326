"""What the tests share: the project's folders, and one runner of the snippets per test process (each
snippet runs once, however many tests read its names)."""

import re
from pathlib import Path

from handbook.editions import EditionRunner, read_words
from handbook.snippets import Run, Runner

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LABS = ROOT / "labs"  # one source a lab, its text in every language
SNIPPETS = ROOT / "snippets"
RUNNER = Runner(SNIPPETS)
# TeX names a reader would see raw, outside code and math: d_k is dₖ or math, d_model math, L_Q and
# L_K math. (Not \b: a Korean particle right after, as in "d_k는", is a word character to Python.)
RAW_NAMES = re.compile(r"(?<![A-Za-z0-9_])(?:d_k|d_v|d_h|d_model|L_Q|L_K)(?![A-Za-z0-9_])")
EDITIONS = {"docs": None, "docs-en": "en"}  # each edition's pages, and whose snippet variants they show
LANGS = {"": "ko", "en": "en"}  # each edition's folder in the site, and its language (a lab's text cells)
CONFIGS = {"ko": ROOT / "mkdocs.yml", "en": ROOT / "mkdocs.en.yml"}
WORDS = {lang: read_words(config) for lang, config in CONFIGS.items()}  # what the build writes, by language


def runner_for(file: str) -> EditionRunner:
    """The runner as the edition of ``file`` (``docs-en/causal.md``) sees the snippets."""
    return EditionRunner(RUNNER, EDITIONS[file.split("/")[0]])


def run(name: str) -> Run:
    return RUNNER.run(name)


class Names:
    """A snippet's names, run on first use: collecting the tests runs no snippet."""

    def __init__(self, snippet: str) -> None:
        self.snippet = snippet

    def __getitem__(self, name: str):
        return run(self.snippet).namespace[name]

    def __contains__(self, name: str) -> bool:
        return name in run(self.snippet).namespace


def function(snippet: str, name: str):
    """A function the snippet defines, looked up when first called."""

    def call(*args, **kwargs):
        return run(snippet).namespace[name](*args, **kwargs)

    call.__name__ = name
    return call


def plugins(folder: Path, command: str = "build", lang: str = "ko"):
    """The handbook's plugins as an edition's config lists them (``mkdocs.yml``, ``mkdocs.en.yml``),
    started under ``command`` and configured for a site whose pages are in ``folder``, with the
    snippets run in this process (``RUNNER``'s). For tests of one event; nothing is built."""
    from mkdocs.config import load_config

    config = load_config(str(CONFIGS[lang]), docs_dir=str(folder), site_dir=f"{folder}-site")
    config.plugins.on_startup(command=command, dirty=False)
    config = config.plugins.on_config(config)
    config.plugins["handbook/snippets"].runner = EditionRunner(RUNNER, None if lang == "ko" else lang)
    return config
