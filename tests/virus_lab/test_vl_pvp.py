"""Advanced Combat, Player vs Player (config `pvp=True`, "only for Spy mode variant"): scenario tests quoting the
rulebook's "Player vs Player" section, its worked example and the Smoke bombs' text.

Rolls are made with `p_positive` close to 1 so that every element lands positive (the seeded Generator makes it
exact); the Successes are counted by hand: positive bullets x positive Action cubes.
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_ACT, PH_RESULT, PH_SPEND, PH_WOUND, VirusLabGame
from vl_helpers import at, check_invariants, corridor, creatures, empty_state, keep_wounds

BLUE, YELLOW = 0, 1
E = 1


def _arena(n=2, **cfg):
    """A corridor of red 4-doorway rooms on row 2, columns 1..9; every Hero in (2, 3); Blue (seat 0) to act."""
    s = empty_state(n, spy=True, pvp=True, p_positive=0.9999, **cfg)
    rooms = corridor(s, 2, range(1, 10))
    for q in range(n):
        at(s, q, rooms[2])
    for q in range(n):                  # bullets enough for the example's rolls
        s.bullets[q] += 10
        s.bullet_pool -= 10
    # the heart backs at the bottom of the Wound deck: no deep wound, so the Turn End adds no wound to count
    s.wound_deck.sort(key=lambda c: -s.g.comp.wound_heart[c])
    return s, rooms


def attack(s, h):
    return s.g.actions.parse(f"attack player {h}")


def _roll(s, target, cubes, bullets):
    """Declare the attack on `target`, build the roll (the attack put 1 Action cube in it), throw and accept it."""
    s.apply_action(attack(s, target))
    for _ in range(cubes - 1):
        s.apply_action(A.ADD_CUBE)
    for _ in range(bullets):
        s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT
    s.apply_action(A.ACCEPT)


def _declare(s, damage, dodges):
    """ "Players must declare their roll results (Dodges/Damage points dealt) and register them" """
    dmg, dodge = s.g.actions.parse("pvp: damage point"), s.g.actions.parse("pvp: dodge")
    for _ in range(damage):
        s.apply_action(dmg)
    for _ in range(dodges):
        s.apply_action(dodge)
    if s.ph == PH_SPEND:
        s.apply_action(A.SPEND_DONE)
    assert s.ph == PH_ACT


def test_worked_example_blue_and_yellow():
    """ "Blue and Yellow players are in the same room. Blue declares an attack on the Yellow player and rolls first
    getting 7 Successes; he declares 2 Damage points and 1 Dodge to Yellow. Yellow player declares a counter-attack,
    rolls, and gets 4 Successes. He declares 1 Damage point and 1 Dodge. Blue then declares a second attack against
    Yellow, rolls, and gets 12 Successes; he declares 4 Damage points and then moves away 3 rooms (1 wound penalty).
    Yellow declares an attack at distance 3, rolls, removes 4 positive cubes for the distance penalty, and gets 1
    Success; he cannot declare Damage points, so he declares 1 Dodge. ... Blue player: ... 6/1 ... Yellow player:
    1/1+0/1=1/2 ... The yellow player takes 4 Damage points and must draw 4 Wound cards. The blue player draws 1 Wound
    card as a penalty since he fled the combat."
    The table plays in turn ("No Real Time"), so Yellow searches his room while Blue rolls his second attack, and
    Blue's last two rooms are walked by hand (the test's only shortcut; his first move is the flight)."""
    s, rooms = _arena()
    _roll(s, YELLOW, 1, 7)                      # 1 x 7 = 7 Successes
    assert s.succ == 7
    _declare(s, 2, 1)                           # 2 x 3 + 1 = 7
    assert s.cur == YELLOW
    _roll(s, BLUE, 1, 4)                        # the counter-attack: 1 x 4 = 4
    _declare(s, 1, 1)
    _roll(s, YELLOW, 3, 4)                      # the second attack: 3 x 4 = 12
    assert s.legal_action_mask()[s.g.actions.parse("pvp: damage point")]
    _declare(s, 4, 0)
    s.apply_action(A.SEARCH)                    # Yellow, meanwhile
    s.apply_action(A.MOVE + E)                  # Blue flees the combat: 1 wound penalty, at the Slow phase
    assert s.pvp_flee == [[BLUE, YELLOW]] and s.wounds[BLUE] == []
    at(s, BLUE, rooms[5])                       # ... and walks on: 3 rooms away
    s.apply_action(attack(s, BLUE))
    assert s.pvp == [BLUE, 3]
    for _ in range(2):
        s.apply_action(A.ADD_CUBE)
    for _ in range(3):
        s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    rr = s.rollres
    assert rr[0] + rr[2] == 6 - 4 and rr[0] * rr[2] == 1, "3 x 3 less 4 positive cubes: 1 x 1"
    s.apply_action(A.ACCEPT)
    assert s.succ == 1 and not s.legal_action_mask()[s.g.actions.parse("pvp: damage point")]
    _declare(s, 0, 1)
    assert s.pvp_dmg == [[0, 6], [1, 0]] and s.pvp_dodge == [[0, 1], [2, 0]]
    assert s.view(YELLOW)["pvp"]["damage_points"] == [[0, 6], [1, 0]]
    assert s.wounds == [[], []], "applied at the beginning of the Slow phase"
    s.apply_action(A.PASS)                      # Blue
    s.apply_action(A.PASS)                      # Yellow: the Real Time phase ends
    keep_wounds(s)
    assert len(s.wounds[YELLOW]) == 4, "6 Damage points less Yellow's 2 Dodges"
    assert len(s.wounds[BLUE]) == 1, "Yellow's 1 Damage point less Blue's 1 Dodge; the flight's wound"
    # nobody had a face-down wound: "face up if the player who caused it has no wounds or only face-up wounds"
    assert not any(w[1] for ws in s.wounds for w in ws)
    assert s.pvp_dmg == [[0, 0], [0, 0]] and s.pvp_flee == []
    check_invariants(s)


@pytest.mark.parametrize("face_down", [False, True])
def test_wound_face_follows_the_attacker_wounds(face_down):
    """ "Any Wound card taken from player vs player combat is face up if the player who caused it has no wounds or
    only face-up wounds; conversely they are face down if the attacking player has 1 or more face-down wounds." """
    s, rooms = _arena()
    s.wounds[BLUE].append([s.wound_deck.pop(0), face_down, False])
    _roll(s, YELLOW, 1, 3)                      # 3 Successes: 1 Damage point
    _declare(s, 1, 0)
    s.apply_action(A.PASS)
    s.apply_action(A.PASS)
    keep_wounds(s)
    assert [w[1] for w in s.wounds[YELLOW]] == [face_down]


