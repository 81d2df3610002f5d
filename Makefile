# Every target sets itself up: a .venv with the project installed (editable) from pyproject.toml.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8866
CHROMIUM := /usr/bin/chromium

.PHONY: serve test lab book bench bench-web fuzz chromium nodejs pyodide test-pyodide unit nbval browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Runtime only (serve, lab).
$(VENV)/.stamp-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# Runtime + test + book extras.
$(VENV)/.stamp-all: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,book]'
	touch $@ $(VENV)/.stamp-run

chromium:
	@test -x $(CHROMIUM) || { echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update && apt-get install -y chromium; }

# Node.js and npm: Pyodide (Python in WebAssembly) runs under Node.js for the tests, and npm
# fetches it and the static book's JavaScript.
nodejs:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "Installing Debian's nodejs and npm"; apt-get update && apt-get install -y nodejs npm; }

# npm's pyodide and local wheels of the engine and its pure dependencies, in _build/pyodide
# (fetched once per version, kept; our own wheel rebuilt when a source file changes).
pyodide: $(VENV)/.stamp-all nodejs
	$(BIN)/python -m rulebook.wasm build

# The engine's whole test suite (tests/rulescore) inside Pyodide under Node.js, from local
# files only, in a network namespace of its own. `make test` runs it too (tests/pyodide).
test-pyodide: pyodide
	$(BIN)/python -m rulebook.wasm test

serve: $(VENV)/.stamp-run
	$(BIN)/rulebook serve --host $(HOST) --port $(PORT)

lab: $(VENV)/.stamp-run
	$(BIN)/jupyter lab --notebook-dir=book --ip=$(HOST) --port=$(PORT) --no-browser

test: $(VENV)/.stamp-all chromium pyodide
	$(BIN)/python -m pytest -q
	$(BIN)/python -m pytest -q --nbval-lax --nbval-current-env -p no:cacheprovider book

# Quick feedback: no browser, and not the engine suite inside Pyodide (`make test-pyodide`).
unit: $(VENV)/.stamp-all
	$(BIN)/python -m pytest -q -m "not browser" --ignore=tests/pyodide

book: $(VENV)/.stamp-all
	$(BIN)/rulebook build

bench: $(VENV)/.stamp-all chromium
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/web/run_web.py
	$(BIN)/python benchmarks/web/table_loop.py

# Web only: round trip, time to interactive, kernel memory, 20 readers on loopback (6-8 min).
bench-web: $(VENV)/.stamp-all chromium
	$(BIN)/python benchmarks/web/run_web.py

# Hostile input, deep: 2,500 random dice expressions (each answered or refused within 1 s) and
# 1,000 hostile calls of every public engine function; both print their counts and fail on a missed goal.
fuzz: $(VENV)/.stamp-all
	$(BIN)/python benchmarks/fuzz_dice.py --n 2500
	$(BIN)/python benchmarks/fuzz_engine.py --examples 1000

clean:
	rm -rf _build .pytest_cache .hypothesis
