# The README's two commands. Each does its own set-up on a fresh clone.
# The torch pin lives here and only here: the CPU build on the machines' disk is installed
# BEFORE anything else, so no other package can pull in a multi-GB CUDA build.
TORCH_PIN := torch==2.13.0
PYTHON    ?= python3
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
JOBS      ?= 2

.PHONY: setup run test test-ray bench mutate coverage screenshots clean

setup: $(STAMP)

$(STAMP): pyproject.toml setup.py Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "$(TORCH_PIN)"
	$(PY) -m pip install --quiet -e ".[dev,rl,tensorboard,bench,render,web,openspiel,fast]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/virus-arena run

test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) -m "not ray" tests

# The Ray backend of `virus-arena tournament` and the RLlib recipe (docs/scale.md): installs the [ray] and
# [rllib] extras (Ray about 240 MB on disk, RLlib's dependencies about 180 MB more, pyarrow most of it;
# RLlib pins gymnasium, see pyproject.toml), starts a local Ray instance, checks that it plays the pool's
# games and trains PPO for two small iterations.
test-ray: $(STAMP)
	$(PY) -m pip install --quiet -e ".[ray,rllib]"
	$(PY) -m pytest -m ray tests/core/test_tournament_ray.py tests/core/test_rllib.py

bench: $(STAMP)
	$(VENV)/bin/virus-arena bench

# Mutation testing of one game's rules (docs/testing.md): the functions listed for GAME in
# tools/mutation_targets.yaml, against that game's tests plus tests/core. Long: not part of `make test`.
mutate: $(STAMP)
	@test -n "$(GAME)" || { echo "usage: make mutate GAME=<virus_cards|roll_write|virus_co|virus_lab|core>"; exit 2; }
	$(PY) tools/mutate.py run $(GAME) --max-children $(JOBS) $(if $(SAMPLE),--sample $(SAMPLE) --seed $(or $(SEED),0))

# Line and branch coverage per package (docs/testing.md); Python subprocesses and worker processes
# are measured too (pyproject.toml, [tool.coverage.run]). `coverage html` then writes htmlcov/.
coverage: $(STAMP)
	rm -f .coverage .coverage.*
	$(PY) -m coverage run -m pytest -n $(JOBS) -q -p no:cacheprovider tests
	$(PY) -m coverage combine -q
	$(PY) tools/coverage_table.py

# the README's pictures (docs/img/): one position of each game, the full table
screenshots: $(STAMP)
	$(VENV)/bin/virus-arena snapshot --game virus_cards_v0 --players 4 --seed 3 --steps 60 -o docs/img/virus_cards.png
	$(VENV)/bin/virus-arena snapshot --game roll_write_v0 --players 2 --seed 2 --steps 40 -o docs/img/roll_write.png
	$(VENV)/bin/virus-arena snapshot --game virus_co_v0 --players 4 --seed 2 --steps 80 -o docs/img/virus_co.png
	$(VENV)/bin/virus-arena snapshot --game virus_lab_v0 --players 2 --seed 1 --steps 150 -o docs/img/virus_lab.png

clean:
	rm -rf $(VENV) build *.egg-info mutants .coverage htmlcov
