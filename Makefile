# Every target sets up .venv itself: on a fresh machine only python3 is needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-long lint bench docs clean

$(STAMP): pyproject.toml setup.py boardproof/solvers/native/minefield.c \
		boardproof/solvers/native/minefield_wide.h boardproof/solvers/native/minefield_wide_impl.h
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,cluster,docs]'
	touch $(STAMP)

demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH bash scripts/demo.sh

test: $(STAMP)
	$(BIN)/ruff check boardproof tests benchmarks
	$(BIN)/mypy
	$(BIN)/mkdocs build --strict --quiet
	$(BIN)/pytest -q

test-long: $(STAMP)
	$(BIN)/pytest -q -m long

# the documentation (docs/ and the API reference from the docstrings) into site-docs/
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) build *.egg-info site-docs
