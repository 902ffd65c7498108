"""Virus (virus_lab_v0): the Slow phase: Creature movement ("They see you! They sniff you! They hear you!"),
lying flat, Barriers and Doors against groups, the Leaders' powers, new Creatures (options 1, 2A, 2B) and the
Lead / placing player's choices (`auto_slow_phase=False`).

Maps are drawn with rows going into the table (row 0 holds the Starting Room S at column 5).
"""
from __future__ import annotations

import pytest

from vl_helpers import (BLOODER, BLUE, BOSS, DESU, DOG, GREEN, MUTANT, RED, TRICKER, ZOMBIE, at, cell, corridor,
                        creatures, empty_state, four, put)
from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.board import DOOR_CLOSED
from virus_envs.virus_lab.game import PH_NONE, PH_SLOW, Q_RT, Q_SLOW


def test_they_see_you_before_noise():
    """The Creature moves towards a Hero in line of sight regardless of cubes elsewhere."""
    s = empty_state(2)
    rooms = corridor(s, 3, range(2, 9))
    creatures(s, rooms[3], zombie=1)          # column 5
    at(s, 0, rooms[6])                        # seen 3 rooms east
    s.cubes[rooms[1] * 2 + 1] = 5             # noise to the west
    at(s, 1, -1)
    assert CR.target_side(s, rooms[3]) == 1


def test_sniff_within_four_rooms_and_closed_door():
    s = empty_state(1)
    g = s.g
    # an L-shaped path: no straight line from the Creature to the Hero
    a = put(s, 3, 3, four(g))
    b = put(s, 4, 3, four(g))
    c = put(s, 4, 4, four(g))
    creatures(s, a, zombie=1)
    at(s, 0, c)
    assert CR.target_side(s, a) == 2
    s.door[g.geo.EDGE[a][2]] = DOOR_CLOSED
    assert CR.target_side(s, a) == -1, "Closed Doors block smell"
    s.cre[a * 9 + ZOMBIE] = 0
    s.cre[a * 9 + MUTANT] = 1
    assert CR.target_side(s, a) == 2, "the Mutant sniffs behind doors"
    del b


def test_door_noise_two_minus_one():
    """ "it can still hear him (2 cubes -1 cube for the door = 1 cube remaining)"; one cube is cancelled."""
    s = empty_state(1)
    g = s.g
    a = put(s, 3, 3, four(g))
    b = put(s, 3, 4, four(g))
    creatures(s, a, zombie=1)
    at(s, 0, -1)
    at(s, 0, g.geo.start_cell)      # far away: neither seen nor sniffed
    s.door[g.geo.EDGE[a][1]] = DOOR_CLOSED
    s.cubes[b] = 2
    # the hero in the start room is not within 4 connected rooms
    assert CR.target_side(s, a) == 1
    s.cubes[b] = 1
    assert CR.target_side(s, a) == -1


def test_lying_flat_then_removed():
    s = empty_state(1)
    a = put(s, 6, 8, four(s.g))
    creatures(s, a, dog=2)
    CR.slow_movement(s, 2)
    assert s.flat[a] and s.cre[a * 9 + DOG] == 2
    CR.slow_movement(s, 2)
    assert s.cre[a * 9 + DOG] == 0 and s.pool[DOG] == 10


@pytest.mark.parametrize("rule", ["removed", "stay"])
def test_a_boss_group_lying_flat_twice_is_removed(rule):
    """ "If neither 1, 2, nor 3 is possible, the Creature group remains stationary. Lay the Creatures flat ... If the
    Creature group is already lying flat, return them to the game reserve": no exception for Bosses in the base
    game (the Boss's Leader miniature goes back to the reserve, its card out of the game). `flat_bosses="stay"` is
    the old reading (a group with a Boss is never returned)."""
    s = empty_state(1, flat_bosses=rule)
    a = put(s, 6, 8, four(s.g))
    creatures(s, a, dog=1)
    card = s.boss_deck.pop()
    gone = [list(x) for x in s.boss_gone]     # the Irreducible Boss, discarded at setup (no Final Attack)
    s.pool[DESU] -= 1
    s.bosses = [[a, DESU, card]]
    s.cre[a * 9 + BOSS] = 1
    CR.slow_movement(s, 2)
    assert s.flat[a] and s.cre[a * 9 + BOSS] == 1
    CR.slow_movement(s, 2)
    if rule == "removed":
        assert s.cre[a * 9 + BOSS] == 0 and s.cre[a * 9 + DOG] == 0 and s.bosses == []
        assert s.pool[DESU] == 2 and s.pool[DOG] == 10 and s.boss_gone == gone + [[card, 0]], "unmet: its card stays hidden"
    else:
        assert s.cre[a * 9 + BOSS] == 1 and s.cre[a * 9 + DOG] == 1 and s.flat[a]


