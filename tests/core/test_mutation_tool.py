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
