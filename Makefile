# The two set-up commands (README): `make quickstart` and `make test`.
# torch is pinned to the CPU build (2.13.0) so no multi-GB CUDA wheel is pulled; GPU users see
# README "GPU install".
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup quickstart test lint bench

$(BIN)/wikicheck: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[test]'
	touch $@

setup: $(BIN)/wikicheck

quickstart: setup
	HF_HUB_OFFLINE=1 $(BIN)/wikicheck quickstart

test: setup
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -rs -p no:cacheprovider

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check .
