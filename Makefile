# Tripwright: `make run` sets up and launches the app; `make test` sets up and runs every test.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
export QT_QPA_PLATFORM ?= offscreen
export QTWEBENGINE_DISABLE_SANDBOX ?= 1

.PHONY: install run test bench eval clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	# an editable install leaves the sources uncompiled; with PYTHONDONTWRITEBYTECODE set every
	# process would recompile them (~0.1 s of a CLI run), so the bytecode is written once here
	$(BIN)/python -m compileall -q engine app widgets >/dev/null
	touch $@

install: $(BIN)/.installed

# The system libraries Qt's window needs are checked first: a missing one is named with the exact
# install command (Qt's own abort names the wrong library).
run: install
	QT_QPA_PLATFORM= $(BIN)/python -m app.desktop_libs
	QT_QPA_PLATFORM= $(BIN)/tripwright

# The whole suite as CI runs it (.ci/run calls this): throwaway PostgreSQL servers started and
# stopped around pytest (.ci/test.sh), the test files spread over the cores (pytest-xdist, a file
# per worker: some modules' tests share a module fixture and run in order, as a traveller would,
# and a module fixture is built once). TEST_JOBS=0 runs them in one process; PYTEST_ARGS adds
# pytest options (e.g. PYTEST_ARGS=-v names each test as it ends).
TEST_JOBS ?= auto
PYTEST_ARGS ?=
test: install
	TW_PYTHON=$(BIN)/python bash .ci/test.sh $(BIN)/pytest -q -n $(TEST_JOBS) --dist loadfile $(PYTEST_ARGS)

bench: install
	$(BIN)/tripwright bench

eval: install
	$(BIN)/tripwright eval

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
