# The README's two commands. Each does its own set-up on a fresh clone.
# The torch pin lives here and only here: the CPU build on the machines' disk is installed
# BEFORE anything else, so no other package can pull in a multi-GB CUDA build.
TORCH_PIN := torch==2.13.0
PYTHON    ?= python3
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
JOBS      ?= 2

.PHONY: setup run test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml setup.py Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "$(TORCH_PIN)"
	$(PY) -m pip install --quiet -e ".[dev,rl,bench,openspiel]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/virus-arena run

test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) tests

bench: $(STAMP)
	$(VENV)/bin/virus-arena bench

clean:
	rm -rf $(VENV) build *.egg-info