def test_movement_by_difficulty_dog_bonus_and_stop_at_hero():
    s = empty_state(1)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    creatures(s, rooms[2], dog=1)
    CR.slow_movement(s, 1)
    assert s.cre[rooms[1] * 9 + ZOMBIE] == 1, "difficulty 1: 1 room"
    assert s.cre[rooms[4] * 9 + DOG] == 1, "Dogs +1"
    s2 = empty_state(1)
    rooms = corridor(s2, 3, range(1, 10))
    at(s2, 0, rooms[2])
    creatures(s2, rooms[0], zombie=1)
    CR.slow_movement(s2, 3)
    assert s2.cre[rooms[2] * 9 + ZOMBIE] == 1, "they stop on reaching a Hero"


def test_partial_move_into_room_of_six():
    """ "A group of 4 Creatures must move straight and the adjacent room contains 6 Creatures: only 1 may move in" """
    s = empty_state(1)
    rooms = corridor(s, 3, range(2, 6))
    creatures(s, rooms[0], zombie=4)
    creatures(s, rooms[1], dog=3, blooder=3)
    at(s, 0, rooms[3])
    y = CR.move_step(s, rooms[0], 1)
    assert y == rooms[1] and CR.creature_space(s, rooms[1]) == 7 and s.cre[rooms[0] * 9 + ZOMBIE] == 3
    assert CR.move_step(s, rooms[0], 1) == -1, "a full room stops it"


def test_barrier_value_six_against_group_seven():
    """ "Their Creature group value is 6 ... Barrier with 3 bars (value 6) ... increasing the group value to 7;
    they will destroy the Barrier" """
    s = empty_state(1)
    rooms = corridor(s, 3, range(2, 5))
    creatures(s, rooms[0], zombie=4, desu=1)
    e = s.g.geo.EDGE[rooms[0]][1]
    s.barrier[e] = 4
    for b in range(4):
        s.bar_pool[b] -= 1
    assert CR.group_value(s, rooms[0]) == 6
    assert CR.move_step(s, rooms[0], 1) == -1
    creatures(s, rooms[0], dog=1)
    assert CR.move_step(s, rooms[0], 1) == rooms[1]
    assert s.barrier[e] == 0 and s.bar_pool == [4, 4, 4, 4]


def test_closed_door_barrier_value():
    """A closed Door works like a Barrier of value 1 + Heroes behind it."""
    s = empty_state(1)
    rooms = corridor(s, 3, range(2, 5))
    creatures(s, rooms[0], zombie=2)
    at(s, 0, rooms[1])
    s.door[s.g.geo.EDGE[rooms[0]][1]] = DOOR_CLOSED
    assert CR.move_step(s, rooms[0], 1) == -1, "value 2 against a group of 2"
    creatures(s, rooms[0], zombie=1)
    assert CR.move_step(s, rooms[0], 1) == rooms[1]


def test_desu_tramples_into_full_room():
    """ "Desu moves into a room where there are already 1 Leader, 4 Creatures, and 1 Hero ... move two Creatures
    into the room from which Desu just entered." """
    s = empty_state(1)
    rooms = corridor(s, 3, range(2, 5))
    creatures(s, rooms[0], desu=1)
    creatures(s, rooms[1], mutant=1, zombie=4)
    at(s, 0, rooms[1])
    assert CR.move_step(s, rooms[0], 1) == rooms[1]
    assert s.cre[rooms[1] * 9 + DESU] == 1 and s.cre[rooms[1] * 9 + ZOMBIE] == 2
    assert s.cre[rooms[0] * 9 + ZOMBIE] == 2 and CR.occupancy(s, rooms[1]) == 7


def test_verduko_and_executioner():
    s = empty_state(1)
    rooms = corridor(s, 3, range(2, 7))
    creatures(s, rooms[0], verduko=1, executioner=1)
    at(s, 0, rooms[3])
    st = s.stock[0]
    ev = CR.end_of_move_powers(s, rooms[0])
    assert ev == [(0, 1)] and s.stock[0] == st - 1