def test_only_a_player_not_involved_in_combat_attacks():
    """ "A player not involved in combat may attack another player": beside Creatures, no attack on a player; the
    target may stand in a combat; an exited Hero is no target ("If you exit the map, your game ends")."""
    s, rooms = _arena(3)
    m = s.legal_action_mask()
    assert m[attack(s, YELLOW)] and m[attack(s, 2)] and not m[attack(s, BLUE)]
    creatures(s, rooms[2], dog=1)
    assert not s.legal_action_mask()[attack(s, YELLOW)]
    at(s, BLUE, rooms[1])
    at(s, 2, -1)
    s.exited[2] = True
    m = s.legal_action_mask()
    assert m[attack(s, YELLOW)], "Yellow, in combat with the Dog, may be attacked from the next room"
    assert not m[attack(s, 2)]


def test_smoke_bombs_prevent_player_vs_player_combat():
    """ "Smoke bombs also prevent player vs player combat": nobody attacks a player in a smoked room."""
    s, rooms = _arena(smoke_bombs=True)
    at(s, BLUE, rooms[1])
    creatures(s, rooms[2], dog=1)
    assert s.legal_action_mask()[attack(s, YELLOW)]
    s.smoked.append(rooms[2])
    s.smoke_pool -= 1
    s._mask = None
    assert not s.legal_action_mask()[attack(s, YELLOW)]


def test_several_attacks_a_turn_and_no_penalty_for_leaving_a_ranged_combat():
    """ "PvP Combat allows player to do multiple attacks in the same turn"; "If a player flee a not-ranged combat, he
    takes 1 wound as penalty": after a shot from the next room, the target walks off freely."""
    s, rooms = _arena()
    at(s, BLUE, rooms[1])
    _roll(s, YELLOW, 2, 2)                      # distance 1: 2 + 2 less 2 positive cubes = 1 x 1
    assert s.pvp_melee == []
    _declare(s, 0, 1)
    s.apply_action(A.MOVE + E)                  # Yellow leaves
    assert s.pvp_flee == []
    _roll(s, YELLOW, 1, 1)                      # Blue's second attack this turn, distance 2: nothing left
    assert s.ph == PH_ACT and s.pvp == []


def test_the_countdown_prices_an_attack_on_a_player_as_an_attack():
    """Assumption 35's clock: an attack on a player takes an attack's seconds (10 in data/realtime.yaml); declaring
    a Clue and registering Damage points or Dodges are sub-decisions, free."""
    g = VirusLabGame(num_players=2, spy=True, pvp=True, real_time=True)
    names = g.actions.names
    assert len(g.rt_cost) == g.num_actions == len(names)
    assert {int(g.rt_cost[names.index(f"attack player {h}")]) for h in range(4)} == {10}
    assert int(g.rt_cost[names.index("pvp: damage point")]) == 0 == int(g.rt_cost[names.index("declare clue 3")])


def test_sizes_and_names():
    g = VirusLabGame(num_players=2, spy=True, pvp=True)
    base = VirusLabGame(num_players=2, spy=True)
    assert g.num_actions == base.num_actions + 6
    assert g.actions.names[-6:] == [f"attack player {h}" for h in range(4)] + ["pvp: damage point", "pvp: dodge"]
    assert g.observation_shape[0] == base.observation_shape[0] + 57     # 32 + 16 + 5 + 4


def test_a_wound_decision_can_follow():
    """The PvP wounds are drawn one at a time like every wound (each may be redrawn with an Advantage)."""
    s, rooms = _arena()
    _roll(s, YELLOW, 1, 3)
    _declare(s, 1, 0)
    s.apply_action(A.PASS)
    s.apply_action(A.PASS)
    assert s.ph == PH_WOUND and s.cur == YELLOW


@pytest.mark.parametrize("field,value", [("pvp", [5, 1]), ("pvp_dmg", [[0, -1], [0, 0]]), ("pvp_flee", [[1, 1]]),
                                         ("pvp_melee", [[0]])])
def test_loader_names_the_pvp_field_at_fault(field, value):
    import json
    s = VirusLabGame(num_players=2, spy=True, pvp=True).new_initial_state(seed=0)
    d = json.loads(json.dumps(s.to_dict()))
    d[field] = value
    with pytest.raises(ValueError, match=field):
        s.g.state_from_dict(d)
