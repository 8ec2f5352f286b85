# Two commands do everything on a fresh machine: `make report` and `make test`.
# Both create .venv and install the pinned requirements first (once; again when they change).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
AGENT ?= AB.py
GAMES ?= 50
COLOUR ?= white
PORT ?= 8000

.PHONY: report test bench check serve clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

report: $(STAMP)
	$(PY) -m harness report "$(AGENT)" --games $(GAMES) --colour $(COLOUR)

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

clean:
	rm -rf $(VENV) reports .pytest_cache