def test_placement_example_1():
    """Black places 2 blue + 2 green (a Leader first) in the empty rooms with cubes; purple's 2 green creatures
    then need option 2 (the default adds them to a group of the colour)."""
    s = empty_state(2)
    g = s.g
    A_ = put(s, 2, 3, four(g, BLUE, 0))
    B_ = put(s, 2, 4, four(g, BLUE, 1))
    C_ = put(s, 3, 4, four(g, GREEN, 0))
    D_ = put(s, 3, 5, four(g, GREEN, 1))
    put(s, 1, 5, four(g, RED, 0))
    put(s, 2, 5, four(g, RED, 1))
    for c in (A_, B_, C_, D_):
        s.cubes[c * 2 + 0] = 1
    s.cubes[C_ * 2 + 1] = 1
    s.cubes[D_ * 2 + 1] = 1
    CR.place_for_rooms(s, [BLUE, BLUE, GREEN, GREEN])
    assert CR.creature_space(s, A_) == 2, "the Leader first, in A"
    assert [CR.creature_space(s, c) for c in (B_, C_, D_)] == [1, 1, 1]
    CR.place_for_rooms(s, [GREEN, GREEN])
    assert sum(s.pool) == 48 - 6 and CR.creature_space(s, C_) + CR.creature_space(s, D_) == 4


def test_placement_example_2_and_option_2b():
    """Option 2B: with no Creature in the reserve, a group of the colour must move 1 room; the room it left is
    then an empty room with a cube (option 1)."""
    s = empty_state(1)
    g = s.g
    B_ = put(s, 2, 4, four(g, GREEN, 0))
    C_ = put(s, 2, 5, four(g, GREEN, 1))
    put(s, 1, 5, four(g, RED, 0))
    creatures(s, C_, dog=1)
    s.cubes[B_] = 1
    s.cubes[C_] = 1
    at(s, 0, put(s, 1, 4, four(g, RED, 1)))
    # no empty green room with a cube (B is empty: option 1 places there)
    assert CR.place_creature(s, GREEN, False) == 1 and CR.creature_space(s, B_) == 1
    # now drain the reserve: option 2B moves the group in C (towards the Hero)
    saved = list(s.pool)
    s.pool = [0] * 8
    assert CR.place_creature(s, GREEN, False) == 3
    s.pool = saved


def test_movement_bonus_room():
    """ "If Creatures move across a room with a +1 or +2 symbol, they immediately gain +1 movement or +2" """
    s = empty_state(1)
    g = s.g
    rooms = corridor(s, 3, range(1, 10))
    # a +2 room turned so that its doorways face E and W, in the corridor's second room
    plus2, rot = next((c, r) for c in range(144) for r in range(4)
                      if g.comp.room_bonus[c] == 2 and g.rot_doors[c][r] & 0b1010 == 0b1010)
    put(s, 3, 2, plus2, rot=rot)
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    CR.slow_movement(s, 1)
    assert s.cre[rooms[3] * 9 + ZOMBIE] == 1, "1 + 2 rooms"


def test_sniff_range_is_four_rooms():
    s = empty_state(1)
    g = s.g
    # a zig-zag so that no straight line reaches the Hero: 5 rooms away
    path = [(3, 1), (4, 1), (4, 2), (5, 2), (5, 3), (6, 3)]
    cells = [put(s, r, c, four(g)) for r, c in path]
    creatures(s, cells[0], zombie=1)
    at(s, 0, cells[5])
    s.cubes = bytearray(len(s.cubes))
    assert CR.target_side(s, cells[0]) == -1
    at(s, 0, cells[4])
    assert CR.target_side(s, cells[0]) == 2


