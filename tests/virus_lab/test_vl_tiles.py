"""Virus (virus_lab_v0): the tiles and tokens of the Real Time phase: Barriers, Doors, Breaches (also placed while
exploring), Explosives and their explosion, exchanges; each scenario quotes the rulebook's action it shows.

Maps are drawn with rows going into the table (row 0 holds the Starting Room S at column 5).
"""
from __future__ import annotations

import pytest

from vl_helpers import (DOG, at, cell, corridor, creatures, empty_state, find_card, four, give_tiles, keep_wounds,
                        put)
from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A, explore_id
from virus_envs.virus_lab.board import DOOR_CLOSED


def test_barrier_tiles_in_order_and_removal():
    """ "a 2 bar barrier requires 3 tiles: empty, 1 bar and 2 bars"; a Hero removes it for 1 Action cube."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    give_tiles(s, 0, bars=(1, 1, 1, 0))
    e = s.g.geo.EDGE[c][2]
    m = s.legal_action_mask()
    assert [m[A.BARRIER + 4 * 2 + j] for j in range(4)] == [True, True, True, False], "1, 2 or 3 tiles"
    south = [a for a in range(A.EXPLORE, A.EXPLORE + 4 * 30 * 4) if s.g.actions.payloads[a][1] == 2]
    assert any(m[a] for a in south), "the unexplored space to the south can be explored before"
    s.apply_action(s.g.string_to_action("barrier S x 3"))
    assert s.barrier[e] == 3 and s.t_bar[0] == [0, 0, 0, 0] and s.stock[0] == 7
    m = s.legal_action_mask()
    assert not any(m[a] for a in south), "A Hero cannot move through a Barrier"
    assert any(m[a] for a in range(A.EXPLORE, A.EXPLORE + 4 * 30 * 4)), "the other sides stay open"
    assert not m[A.BARRIER + 4 * 1], "no tile of the right bars in the stock"
    s.apply_action(A.UNBAR + 2)
    assert s.barrier[e] == 0 and s.bar_pool == [4, 4, 4, 4]


def test_tiles_on_the_border_toward_the_tables_first_space():
    """The tile actions ("a 2 bar barrier requires 3 tiles", a Door on a doorway, "Breaches must be placed over a wall
    on the border of the room card") are offered on every border with a space beyond it, the table's first space
    (row 0, column 0; cell 0) included: a room at row 0, column 1 with doorways W and E offers the same tiles on
    both; its N border is the table's edge, where nothing is offered. (The seed-5 mutation sample's `_mask_tiles` 5,
    `y <= 0`: cell 0 taken for off the table, survived.)"""
    s = empty_state(1)
    ns = find_card(s.g, doors=5, lab=False)        # doorways N and S, turned a quarter: W and E
    c = put(s, 0, 1, ns, rot=1)
    assert s.doors[c] == 10
    assert s.g.geo.NB[c][3] == 0 and s.g.geo.NB[c][0] == -1
    at(s, 0, c)
    give_tiles(s, 0, bars=(1, 0, 0, 0), doors=1, breaches=1)
    m = s.legal_action_mask()
    for d in (1, 3):                               # E, and W toward cell 0
        assert m[A.BARRIER + 4 * d] and m[A.DOOR_OPEN + d] and m[A.DOOR_CLOSED + d], d
    assert m[A.BREACH + 2] and not m[A.BREACH + 0], "a wall to the S; the N border is the table's edge"
    s.apply_action(A.DOOR_CLOSED + 3)
    assert s.legal_action_mask()[A.TOGGLE + 3], "the Door toward cell 0 can be opened again"


def test_barrier_not_on_wall_door_or_breach():
    s = empty_state(1)
    ns = find_card(s.g, doors=5, lab=False)        # doorways N and S
    c = put(s, 1, 5, ns)
    at(s, 0, c)
    give_tiles(s, 0, bars=(1, 0, 0, 0), doors=1, breaches=1)
    m = s.legal_action_mask()
    assert m[A.BARRIER + 4 * 2] and not m[A.BARRIER + 4 * 1], "a wall on the E side"
    assert m[A.BREACH + 1] and not m[A.BREACH + 2], "a Breach goes on a wall"
    s.apply_action(A.DOOR_CLOSED + 2)
    assert not s.legal_action_mask()[A.BARRIER + 4 * 2], "not over a Door"


def test_door_example_open_then_move():
    """ "the purple player can open the door by spending 1 Action cube then move his Hero into room A by
    spending another action cube." """
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    e = s.g.geo.EDGE[c][0]
    s.door[e] = DOOR_CLOSED
    s.door_pool -= 1
    s._mask = None
    assert not s.legal_action_mask()[A.MOVE + 2]
    s.apply_action(A.TOGGLE + 2)
    s.apply_action(A.MOVE + 2)
    assert s.pos[0] == c and s.stock[0] == 6


