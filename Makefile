# Two commands do everything on a fresh machine: `make report` and `make test`.
# Both create .venv and install the pinned requirements first (once; again when they change).
# `make report` gives a fresh report of AGENT as it is now, every time: the previous report in
# reports/ is kept in reports/previous/DATE_TIME/ (report --keep-previous).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
AGENT ?= AB.py
GAMES ?= 50
COLOUR ?= white
PORT ?= 8000

.PHONY: report test bench check serve clean distclean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

report: $(STAMP)
	$(PY) -m harness report "$(AGENT)" --games $(GAMES) --colour $(COLOUR) --keep-previous

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest

check: $(STAMP)
	$(PY) -m harness check "$(AGENT)"

serve: $(STAMP)
	$(PY) -m harness serve --agent "$(AGENT)" --port $(PORT)

bench: $(STAMP)
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
