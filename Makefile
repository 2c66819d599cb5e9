# The README's two commands: `make run` (set up, then start the advisor) and `make test`.
# Both create .venv on first use; torch goes in first so that pip takes the CPU build
# instead of pulling several GB of CUDA packages through sentence-transformers.
# `make test` also builds llama-cpp-python (about 7 minutes on 2 cores the first time) and
# fetches the local model (1.1 GB, sha256-checked) because the tests run the real local engine.
# The UI test drives Debian's Chromium and the PostgreSQL tests start Debian's PostgreSQL server:
# `make test` installs both with apt-get when they are missing.
# After pytest, the evaluation gate: the golden set on the rules engine (exit 4 below 95% passed,
# 100% grounded, 100% citation integrity). The local engine's 12-case subset with the LLM judge
# (about 15 minutes on 2 cores) is `make eval-local`, run when the LLM path changes; pytest runs
# the real local model on its own questions and one case through the evaluation.

PYTHON ?= python3
VENV ?= .venv
TORCH ?= torch==2.13.0
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
LLM_STAMP := $(VENV)/.llm-stamp

.PHONY: run test eval-local setup llm browser postgres lint audit bench clean

run: $(STAMP)
	$(BIN)/gpu-advisor ui

test: $(STAMP) $(LLM_STAMP) browser postgres lint audit
	$(BIN)/pytest
	$(BIN)/gpu-advisor eval

eval-local: $(STAMP) $(LLM_STAMP)
	$(BIN)/gpu-advisor eval --engine local --subset --judge local

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# known vulnerabilities in the installed dependencies (PyPI's advisory data); the table of
# packages it could not look up is printed too, so a blind audit is visible as one
audit: $(STAMP)
	$(BIN)/pip-audit --skip-editable --progress-spinner off

setup: $(STAMP)

llm: $(LLM_STAMP)

# the local engine: llama-cpp-python (built from source where no wheel fits) and the model
$(LLM_STAMP): $(STAMP)
	CMAKE_ARGS="$${CMAKE_ARGS:--DGGML_NATIVE=OFF}" $(BIN)/python -m pip install --quiet -e '.[dev,llm]'
	$(BIN)/gpu-advisor llm pull
	touch $(LLM_STAMP)

# headless Chromium for the browser test (Playwright drives it; it never downloads a browser)
browser:
	@command -v chromium >/dev/null || { \
	  [ "$$(id -u)" = 0 ] || { echo "Install Debian's chromium (apt-get install chromium), or run as root"; exit 1; }; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# Debian's PostgreSQL server for the conversation-store tests (each test run starts its own
# cluster with initdb/pg_ctl on a loopback port, as the postgres user when run as root)
postgres:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  [ "$$(id -u)" = 0 ] || { echo "Install Debian's postgresql (apt-get install postgresql), or run as root"; exit 1; }; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

bench: $(STAMP)
	$(BIN)/python eval/bench_catalog.py

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$(TORCH)"
	$(BIN)/python -m pip install --quiet -e '.[dev,ui,serve,slack,mcp,postgres]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build *.egg-info
