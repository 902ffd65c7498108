"""Special contents, Resolution tokens (config `resolution_tokens=True`): scenario tests quoting the rulebook.

"Resolution Tokens (4 tokens). These special tokens may be purchased like any other token for 10 resources each.
A player may roll them in combat. A successful result allows the player to fix the result of one other rolled cube
or token, making it successful as well."
Roll results are set by hand after the throw: rollres = [pos cubes, neg cubes, pos bullets, neg bullets, pos
tokens x6, neg tokens x6] (token order: four-leaf, heart, adrenaline, book, shield, explosive).
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_BUY, PH_RESULT, PH_SPEND, VirusLabGame
from vl_helpers import at, creatures, decide, empty_state, four, play_random, put

SHIELD = 4


def _fight(n=1):
    s = empty_state(n, resolution_tokens=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    s.resol[0] += 2
    s.resol_pool -= 2
    s._mask = None
    return s, c


def name(s, text):
    return s.g.actions.parse(text)


def test_four_in_the_box_bought_for_ten_resources():
    s = empty_state(1, resolution_tokens=True)
    assert s.resol_pool == 4
    buy = name(s, "buy resolution token")
    decide(s, PH_BUY, 0)
    s.res[0] = 20
    s.apply_action(buy)
    assert s.resol == [1] and s.resol_pool == 3 and s.res[0] == 10
    base = VirusLabGame(num_players=1).new_initial_state(seed=0)
    assert base.resol_pool == 0 and base.g.num_actions == 1136, "off by default"


def test_a_positive_token_fixes_one_other_element():
    """1 positive Action cube, 1 negative; 2 positive bullets; 1 positive Resolution token: it turns the negative
    Action cube positive, so Successes = 2 bullets x 2 cubes = 4 (without it 2 x 1 = 2)."""
    s, c = _fight()
    s.apply_action(A.ATTACK)
    add = name(s, "roll: add resolution token")
    assert s.legal_action_mask()[add]
    s.apply_action(add)
    assert s.resol == [1] and s.resol_roll[0] == 1
    s.apply_action(A.ADD_CUBE)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT
    s.rollres = [1, 1, 2, 0] + [0] * 12
    s.resol_roll = [1, 1, 1]
    s._mask = None
    m = s.legal_action_mask()
    fix_cube, fix_bullet = name(s, "resolution: action cube positive"), name(s, "resolution: bullet positive")
    assert m[fix_cube] and not m[fix_bullet], "only a negative element can be fixed"
    s.apply_action(fix_cube)
    assert s.rollres[:2] == [2, 0] and s.resol_roll[2] == 0
    assert not s.legal_action_mask()[fix_cube], "one fix per positive token"
    s.apply_action(A.ACCEPT)
    assert s.succ == 4 and s.ph == PH_SPEND
    assert s.resol == [1] and s.resol_pool == 3, "rolled tokens go back to the reserve (no positive Shield)"


def test_a_negative_token_fixes_nothing():
    s, c = _fight()
    s.apply_action(A.ATTACK)
    s.apply_action(name(s, "roll: add resolution token"))
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    s.rollres = [0, 1, 1, 0] + [0] * 12
    s.resol_roll = [1, 0, 0]
    s._mask = None
    assert not s.legal_action_mask()[name(s, "resolution: action cube positive")]


def test_a_positive_shield_recovers_the_resolution_tokens():
    """ "A positive Shield token allows the player to recover all tokens rolled to his stock": Resolution tokens
    included."""
    s, c = _fight()
    s.tok[0][SHIELD] += 1
    s.tok_pool[SHIELD] -= 1
    s.apply_action(A.ATTACK)
    s.apply_action(name(s, "roll: add resolution token"))
    s.apply_action(A.ADD_TOKEN + SHIELD)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    rr = [1, 0, 1, 0] + [0] * 12
    rr[4 + SHIELD] = 1
    s.rollres = rr
    s.resol_roll = [1, 1, 1]
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.resol == [2] and s.resol_pool == 2


def test_a_dead_hero_returns_without_them():
    s = empty_state(2, resolution_tokens=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 1, c)
    s.resol[0], s.resol_pool = 3, 1
    s.alive[0] = False
    s._respawn(0, 1)
    assert s.resol == [0, 0] and s.resol_pool == 4


def test_sizes():
    g = VirusLabGame(num_players=2, resolution_tokens=True)
    assert g.num_actions == 1136 + 10 and g.observation_shape == (8293 + 8,)
    assert g.actions.name(1136) == "buy resolution token" and g.actions.name(1145) == "resolution: explosive positive"


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, resolution_tokens=True)
    for seed in range(3):
        play_random(g, seed, check=True)
