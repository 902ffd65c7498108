# The README's two commands. Each does its own set-up on a fresh clone.
# The torch pin lives here and only here: the CPU build on the machines' disk is installed
# BEFORE anything else, so no other package can pull in a multi-GB CUDA build.
TORCH_PIN := torch==2.13.0
PYTHON    ?= python3
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
JOBS      ?= 2

.PHONY: setup run test bench mutate coverage clean

setup: $(STAMP)

$(STAMP): pyproject.toml setup.py Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "$(TORCH_PIN)"
	$(PY) -m pip install --quiet -e ".[dev,rl,bench]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/virus-arena run

test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) tests

bench: $(STAMP)
	$(VENV)/bin/virus-arena bench

# Mutation testing of one game's rules (docs/testing.md): the functions listed for GAME in
# tools/mutation_targets.yaml, against that game's tests plus tests/core. Long: not part of `make test`.
mutate: $(STAMP)
	@test -n "$(GAME)" || { echo "usage: make mutate GAME=<virus_cards|roll_write|virus_co|virus_lab|core>"; exit 2; }
	$(PY) tools/mutate.py run $(GAME) --max-children $(JOBS)

# Line and branch coverage per package (docs/testing.md); Python subprocesses and worker processes
# are measured too (pyproject.toml, [tool.coverage.run]). `coverage html` then writes htmlcov/.
coverage: $(STAMP)
	rm -f .coverage .coverage.*
	$(PY) -m coverage run -m pytest -n $(JOBS) -q -p no:cacheprovider tests
	$(PY) -m coverage combine -q
	$(PY) tools/coverage_table.py

clean:
	rm -rf $(VENV) build *.egg-info mutants .coverage htmlcov
