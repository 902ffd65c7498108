"""Special contents, Smoke bombs (config `smoke_bombs=True`): scenario tests quoting the rulebook.

"Smoke bombs (4 tokens). These special tokens may be purchased like any other token, for 10 resources each. A
player may use them when his Hero is in the same room as any Creatures. If used, no combat may take place in that
room during this turn and the player may flee without taking any penalties. Smoke bombs also prevent player vs
player combat and ranged combat. At turn end the Smoke bomb must removed and placed on game reserve."
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_SHIELD
from virus_envs.virus_lab.game import PH_ACT, PH_BUY, PH_SHIELD, Q_DEEP, VirusLabGame
from vl_helpers import at, check_invariants, corridor, creatures, decide, empty_state, four, play_random, put

N_, E_, S_, W_ = range(4)


def _smoke(**cfg):
    s = empty_state(1, smoke_bombs=True, **cfg)
    return s, s.g.actions.parse("buy smoke bomb"), s.g.actions.parse("use smoke bomb")


def _give(s, p, k=1):
    s.smoke[p] += k
    s.smoke_pool -= k
    s._mask = None


def test_four_in_the_box_bought_for_ten_resources():
    """ "Smoke bombs (4 tokens) ... may be purchased like any other token, for 10 resources each." """
    s, buy, _ = _smoke()
    assert s.smoke_pool == 4 and s.smoke == [0]
    decide(s, PH_BUY, 0)
    s.res[0] = 25
    assert s.legal_action_mask()[buy]
    s.apply_action(buy)
    assert s.smoke == [1] and s.smoke_pool == 3 and s.res[0] == 15
    s.apply_action(buy)
    assert s.res[0] == 5
    assert s.ph != PH_BUY or not s.legal_action_mask()[buy], "5 resources do not buy a third"
    base = VirusLabGame(num_players=1).new_initial_state(seed=0)
    assert base.smoke_pool == 0 and base.g.num_actions == 1136, "off by default: no Smoke bomb, no action"


def test_used_only_with_creatures_in_the_room():
    """ "A player may use them when his Hero is in the same room as any Creatures." """
    s, _, use = _smoke()
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    _give(s, 0)
    assert not s.legal_action_mask()[use]
    creatures(s, c, zombie=1)
    assert s.legal_action_mask()[use]


def test_no_combat_and_a_free_flight():
    """ "If used, no combat may take place in that room during this turn and the player may flee without taking
    any penalties": no attack, and leaving costs neither the Creatures' attacks nor the 1 Damage point."""
    s, _, use = _smoke()
    a, b = put(s, 1, 5, four(s.g)), put(s, 1, 4, four(s.g))
    at(s, 0, a)
    creatures(s, a, blooder=2)
    _give(s, 0)
    s.tok[0][TK_SHIELD] += 1
    s.tok_pool[TK_SHIELD] -= 1
    assert s.legal_action_mask()[A.ATTACK]
    s.apply_action(use)
    assert s.smoked == [a] and s.smoke == [0]
    assert not s.legal_action_mask()[A.ATTACK], "no combat in the smoked room"
    s.apply_action(A.MOVE + W_)
    assert s.pos[0] == b and s.ph == PH_ACT and s.wounds[0] == [], "fled without penalty"


def test_without_smoke_the_flight_costs():
    """The same flight without the Smoke bomb: two Blooders attack (2 + 2) and the 1 Damage point penalty."""
    s, _, _ = _smoke()
    a, b = put(s, 1, 5, four(s.g)), put(s, 1, 4, four(s.g))
    at(s, 0, a)
    creatures(s, a, blooder=2)
    s.tok[0][TK_SHIELD] += 1
    s.tok_pool[TK_SHIELD] -= 1
    s.apply_action(A.MOVE + W_)
    assert s.ph == PH_SHIELD and s.dmg == [0, 4, 1, 1]


def _smoke_then_pass(**cfg):
    """A Hero with a Shield beside a Zombie uses a Smoke bomb, then passes: the phase ends."""
    s, _, use = _smoke(**cfg)
    a = put(s, 1, 5, four(s.g))
    at(s, 0, a)
    creatures(s, a, zombie=1)
    _give(s, 0)
    s.tok[0][TK_SHIELD] += 1
    s.tok_pool[TK_SHIELD] -= 1
    s.apply_action(use)
    s.apply_action(A.PASS)
    return s


def test_no_counter_attack_at_the_end_of_the_phase():
    """ "at least 1 Creature counter-attack must be done for each turn also if the player doesn't attack" does not
    apply in a smoked room: "no combat may take place in that room during this turn"."""
    s = _smoke_then_pass()
    assert s.ph != PH_SHIELD and s.wounds[0] == []


def test_no_final_attack_in_a_smoked_room():
    s = _smoke_then_pass(final_attack=True)
    assert s.ph != PH_SHIELD and s.wounds[0] == []


def test_no_ranged_attack_into_a_smoked_room():
    """ "Smoke bombs also prevent ... ranged combat." """
    s = empty_state(2, smoke_bombs=True, advanced_combat="ranged")
    rooms = corridor(s, 2, range(1, 10))
    at(s, 0, rooms[2])
    at(s, 1, rooms[4])
    creatures(s, rooms[4], zombie=1)
    shot = s.g.actions.parse("ranged attack E distance 2")
    assert s.legal_action_mask()[shot]
    s.smoke[1], s.smoke_pool = 1, 3
    s.cur = 1
    s._mask = None
    s.apply_action(s.g.actions.parse("use smoke bomb"))
    s.cur = 0
    s._mask = None
    assert not s.legal_action_mask()[shot]


def test_back_to_the_reserve_at_turn_end():
    """ "At turn end the Smoke bomb must removed and placed on game reserve." """
    s, _, use = _smoke()
    a = put(s, 1, 5, four(s.g))
    at(s, 0, a)
    creatures(s, a, zombie=1)
    _give(s, 0, 2)
    s.apply_action(use)
    assert s.smoke_pool == 2 and s.smoked == [a]
    s.queue, s.ph = [[Q_DEEP]], 0
    s._advance()
    assert s.smoked == [] and s.smoke_pool == 3 and s.smoke == [1]


def test_a_dead_hero_returns_without_his_smoke_bombs():
    """Death: "Reset the player's tokens, rooms and cubes as they were at setup": his Smoke bombs (tokens) go back to
    the reserve."""
    s = empty_state(2, smoke_bombs=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 1, c)
    _give(s, 0, 2)
    s.alive[0] = False
    s._respawn(0, 1)
    assert s.smoke == [0, 0] and s.smoke_pool == 4 and s.pos[0] == c


def test_sizes():
    """Two actions appended (1,138 ids); the observation gains the `advanced` block: 99 smoked flags, 4 stocks and
    the reserve (8,293 + 104 = 8,397 floats on the 9 x 11 table)."""
    g = VirusLabGame(num_players=2, smoke_bombs=True)
    assert g.num_actions == 1138 and g.observation_shape == (8397,)
    assert g.actions.name(1136) == "buy smoke bomb" and g.actions.name(1137) == "use smoke bomb"
    both = VirusLabGame(num_players=2, smoke_bombs=True, advanced_combat="ranged")
    assert both.num_actions == 1178 and both.observation_shape == (8293 + 100 + 104,)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, smoke_bombs=True)
    for seed in range(3):
        s, _ = play_random(g, seed, check=True)
        check_invariants(s)