def test_breach_example_connects_rooms():
    """ "The purple player spends 1 Action cube to place a Breach ... His Hero then spends 1 Action cube to move
    through the Breach" """
    s = empty_state(1)
    g = s.g
    ns = find_card(g, doors=5, lab=False)
    a = put(s, 1, 5, ns)
    b = put(s, 1, 6, ns)
    at(s, 0, a)
    give_tiles(s, 0, breaches=1)
    assert not s.legal_action_mask()[A.MOVE + 1]
    s.apply_action(A.BREACH + 1)
    assert s.legal_action_mask()[A.MOVE + 1], "a single Breach works on a double wall"
    s.apply_action(A.MOVE + 1)
    assert s.pos[0] == b and s.stock[0] == 6


def test_explosives_example_dog_arrives():
    """ "the purple Hero places an Explosive and moves to room B. When the Dog Creature arrives in the room, the
    bomb explodes, killing the Creature." """
    s = empty_state(1)
    rooms = corridor(s, 1, (5,)) + corridor(s, 2, (5, 6))
    a, b = rooms[1], rooms[2]
    at(s, 0, a)
    give_tiles(s, 0, expl=1)
    s.apply_action(A.EXPLOSIVES + 0)
    assert s.expl[a] == 1 and not s.armed[a]
    s.apply_action(A.MOVE + 1)
    assert s.pos[0] == b and s.armed[a], "armed as soon as the Hero that placed them leaves the room"
    c = put(s, 3, 5, four(s.g))
    creatures(s, c, dog=1)
    assert CR.move_step(s, c, 0) == a
    assert s.cre[a * 9 + DOG] == 0 and s.expl[a] == 0 and s.pool[DOG] == 10


def test_explosion_limit_six_every_point_to_the_hero_present():
    """ "Limit of 6 Explosive tokens in a room"; "The explosion deals X Damage points, where X is equal to the number
    of Explosive tokens in the room ... the player draws 1 Wound card for each damage point ... face up" """
    s = empty_state(2)
    a = put(s, 1, 5, four(s.g))
    at(s, 0, a)
    at(s, 1, a)
    give_tiles(s, 0, expl=7)
    s.apply_action(A.EXPLOSIVES + 2)
    s.apply_action(A.PASS)
    s.apply_action(A.EXPLOSIVES + 2)
    assert s.expl[a] == 6 and not s.legal_action_mask()[A.EXPLOSIVES + 0], "Limit of 6 Explosive tokens"
    s.apply_action(A.MOVE + 0)          # seat 0 leaves: seat 1 is present, the bomb goes off
    keep_wounds(s)
    assert len(s.wounds[1]) == 6 and all(w[1] is False for w in s.wounds[1]) and s.expl[a] == 0


def test_explosion_heroes_first_then_creatures():
    """ "Damage points are dealt in the following order: first to Heroes and then any residual value to Creatures";
    "If a Creature takes Damage points equal to its HP, return it to the game reserve". Seat 0 placed 6 Explosives
    in room A (with seat 1), Dogs came in; seat 0 flees: armed, they explode. Seat 1 has 3 hit points left (7 - 4
    wounds): he takes 3 face-up wounds (and dies); the residual 3 kills both Dogs (1 HP each)."""
    s = empty_state(2)
    a = put(s, 1, 5, four(s.g))
    at(s, 0, a)
    at(s, 1, a)
    s.expl[a], s.expl_by[a] = 6, 0
    s.tok_pool[5] -= 6
    for _ in range(4):
        s._wound(1, False)
    creatures(s, a, dog=2)
    s.apply_action(A.MOVE + 0)              # seat 0 flees to the Starting Room: 2 Dogs + the penalty
    keep_wounds(s)
    assert len(s.wounds[0]) == 3, "the flight: 2 Damage points + 1 penalty"
    assert [w[1] for w in s.wounds[1][4:]] == [False, False, False] and not s.alive[1], "3 face-up wounds: dead"
    assert s.cre[a * 9 + DOG] == 0 and s.pool[DOG] == 10, "the residual 3 Damage points kill both Dogs"
    assert s.expl[a] == 0 and s.tok_pool[5] == s.g.comp.tokens[5]


