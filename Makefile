# The ways in: `make serve`, `make test`, `make build`. Each one first creates or updates .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch's CPU build; the default Linux wheel is a multi-GB CUDA build. The pin lives in requirements.txt.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_PIN := $(shell grep -oE '^torch==[^ ]+' requirements.txt)

export NO_MKDOCS_2_WARNING := 1

.PHONY: serve build test audit bench chromium clean

# --dirty: an edit rebuilds only the pages it touches (a snippet edit, the pages that show it).
serve: $(BIN)/.installed
	$(BIN)/mkdocs serve --livereload --dirty

# For deployment: no lab cache, every notebook executes afresh.
build: $(BIN)/.installed
	LABS_CACHE=false $(BIN)/mkdocs build --strict

# Two groups: everything but Lighthouse on both cores (the suite, every snippet as its own
# process as a reader runs it, the headless-Chromium checks); then Lighthouse alone, one page at a
# time, so its timings see a quiet machine. Both use one site build (tests/conftest.py). The second
# collects its one file only (the whole suite's collection costs 5 s; conftest keeps `audit` there).
test: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/pytest -n auto --dist worksteal -m "not audit"
	$(BIN)/pytest -n 0 -m audit tests/test_audit.py

# Build, rebuild and test times, page weight: one table (tools/bench.py says what each line is).
bench: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/python tools/bench.py

# Lighthouse scores, page by page.
audit: $(BIN)/.installed node_modules/.installed chromium
	$(BIN)/python tools/audit.py

# torch first, from the CPU index (--retries 0: where that index is out of reach, pip's local
# wheels answer at once); then everything, pinned; then the handbook plugin (handbook/), editable,
# so `mkdocs` finds it and an edit to it needs no reinstall.
$(BIN)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --retries 0 --index-url $(TORCH_INDEX) --no-deps "$(TORCH_PIN)"
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
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
