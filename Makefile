# Two commands do everything on a fresh machine: `make report` and `make test`.
# Both create .venv first; `make report` (and check, serve) installs the pinned runtime
# requirements (requirements.txt), `make test` and `make bench` the development tools as well
# (requirements-dev.txt): each once, again when its file changes (one stamp file each).
# `make report` gives a fresh report of AGENT as it is now, every time: the previous report in
# reports/ is kept in reports/previous/DATE_TIME/ (report --keep-previous). A run stopped with
# Ctrl-C goes on with `make report RESUME=1` (report --resume: only the missing games are played).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
AGENT ?= AB.py
GAMES ?= 50
COLOUR ?= white
PORT ?= 8000
RESUME ?=
FRESH := $(if $(RESUME),--resume,--keep-previous)

.PHONY: report test test-fast typecheck bench check serve clean distclean train

$(RUNTIME): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(RUNTIME)

$(DEV): $(RUNTIME) requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(DEV)

# train-nnue's PyTorch (CPU), only for training nnue's network (docs/advanced.md); the tests that
# need it are skipped without it
train: $(DEV) requirements-train.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-train.txt

# Ctrl-C's hint names the make command that resumes (harness/commands/common.py, runs_in)
report: $(RUNTIME)
	MINICHESS_RESUME_HINT='make report RESUME=1 AGENT="$(AGENT)" GAMES=$(GAMES) COLOUR=$(COLOUR)' \
	$(PY) -m harness report "$(AGENT)" --games $(GAMES) --colour $(COLOUR) $(FRESH)

# test: lint, types (harness/core and harness/variants; configuration in pyproject.toml), the whole
# suite. test-fast: lint and the tests that start no browser, compiler or engine and are not slow
# (the markers are given in tests/conftest.py; docs/development.md has the figures).
FAST := not browser and not compiler and not engine and not slow

test: $(DEV)
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest

test-fast: $(DEV)
	$(PY) -m ruff check .
	$(PY) -m pytest -m "$(FAST)"

typecheck: $(DEV)
	$(PY) -m mypy

check: $(RUNTIME)
	$(PY) -m harness check "$(AGENT)"

serve: $(RUNTIME)
	$(PY) -m harness serve --agent "$(AGENT)" --port $(PORT)

bench: $(DEV)
	$(PY) bench/perft.py
	$(PY) bench/agents.py
	$(PY) bench/ab_strength.py
	$(PY) bench/ab_vs_opponent.py
	$(PY) bench/ab_hard_positions.py
	$(PY) bench/congo.py
	$(PY) bench/grade.py

# clean: the reports and caches (the environment stays); distclean: the environment too
clean:
	rm -rf reports .pytest_cache build *.egg-info

distclean: clean
	rm -rf $(VENV)
