# The ways in: `make serve`, `make test`, `make build`. Each one first creates or updates .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch's CPU build; the default Linux wheel is a multi-GB CUDA build. The pin lives in requirements.txt.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_PIN := $(shell grep -oE '^torch==[^ ]+' requirements.txt)

export NO_MKDOCS_2_WARNING := 1

.PHONY: serve build test clean

serve: $(BIN)/.installed
	$(BIN)/mkdocs serve --livereload

build: $(BIN)/.installed
	$(BIN)/mkdocs build --strict

test: $(BIN)/.installed
	$(BIN)/pytest

# torch first, from the CPU index (--retries 0: where that index is out of reach, pip's local
# wheels answer at once); then everything, pinned.
$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --retries 0 --index-url $(TORCH_INDEX) --no-deps "$(TORCH_PIN)"
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

clean:
	rm -rf $(VENV) site