def test_exchange_in_same_room_out_of_combat():
    s = empty_state(2)
    give_tiles(s, 0, doors=1)
    m = s.legal_action_mask()
    from virus_envs.virus_lab.actions import GIFTS
    assert m[A.GIVE + GIFTS.index("door") * 4 + 1] and m[A.GIVE + 0 * 4 + 1]
    s.apply_action(A.GIVE + GIFTS.index("door") * 4 + 1)
    assert s.t_door == [0, 1]


def test_explore_breaking_the_match_with_a_breach():
    """ "It is possible to break this rule ONLY by simultaneously placing a Breach on a wall which is adjacent to
    a doorway." """
    s = empty_state(1)
    g = s.g
    one = find_card(g, doors=1, lab=False)
    s.disp[0] = [[one, True]]
    ns = find_card(g, doors=5, lab=False)
    put(s, 1, 6, ns, rot=0)                          # its N doorway faces (0,6)
    s._mask = None
    assert not s.legal_action_mask()[explore_id(1, 0, 3)]
    s.t_breach[0] = 1
    s.breach_pool -= 1
    s._mask = None
    assert s.legal_action_mask()[explore_id(1, 0, 3)]
    s.apply_action(explore_id(1, 0, 3))
    y = cell(s, 0, 6)
    assert s.t_breach[0] == 0 and s.breach[g.geo.EDGE[y][2]] == 1 and s.pos[0] == y


@pytest.mark.parametrize("pay, cubes", [(True, 2), (False, 1)])
def test_the_breach_placed_while_exploring_is_the_open_a_breach_action(pay, cubes):
    """ "It is possible to break this rule ONLY by simultaneously placing a Breach"; placing one is "OPEN A BREACH.
    Spend 1 Action cube (placing it in the room) to place a Breach tile from your stock ... This action is only
    available outside of combat": the move's cube and the Breach's cube (both on the new room, where the Hero and
    the Breach are). `breach_explore_cube=False` is the old reading (the tile only)."""
    s = empty_state(1, breach_explore_cube=pay)
    g = s.g
    one = find_card(g, doors=1, lab=False)
    s.disp[0] = [[one, True]]
    put(s, 1, 6, find_card(g, doors=5, lab=False), rot=0)
    s.t_breach[0] = 1
    s.breach_pool -= 1
    s.stock[0], s.reserve[0] = cubes, s.reserve[0] + s.stock[0] - cubes
    s._mask = None
    assert s.legal_action_mask()[explore_id(1, 0, 3)], "just enough cubes"
    if pay:
        s.stock[0], s.reserve[0] = 1, s.reserve[0] + 1
        s._mask = None
        assert not s.legal_action_mask()[explore_id(1, 0, 3)], "1 cube pays the move, not the Breach"
        s.stock[0], s.reserve[0] = 2, s.reserve[0] - 1
        s._mask = None
    s.apply_action(explore_id(1, 0, 3))
    y = cell(s, 0, 6)
    assert s.stock[0] == 0 and s.cubes[y] == cubes
    # in combat, no Breach: the same exploration is refused
    s2 = empty_state(1)
    s2.disp[0] = [[one, True]]
    put(s2, 1, 6, find_card(g, doors=5, lab=False), rot=0)
    s2.t_breach[0] = 1
    s2.breach_pool -= 1
    creatures(s2, g.geo.start_cell, dog=1)
    assert not s2.legal_action_mask()[explore_id(1, 0, 3)]


def test_barrier_one_tile_at_a_time_then_more_bars():
    """ "add additional bars to an existing Barrier in their room putting the new tile from their stock over the
    one on the map" """
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    give_tiles(s, 0, bars=(1, 1, 0, 0))
    s.apply_action(s.g.string_to_action("barrier S x 1"))
    e = s.g.geo.EDGE[c][2]
    assert s.barrier[e] == 1 and s.t_bar[0] == [0, 1, 0, 0]
    s.apply_action(s.g.string_to_action("barrier S x 1"))
    assert s.barrier[e] == 2 and s.t_bar[0] == [0, 0, 0, 0] and s.stock[0] == 6
