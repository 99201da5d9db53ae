# The two set-up commands (README): `make quickstart` and `make test`.
# torch is pinned to the CPU build (2.13.0) so no multi-GB CUDA wheel is pulled; GPU users see
# README "GPU install". Everything else installs through constraints.txt (the exact versions the
# suite passed with; `make constraints` regenerates it), so CI (.ci/run -> make test) gets those.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup quickstart test test-fast lint bench docs constraints

$(BIN)/wikicheck: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@

setup: $(BIN)/wikicheck

quickstart: setup
	HF_HUB_OFFLINE=1 $(BIN)/wikicheck quickstart

# The official FEVEROUS package for the conformance test: its 2021 pins clash with ours, so it
# goes into its own folder (tests/test_feverous_official.py puts it at the end of sys.path).
FEVEROUS_DIR := .cache/feverous-0.54

$(FEVEROUS_DIR)/feverous: | setup
	$(BIN)/pip install -q --no-deps --target $(FEVEROUS_DIR) feverous==0.54
	$(BIN)/pip install -q --target $(FEVEROUS_DIR) jsonlines clean-text tqdm

test: setup $(FEVEROUS_DIR)/feverous
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -p no:cacheprovider -rs

# The development loop: the suite without the tests marked slow (models loaded, larger indexes,
# recipes re-run, property-based API runs): about 56 s of CPU, so about a minute on 2 idle cores
# (measured: 888 tests; the full suite is ~20 min). `make test` stays the full suite.
test-fast: setup
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow"

# constraints.txt from the venv the suite passed in: every distribution pyproject.toml's
# dependencies and test extra pull in, at its installed version (.ci/constraints.py).
constraints:
	$(BIN)/python .ci/constraints.py > constraints.txt

# lint-imports: the layers contract in .importlinter (docs/architecture.md §2); tests/test_layers.py runs it too.
lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports --no-cache

# The generated parts of the docs: the README's figures table (from recipes/*.toml [expected] and
# bench/results.toml) and docs/reference/commands.md (from every command's --help).
docs: setup
	$(BIN)/python bench/figures.py --write
	HF_HUB_OFFLINE=1 $(BIN)/python docs/generate.py
