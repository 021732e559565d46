# Every target sets up .venv itself: on a fresh machine only python3 is needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-long lint bench clean

$(STAMP): pyproject.toml setup.py boardproof/solvers/native/minefield.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	touch $(STAMP)

demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH bash scripts/demo.sh

test: $(STAMP)
	$(BIN)/ruff check boardproof tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q

test-long: $(STAMP)
	$(BIN)/pytest -q -m long

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) build *.egg-info
