"""Special contents: Teleport rooms (`teleport_rooms=True`) and Drifting rooms (`drifting_rooms=True`), scenario tests
quoting the rulebook's "Special contents" section. The cards are data (`data/rooms.yaml`, `special_rooms`).
"""
from __future__ import annotations

import pytest

import virus_envs
from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.components import RK_DRIFT, RK_TELEPORT
from virus_envs.virus_lab.game import PH_DRIFT, PH_NONE, Q_NEXT
from vl_helpers import (at, cell, check_invariants, corridor, creatures, empty_state, four, keep_wounds, put,
                        random_playout_checked)

def _ids(g, kind):
    return g.comp.special_ids(kind)


def _teleports(n=1, **cfg):
    """Corridor of 4-doorway rooms on row 2 (columns 1..5); TELEPORT-3 (doorways N S, turned: E W) at (2, 6),
    TELEPORT-1 far away at (7, 9), TELEPORT-4 at (3, 1), under the corridor's west end."""
    s = empty_state(n, teleport_rooms=True, **cfg)
    t1, t2, t3, t4 = _ids(s.g, RK_TELEPORT)
    rooms = corridor(s, 2, range(1, 6))
    tp = {"near": put(s, 3, 1, t4), "here": put(s, 2, 6, t3, rot=1), "far": put(s, 7, 9, t1)}
    return s, rooms, tp


def _name(s, a):
    return s.g.actions.name(a)


def _legal(s, prefix):
    return sorted(_name(s, a) for a in s.legal_actions() if _name(s, a).startswith(prefix))


def test_the_cards_are_dealt_only_with_their_option():
    """ "Teleport room card* (4 cards)", "Drifting room* (2 cards)": shuffled into the Room deck."""
    base = virus_envs.game("virus_lab_v0", 4).new_initial_state(seed=3)
    s = virus_envs.game("virus_lab_v0", 4, teleport_rooms=True, drifting_rooms=True).new_initial_state(seed=3)
    def everywhere(x):
        return set(x.room_deck) | {c for c in x.card if x.g.comp.is_room(c)} | {c for d in x.disp for c, _ in d}
    assert len(everywhere(s)) == len(everywhere(base)) + 6
    assert set(_ids(s.g, RK_TELEPORT)) | set(_ids(s.g, RK_DRIFT)) <= everywhere(s)
    assert not set(_ids(s.g, RK_TELEPORT)) & everywhere(base)


def test_a_hero_teleports_for_one_action_cube():
    """ "If 2 or more Teleport room cards are on the table, players may use them to move from one Teleport room to
    another Teleport room of their choice. A player must spend 1 Action cube to activate a Teleport room." """
    s, rooms, tp = _teleports()
    at(s, 0, tp["here"])
    order = sorted(tp.values())                 # `teleport to room <i>`: the i-th Teleport room in cell order
    legal = _legal(s, "teleport")
    assert legal == sorted(f"teleport to room {order.index(tp[k])}" for k in ("near", "far"))
    stock = s.stock[0]
    s.apply_action(s.g.actions.parse(f"teleport to room {order.index(tp['far'])}"))
    assert s.pos[0] == tp["far"] and s.stock[0] == stock - 1
    assert s.cubes[tp["here"] * s.n + 0] == 1, "the cube goes on the room activated"


def test_one_teleport_room_on_the_table_is_not_enough():
    s = empty_state(1, teleport_rooms=True)
    t1 = _ids(s.g, RK_TELEPORT)[0]
    here = put(s, 2, 6, t1)
    at(s, 0, here)
    assert _legal(s, "teleport") == []


def test_teleporting_out_of_a_combat_is_a_flight():
    """Activating a room in combat costs 2 Action cubes (ACTION COSTS TABLE); leaving is a flight: the Dog attacks
    (1 Damage point) and the penalty adds 1."""
    s, rooms, tp = _teleports()
    at(s, 0, tp["here"])
    creatures(s, tp["here"], dog=1)
    stock = s.stock[0]
    s.apply_action(s.g.actions.parse(f"teleport to room {sorted(tp.values()).index(tp['far'])}"))
    keep_wounds(s)
    assert s.stock[0] == stock - 2 and len(s.wounds[0]) == 2 and s.pos[0] == tp["far"]


def test_creatures_entering_a_teleport_room_teleport():
    """ "Creatures will automatically teleport to another Teleport room when they enter a Teleport room. If several
    Teleport rooms are available, the player who moved the Creatures selects which Teleport room": the Zombie
    walking west from (2, 7) towards the Hero enters the Teleport room at (2, 6) and goes on; of the two others the
    default sends it to the one farthest from the Heroes (assumption 49): (7, 9), not (3, 1)."""
    s, rooms, tp = _teleports()
    east = put(s, 2, 7, four(s.g, 0, 1))
    at(s, 0, rooms[0])
    creatures(s, east, zombie=1)
    CR.slow_movement(s, 1)
    assert s.cre[east * 9] == 0 and s.cre[tp["here"] * 9] == 0
    assert s.cre[tp["far"] * 9] == 1 and s.cre[tp["near"] * 9] == 0
    check_invariants(s)


