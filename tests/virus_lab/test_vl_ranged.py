"""Advanced Combat, the ranged attack (config `advanced_combat="ranged"`): scenario tests quoting the rulebook's
"ADVANCED COMBAT" section and its Combat FAQ.

Rolls are made with `p_positive` close to 1 so that every element lands positive (the seeded Generator makes it
exact); the Successes are then counted by hand: positive bullets x positive Action cubes.
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.board import DOOR_CLOSED
from virus_envs.virus_lab.game import PH_ACT, PH_RESULT, PH_SPEND, VirusLabGame
from vl_helpers import (BOSS, DESU, DOG, ZOMBIE, at, check_invariants, corridor, creatures, empty_state, find_card,
                        play_random, put)

W, E = 3, 1          # sides


def _shooter(n=1, **cfg):
    """A corridor of 4-doorway rooms on row 2, columns 1..9; Hero 0 in (2, 3)."""
    s = empty_state(n, advanced_combat="ranged", p_positive=0.9999, **cfg)
    rooms = corridor(s, 2, range(1, 10))
    at(s, 0, rooms[2])
    return s, rooms


def shot(s, d, k):
    return s.g.actions.parse(f"ranged attack {'NESW'[d]} distance {k}")


def _roll(s, cubes, bullets):
    """Build the roll (the shot already put 1 Action cube in it) and throw it."""
    for _ in range(cubes - 1):
        s.apply_action(A.ADD_CUBE)
    for _ in range(bullets):
        s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT


def _legal_shots(s):
    return sorted(s.g.actions.name(a) for a in s.legal_actions() if a >= s.g.ranged_base)


@pytest.mark.parametrize("k,succ", [(1, 4), (2, 2), (3, 1)])
def test_distance_penalty_one_cube_plus_one_per_room(k, succ):
    """ "the player must remove 1 positive cube from his roll, plus one additional positive cube for each room of
    distance ... if the distance is 1 (adjacent room) the penalty is 2 cubes"; "Which cubes do I remove? The Player
    may choose": 3 Action cubes x 3 bullets, all positive: distance 1 leaves 2 x 2 = 4 Successes, distance 2 leaves
    1 x 2 (or 2 x 1) = 2, distance 3 leaves 1 x 1 = 1 (the best choices; every other choice gives fewer)."""
    s, rooms = _shooter()
    creatures(s, rooms[2 + k], dog=1)
    s.apply_action(shot(s, E, k))
    _roll(s, 3, 3)
    rr = s.rollres
    assert rr[0] * rr[2] == succ and rr[0] + rr[2] == 6 - (k + 1)
    s.apply_action(A.ACCEPT)
    assert s.succ == succ


def test_no_counter_attack_and_several_shots_a_turn():
    """ "The player does not suffer any Creature counter-attack"; "it's possible to make multiple Ranged attack in
    the same turn". A Dog (1 HP: 3 Successes) at distance 1 is killed; nobody is hurt; the Zombie at distance 2
    can be shot next."""
    s, rooms = _shooter()
    creatures(s, rooms[3], dog=1)
    creatures(s, rooms[4], zombie=1)
    s.apply_action(shot(s, E, 1))
    _roll(s, 3, 3)                         # 2 x 2 = 4 Successes after the penalty of 2
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.legal_action_mask()[A.KILL + DOG]
    assert not s.legal_action_mask()[A.DODGE + DOG], "no counter-attack to Dodge"
    s.apply_action(A.KILL + DOG)
    assert s.cre[rooms[3] * 9 + DOG] == 0 and s.wounds[0] == [] and s.rt_dmg == []
    assert s.ph == PH_ACT and s.cur == 0 and s.ranged == []
    assert "ranged attack E distance 2" in _legal_shots(s), "a second shot this turn"
    check_invariants(s)


def test_a_hero_in_combat_cannot_shoot():
    """ "A Hero may perform a ranged attack if he is not directly involved in combat." """
    s, rooms = _shooter()
    creatures(s, rooms[3], dog=1)
    assert _legal_shots(s) == ["ranged attack E distance 1"]
    creatures(s, rooms[2], zombie=1)
    assert _legal_shots(s) == []


def test_sight_line_walls_doors_barriers_and_full_rooms():
    """ "A direct sight line is required to shoot; the line is drawn from Room center and must be uninterrupted by
    walls, closed Doors, Barriers, or full rooms. Exception: It is possible to shoot through a Barrier if who is
    shooting is standing adjacent to the Barrier." FAQ: "if there is a full Room in your Sight line you cannot
    shoot beyond it. You may shoot a target in a full Room"; "another Hero in the middle of my Sight line? YES"."""
    s, rooms = _shooter(n=2)
    for r in rooms[3:]:
        creatures(s, r, zombie=1)
    assert _legal_shots(s)[-1] == "ranged attack E distance 6"
    at(s, 1, rooms[3])
    assert "ranged attack E distance 6" in _legal_shots(s), "a Hero in between does not block"
    at(s, 1, rooms[0])
    e = s.g.geo.EDGE[rooms[4]][E]
    s.door[e] = DOOR_CLOSED
    assert _legal_shots(s)[-1] == "ranged attack E distance 2", "a closed Door stops the line"
    s.door[e] = 0
    s.barrier[e] = 2
    s._mask = None
    assert _legal_shots(s)[-1] == "ranged attack E distance 2", "a Barrier stops the line"
    s.barrier[e] = 0
    s.barrier[s.g.geo.EDGE[rooms[2]][E]] = 2
    s._mask = None
    assert _legal_shots(s)[-1] == "ranged attack E distance 6", "through a Barrier of the shooter's own room"
    s.barrier[s.g.geo.EDGE[rooms[2]][E]] = 0
    creatures(s, rooms[4], zombie=6)                # 7: full
    assert CR.occupancy(s, rooms[4]) == 7
    assert _legal_shots(s)[-1] == "ranged attack E distance 2", "the full room may be shot at, not beyond"
    wall = find_card(s.g, doors=0b0101, lab=False)  # doorways N and S only: walls E and W
    put(s, 2, 4, wall)
    assert [x for x in _legal_shots(s) if " E " in x] == [], "a wall stops the line"


