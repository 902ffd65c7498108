"""tools/mutate.py (make mutate): its names for mutmut's mutants, and the copy it hands to mutmut."""
import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import mutate  # noqa: E402

SOURCE = '''"""A module."""
from functools import lru_cache


def listed(x):
    return x + 1


def other(x):  # a comment
    return x - 1


@lru_cache(maxsize=8)
def cached(x):
    return 2 * x


class Rules:
    def score(self, p):
        return p

    def mask(
        self, p
    ) -> int:
        return -p
'''
PATTERNS = ["g/rules.py::listed", "g/rules.py::cached", "g/rules.py::Rules.score"]


@pytest.mark.parametrize("pattern, mutant", [
    ("roll_write/game.py::RollWriteState.score_of", "virus_envs.roll_write.game.xǁRollWriteStateǁscore_of__mutmut_3"),
    ("virus_co/payment.py::legal_ways", "virus_envs.virus_co.payment.x_legal_ways__mutmut_12"),
    ("core/validate.py::check_int", "virus_envs.core.validate.x_check_int__mutmut_1"),
])
def test_pattern_and_mutant_names_correspond(pattern, mutant):
    assert mutate.fnmatch.fnmatchcase(mutant, mutate.mutmut_glob(pattern))
    assert mutate.readable(mutant) == pattern


def test_a_function_pattern_never_matches_a_method():
    assert mutate.name_matches("legal_ways", "*") and not mutate.name_matches("Rules.score", "*")
    assert mutate.name_matches("Rules.score", "*.*") and mutate.name_matches("Rules.score", "Rules.s*")
    assert not mutate.fnmatch.fnmatchcase("virus_envs.g.m.xǁCǁf__mutmut_1", mutate.mutmut_glob("g/m.py::*"))


def test_the_copy_pins_every_other_function_and_keeps_the_line_numbers():
    out = mutate.pin_other_functions(SOURCE, "g/rules.py", PATTERNS)
    before, after = SOURCE.splitlines(), out.splitlines()
    assert len(after) == len(before)
    changed = {before[i]: after[i] for i in range(len(before)) if before[i] != after[i]}
    assert changed == {
        "def other(x):  # a comment": "def other(x):  # pragma: no mutate block  # a comment",
        "@lru_cache(maxsize=8)": "# lru_cache(maxsize=8): removed for mutation testing",
        "    ) -> int:": "    ) -> int:  # pragma: no mutate block",
    }
    tree = ast.parse(out)
    assert [f.name for f in tree.body if isinstance(f, ast.FunctionDef) and f.decorator_list] == []


def test_every_listed_function_exists_in_the_rules():
    """A pattern of tools/mutation_targets.yaml that names no function is a typo or a rename, unless it
    names a `_validate_dict` not written yet (issue 12): the report says which."""
    for game in ("roll_write", "virus_cards", "virus_co", "virus_lab", "core"):
        t, _ = mutate.load_targets(game)
        missing = [p for p in t["functions"] if not mutate.functions_matching(p)]
        assert all(p.endswith("._validate_dict") for p in missing), (game, missing)


# -- sampled runs (`make mutate GAME=... SAMPLE=N SEED=S`) ------------------------------------------------------
def test_a_sample_is_uniform_without_replacement_and_reproducible():
    population = [f"virus_envs.g.rules.x_f__mutmut_{i}" for i in range(1, 201)]
    a = mutate.draw_sample(population, 30, seed=7)
    assert len(a) == len(set(a)) == 30 and set(a) <= set(population)
    assert a == mutate.draw_sample(list(reversed(population)), 30, seed=7)      # the order given does not matter
    assert a != mutate.draw_sample(population, 30, seed=8)
    assert mutate.draw_sample(population, 500, seed=7) == population               # more than there are: all
    # uniform: over many seeds every mutant is drawn about 30/200 of the time
    counts = dict.fromkeys(population, 0)
    for seed in range(400):
        for m in mutate.draw_sample(population, 30, seed):
            counts[m] += 1
    assert min(counts.values()) > 0.5 * 400 * 30 / 200 and max(counts.values()) < 1.5 * 400 * 30 / 200


@pytest.mark.parametrize("k,n", [(0, 10), (10, 10), (57, 60), (1, 3), (45, 50)])
def test_the_sample_interval_is_wilsons(k, n):
    """An independent oracle: statsmodels' Wilson interval (the tool avoids the dependency)."""
    from statsmodels.stats.proportion import proportion_confint
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert mutate.wilson_interval(k, n) == pytest.approx((lo, hi), abs=1e-6)


def test_a_sampled_report_counts_only_the_sample(monkeypatch, capsys):
    names = [f"virus_envs.g.rules.x_listed__mutmut_{i}" for i in range(1, 11)]
    status = {m: ("survived" if i < 2 else "killed") for i, m in enumerate(names)}
    monkeypatch.setattr(mutate, "results", lambda game: status)
    t = {"functions": ["g/rules.py::listed"], "tests": ["tests/g"], "equivalent": []}
    out = mutate.report("g", t, only=names[:4], seed=3)
    assert (out["killed"], out["total"]) == (2, 4)
    assert out["sample"]["population"] == 10 and out["sample"]["seed"] == 3
    assert out["sample"]["ci95"] == pytest.approx(list(mutate.wilson_interval(2, 4)))
    printed = capsys.readouterr().out
    assert "a uniform random sample of 4 mutants (seed 3) of the 10 generated" in printed
    # a listed function whose mutants the sample did not draw is not reported as having none
    status.update({f"virus_envs.g.rules.x_other__mutmut_{i}": "killed" for i in (1, 2)})
    t["functions"].append("g/rules.py::other")
    out = mutate.report("g", t, only=names[:4], seed=3)
    assert out["unmatched"] == [] and "no mutants" not in capsys.readouterr().out


def test_every_run_measures_which_tests_reach_which_function_afresh(monkeypatch, tmp_path):
    """mutmut re-measures its map of tests by function only around changed code: a map kept from an older run
    missed the tests of the board game's ranking after it moved to labs.py, and its mutants 'survived' them."""
    monkeypatch.setattr(mutate, "project_dir", lambda game: tmp_path / game)
    stale = tmp_path / "virus_lab" / "mutants" / "mutmut-stats.json"
    stale.parent.mkdir(parents=True)
    stale.write_text('{"tests_by_mangled_function_name": {}}')
    t, skip = mutate.load_targets("virus_lab")
    mutate.prepare("virus_lab", t, skip)
    assert not stale.exists()
    assert (tmp_path / "virus_lab" / "pyproject.toml").exists()