def test_creatures_that_reach_a_hero_in_a_teleport_room_stop():
    """ "If Creatures reach a Hero, they stop." """
    s, rooms, tp = _teleports()
    east = put(s, 2, 7, four(s.g, 0, 1))
    at(s, 0, tp["here"])
    creatures(s, east, zombie=1)
    CR.slow_movement(s, 1)
    assert s.cre[tp["here"] * 9] == 1


def test_nothing_is_sensed_through_the_link():
    """ "it's not possible to see, sniff, or hear through the connections between Teleport rooms": Creatures in the
    far Teleport room do not move towards the Hero standing in another Teleport room (they lie flat)."""
    s, rooms, tp = _teleports()
    at(s, 0, tp["near"])
    creatures(s, tp["far"], zombie=1)
    CR.slow_movement(s, 2)
    assert s.cre[tp["far"] * 9] == 1 and s.flat[tp["far"]]


# -------------------------------------------------------------------------------------------- Drifting rooms
def _lead_sub_phase(s):
    s.ph, s.queue = PH_NONE, [[Q_NEXT]]
    s._advance()


def _drifting(n=2):
    """Corridor on row 2 (columns 1..9); DRIFTING-1 (doorways N E S) at (3, 1), under the corridor's west end."""
    s = empty_state(n, drifting_rooms=True)
    d1 = _ids(s.g, RK_DRIFT)[0]
    rooms = corridor(s, 2, range(1, 10))
    return s, rooms, put(s, 3, 1, d1)


def test_an_occupied_drifting_room_moves_until_separated():
    """ "During the Lead player sub-phase, if any Creature or Hero is located in this room, the new Lead player must
    move this room to a free adjacent space of his choice; repeat up to 4 times until the room is separated from all
    other room." The room (a Hero in it) moves west, off the corridor's end: once, then it touches nothing (south it
    would still touch the Exit Control Room at (5, 1))."""
    s, rooms, d = _drifting()
    at(s, 0, d)
    _lead_sub_phase(s)
    assert s.ph == PH_DRIFT and s.cur == s.lead == 1, "the new Lead player chooses"
    assert _legal(s, "drift") == ["drift room E", "drift room S", "drift room W"]
    s.apply_action(s.g.actions.parse("drift room W"))
    west = cell(s, 3, 0)
    assert s.pos[0] == west and s.card[west] == _ids(s.g, RK_DRIFT)[0] and s.card[d] == -1
    assert s.ph != PH_DRIFT


def test_up_to_four_times():
    """Moved east along the corridor it keeps touching it: it stops after the fourth move."""
    s, rooms, d = _drifting()
    creatures(s, d, zombie=2)
    _lead_sub_phase(s)
    for _ in range(4):
        assert s.ph == PH_DRIFT
        s.apply_action(s.g.actions.parse("drift room E"))
    there = cell(s, 3, 5)
    assert s.cre[there * 9] == 2 and s.ph != PH_DRIFT
    check_invariants(s)


def test_an_empty_drifting_room_stays():
    s, rooms, d = _drifting()
    _lead_sub_phase(s)
    assert s.ph != PH_DRIFT and s.card[d] == _ids(s.g, RK_DRIFT)[0]


def test_border_tiles_go_back_to_the_reserve():
    """Assumption 50: a Door on the drifting room's border stays with the border and goes back to the reserve."""
    s, rooms, d = _drifting()
    at(s, 0, d)
    e = s.g.geo.EDGE[d][0]
    s.door[e] = 1
    s.door_pool -= 1
    pool = s.door_pool
    _lead_sub_phase(s)
    s.apply_action(s.g.actions.parse("drift room S"))
    assert s.door[e] == 0 and s.door_pool == pool + 1


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    random_playout_checked(virus_envs.game("virus_lab_v0", n, teleport_rooms=True, drifting_rooms=True, difficulty=3), n)


def test_sizes():
    base = virus_envs.game("virus_lab_v0", 2)
    g = virus_envs.game("virus_lab_v0", 2, teleport_rooms=True, drifting_rooms=True)
    assert g.num_actions == base.num_actions + 4 + 4
    assert g.actions.names[-8:] == [f"teleport to room {i}" for i in range(4)] + [f"drift room {x}" for x in "NESW"]
    assert g.observation_shape[0] == base.observation_shape[0] + (99 + 24) + (2 * 99 + 25)
