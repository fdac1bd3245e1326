# The ways in: `make serve`, `make test`, `make check`, `make build`. Each one first creates or updates .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch's CPU build; the default Linux wheel is a multi-GB CUDA build. The pin lives in requirements.txt.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_PIN := $(shell grep -oE '^torch==[^ ]+' requirements.txt)

export NO_MKDOCS_2_WARNING := 1

.PHONY: serve build test check audit bench chromium clean

# --dirty: an edit rebuilds only the pages it touches (a snippet edit, the pages that show it).
serve: $(BIN)/.installed
	$(BIN)/mkdocs serve --livereload --dirty

# For deployment: no lab cache, every notebook executes afresh; Chromium prints each edition's book.
build: $(BIN)/.installed chromium
	LABS_CACHE=false $(BIN)/mkdocs build --strict

# Everything, on every core: the suite, every snippet as its own process as a reader runs it, the
# headless-Chromium and Lighthouse checks, around one site build (tests/conftest.py). No test asks
# how fast anything ran, so the run needs no quiet machine: make bench and make audit time things.
test: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/pytest -n auto --dist worksteal --durations=30

# The quick tier: the plugin's unit tests, the claims and their mutants, the snippets run in the
# tests' processes, the chapters' properties. Not the site build, the builds of small copies, the
# browser, Lighthouse, each snippet as its own process, nor the runs under other CPU kernels.
# By file: the claims (one file, most of the snippets) run in one worker, so each snippet runs once
# (105 s against 133 s by test, measured on a busy two-core machine). On a quiet two-core AMD EPYC
# (AVX2): 78 s, against 108 s for a cold make build in the same session. On a two-core Xeon with
# AVX-512, which builds the site 1.85x as fast: 64-75 s against 58 s.
check: $(BIN)/.installed
	$(BIN)/pytest -n auto --dist loadfile -m "not (site or build or browser or audit or standalone or kernels)"

# Build, rebuild and test times, page weight: one table (tools/bench.py says what each line is).
bench: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/python tools/bench.py

# Lighthouse scores, page by page.
audit: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/python tools/audit.py

# torch first, from the CPU index (--retries 0: where that index is out of reach, pip's local
# wheels answer at once); then everything, pinned; then claimcheck (claimcheck/, the claim checker,
# a package of its own) and the handbook's plugins (handbook/), editable, so `mkdocs` and pytest
# find them and an edit to them needs no reinstall.
$(BIN)/.installed: requirements.txt pyproject.toml claimcheck/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --retries 0 --index-url $(TORCH_INDEX) --no-deps "$(TORCH_PIN)"
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e claimcheck -e .
	touch $@

# Lighthouse, axe-core and the Nu HTML checker, pinned in package-lock.json (Java runs the checker).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# Debian's Chromium (no browser download) and a Korean font for the page text, when missing.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
chromium:
	@command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && \
		$(SUDO) apt-get install -y -qq --no-install-recommends chromium fonts-nanum >/dev/null; }

clean:
	rm -rf $(VENV) site node_modules .cache
