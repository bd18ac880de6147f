# Quick start: `make run` (the app on the default model) and `make test` (the whole suite).
# Both create .venv if missing and install the project into it. The first install
# compiles llama.cpp for this machine (about 8 minutes on 2 cores; never with AVX-512
# or AMX, which VMs advertise but may not run) and caches the wheel; a canary then
# runs a tiny model in a subprocess and rebuilds once, conservatively, if it crashes.
# Your own CMAKE_ARGS (GPU flags) are kept: see packaging/llama_build.py.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install bench clean rebuild-llama

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml packaging/llama_build.py
	$(BIN)/python packaging/llama_build.py install
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python packaging/llama_build.py canary
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/assistant

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/runtime.py

rebuild-llama: $(BIN)/python
	$(BIN)/python packaging/llama_build.py install --conservative
	$(BIN)/python packaging/llama_build.py canary

clean:
	rm -rf $(VENV) build dist *.egg-info