def test_a_creature_group_with_enough_successes():
    """FAQ: "May I attack a Creature group with a ranged attack? YES, if Creatures are in the same room and you get
    sufficient Successes": 4 x 4 = 16 Successes at distance 1 (penalty 2: 3 x 3 = 9) kill three Dogs (3 each)."""
    s, rooms = _shooter()
    creatures(s, rooms[3], dog=3)
    s.bullets[0] += 4
    s.bullet_pool -= 4
    s.apply_action(shot(s, E, 1))
    _roll(s, 4, 4)
    s.apply_action(A.ACCEPT)
    assert s.succ == 9
    for _ in range(3):
        s.apply_action(A.KILL + DOG)
    assert s.cre[rooms[3] * 9 + DOG] == 0 and s.ph == PH_ACT


def test_a_shot_reveals_the_boss_card():
    """ "Keep the Boss card hidden until a Hero interacts with the Boss (moves up its room or performs a ranged
    attack)." """
    s, rooms = _shooter()
    card = s.boss_deck.pop()
    s.pool[DESU] -= 1
    s.bosses.append([rooms[5], DESU, card])
    s.cre[rooms[5] * 9 + BOSS] += 1
    s._mask = None
    assert s.view(0)["bosses"] == []
    s.apply_action(shot(s, E, 3))
    assert s.view(0)["bosses"] and s.view(0)["bosses"][0]["cell"] == rooms[5]


def test_an_exited_hero_cannot_shoot():
    """FAQ: "If I exit the map, may I use a ranged attack against Creatures or other players? No." """
    s, rooms = _shooter(n=2)
    creatures(s, rooms[3], dog=1)
    at(s, 0, -1)
    s.exited[0] = True
    s.cur = 1
    at(s, 1, rooms[2])
    assert _legal_shots(s) == ["ranged attack E distance 1"], "seat 1, still on the map, may shoot"
    assert s._rt_next() is None and s.cur == 1, "seat 0 has left the map: he never acts again"


def test_sizes_and_names():
    g = VirusLabGame(num_players=2, advanced_combat="ranged")
    assert g.num_actions == 1136 + 4 * 10, "4 sides x distances 1..10 on the 9 x 11 table"
    assert g.observation_shape == (8293 + 99 + 1,), "the `advanced` block: the target room, the distance"
    assert g.actions.name(1136) == "ranged attack N distance 1"
    assert VirusLabGame(num_players=2, advanced_combat="ranged", table_rows=15, table_cols=21).num_actions == 1136 + 80
    with pytest.raises(ValueError, match="advanced_combat"):
        VirusLabGame(num_players=2, advanced_combat="pvp")     # Player vs Player: the Spy mode's own key


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, advanced_combat="ranged")
    for seed in range(3):
        play_random(g, seed, check=True)
