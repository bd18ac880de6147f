# Quick start: `make run` (the app on the default model) and `make test` (the whole suite).
# Both create .venv if missing and install the project into it. The first install
# compiles llama.cpp (about 8 minutes on 2 cores); pip caches the wheel afterwards.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/assistant

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/runtime.py

clean:
	rm -rf $(VENV) build dist *.egg-info