# --------------------------------------------------------------------------------- slow phase choices
def test_lead_player_chooses_group_order_and_tied_side():
    """ "The Lead player freely chooses the order in which the Creatures move"; "In case of a tie, the Lead
    player chooses which Hero the Creatures move towards." """
    s = empty_state(2, auto_slow_phase=False)
    rooms = corridor(s, 3, range(1, 10))
    creatures(s, rooms[4], zombie=1)            # column 5: heroes at columns 2 and 8, both 3 rooms away
    creatures(s, rooms[0], dog=1)
    at(s, 0, rooms[1])
    at(s, 1, rooms[7])
    s.queue = [[Q_SLOW], [Q_RT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_SLOW and s.cur == s.lead and s.opt_kind == CR.OPT_GROUP and s.opts == [rooms[0], rooms[4]]
    s.apply_action(A.OPTION + 1)                # the zombie first
    assert s.opt_kind == CR.OPT_SIDE and s.opts == [1, 3]
    s.apply_action(A.OPTION + 0)                # towards the Hero in the east
    assert s.cre[rooms[5] * 9 + ZOMBIE] == 1


def test_placing_player_chooses_kind_and_option_2b():
    """Example 1, purple's choice: "He chooses to move the Creature in D (see red arrow). He must then place his
    second Creature in D as D is now an empty green room with a cube." """
    s = empty_state(1, auto_slow_phase=False)
    g = s.g
    C_ = put(s, 3, 4, four(g, GREEN, 0))
    D_ = put(s, 3, 5, four(g, GREEN, 1))
    E_ = put(s, 3, 6, four(g, RED, 0))
    creatures(s, C_, zombie=1)
    creatures(s, D_, dog=1)
    s.cubes[C_] = s.cubes[D_] = 1
    at(s, 0, put(s, 3, 7, four(g, RED, 1)))
    del E_
    CR.place_begin(s, 0, [GREEN, GREEN])
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_KIND
    CR.apply_option(s, s.opts.index(BLOODER))
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_PLACE
    assert [CR.PL_MOVE, D_] in [list(o) for o in s.opts] and [CR.PL_ADD, C_] in [list(o) for o in s.opts]
    CR.apply_option(s, [list(o) for o in s.opts].index([CR.PL_MOVE, D_]))
    assert s.cre[cell(s, 3, 6) * 9 + DOG] == 1, "the dog moved towards the Hero"
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_KIND
    CR.apply_option(s, s.opts.index(ZOMBIE))
    assert not CR.place_run(s, True), "option 1 (only D) is forced"
    assert s.cre[D_ * 9 + ZOMBIE] == 1 and s.cre[C_ * 9 + BLOODER] == 0


def test_lead_player_chooses_who_enters_a_partly_full_room():
    """ "move Creatures of the player's choice into the room until the room is full" (a group of 4 into a room of 6)."""
    s = empty_state(1, auto_slow_phase=False)
    rooms = corridor(s, 3, range(2, 6))
    creatures(s, rooms[0], zombie=2, dog=2)
    creatures(s, rooms[1], tricker=6)
    at(s, 0, rooms[3])
    s.queue = [[Q_SLOW], [Q_RT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_SLOW and s.opt_kind == CR.OPT_GROUP and s.opts == [rooms[0], rooms[1]]
    s.apply_action(A.OPTION + 0)               # the group of 4 moves first
    assert s.ph == PH_SLOW and s.opt_kind == CR.OPT_ENTER and s.opts == [ZOMBIE, DOG]
    s.apply_action(A.OPTION + 1)               # a dog goes in: the room is full, the rest stays
    assert s.cre[rooms[0] * 9 + DOG] == 1 and s.cre[rooms[0] * 9 + ZOMBIE] == 2
    tr = [c for c in rooms if s.cre[c * 9 + TRICKER]]
    assert len(tr) == 1 and s.cre[tr[0] * 9 + DOG] == 1, "the dog joined the trickers (who then move on together)"


def test_placing_player_chooses_the_colour_order_and_a_2b_side():
    s = empty_state(1, auto_slow_phase=False)
    g = s.g
    blue = put(s, 2, 2, four(g, BLUE, 0))
    green = put(s, 2, 3, four(g, GREEN, 0))
    s.cubes[blue] = s.cubes[green] = 1
    CR.place_begin(s, 0, [BLUE, GREEN])
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_COLOUR and s.opts == [BLUE, GREEN]
    CR.apply_option(s, 1)                      # green first
    assert s.pl_queue[0][0] == GREEN
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_KIND
    # a 2B move with a tie: a green group between two Heroes at equal distance
    s2 = empty_state(2, auto_slow_phase=False)
    rooms = corridor(s2, 3, range(2, 9), colour=GREEN)
    creatures(s2, rooms[3], zombie=1)
    at(s2, 0, rooms[0])
    at(s2, 1, rooms[6])
    s2.pool = [0] * 8                          # nothing in the reserve: option 2B
    CR.place_begin(s2, 0, [GREEN])
    assert CR.place_run(s2, True) and s2.opt_kind == CR.OPT_MOVE_SIDE and s2.opts == [1, 3]
    CR.apply_option(s2, 1)                     # towards the west
    assert s2.cre[rooms[2] * 9 + ZOMBIE] == 1
    assert not CR.place_run(s2, True)


def test_2b_move_into_a_partly_full_room_the_player_picks_who_goes():
    s = empty_state(1, auto_slow_phase=False)
    rooms = corridor(s, 3, range(2, 7), colour=GREEN)
    creatures(s, rooms[0], zombie=1, dog=1)
    creatures(s, rooms[1], tricker=6)
    at(s, 0, rooms[4])
    s.pool = [0] * 8                           # option 2B only
    CR.place_begin(s, 0, [GREEN])
    assert CR.place_run(s, True) and s.opt_kind == CR.OPT_PLACE
    CR.apply_option(s, [list(o) for o in s.opts].index([CR.PL_MOVE, rooms[0]]))
    assert s.opt_kind == CR.OPT_ENTER_2B and s.opts == [ZOMBIE, DOG]
    CR.apply_option(s, 0)
    assert s.cre[rooms[1] * 9 + ZOMBIE] == 1 and s.cre[rooms[0] * 9 + DOG] == 1 and not s.pl_queue


