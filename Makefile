# Every target sets up .venv itself: on a fresh machine only python3 is needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium

.PHONY: demo test test-long lint bench docs clean browser

# the C sources of every game package and the shared headers: found, not listed
NATIVE := $(wildcard boardproof/models/*/native/*.c boardproof/models/*/native/*.h \
		boardproof/solvers/native/*.h boardproof/solvers/sat/*.c)

$(STAMP): pyproject.toml setup.py $(NATIVE)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# setuptools' "Editable installation" note (a warning about the flat layout, which
	# every editable install of this project prints) is silenced; other warnings show
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install --quiet -e '.[test,cluster,docs]'
	touch $(STAMP)

demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH bash scripts/demo.sh

# the browser tests drive Debian's chromium (Playwright comes from pip with the test
# extras; no browser is ever downloaded): install the Debian package when it is missing
browser:
	@test -x $(CHROMIUM) || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

test: $(STAMP) browser
	$(BIN)/ruff check boardproof tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mkdocs build --strict --quiet
	$(BIN)/pytest -q

test-long: $(STAMP) browser
	$(BIN)/pytest -q -m long

# the documentation (docs/ and the API reference from the docstrings) into site-docs/
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) build *.egg-info site-docs
