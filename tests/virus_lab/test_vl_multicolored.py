"""Special contents: Multicolored rooms (config `multicolored_rooms=True`):

"Multicolored room* (2 cards). This card may be whatever color a player wants it to be any time he must take a
room's color into account."

Each place where the engine counts a room's colour is shown: the Rooms display groups, the room groups of the
resources, Creature placement, the Clues (assumption 51 for the choices made by default).
"""
from __future__ import annotations

import virus_envs
from virus_envs.virus_lab import creatures as CR, special_rooms
from virus_envs.virus_lab.actions import cash_id
from virus_envs.virus_lab.components import CK_GROUP, CK_NEXT, RK_MULTI, shape_of
from virus_envs.virus_lab.game import PH_GAIN
from virus_envs.virus_lab.research import clue_holds
from vl_helpers import BLUE, RED, corridor, empty_state, four, put

NESW = 0b1111


def _multi(s, k=0):
    return s.g.comp.special_ids(RK_MULTI)[k]


def test_the_two_cards_are_dealt_only_with_the_option():
    g = virus_envs.game("virus_lab_v0", 4, multicolored_rooms=True)
    assert len(g.room_cards) == 144 + 2 and set(g.comp.special_ids(RK_MULTI)) <= set(g.room_cards)
    assert len(virus_envs.game("virus_lab_v0", 4).room_cards) == 144


def test_a_display_group_takes_it_as_its_colour():
    """Rooms display groups ("cash k x <shape> <colour>"): a red 4-doorway room and the Multicolored 4-doorway room
    make a pair of red 4-doorway rooms, which the cash discards (3 resources); no blue pair (the red card is not
    blue)."""
    s = empty_state(1, multicolored_rooms=True)
    m = _multi(s)
    assert shape_of(s.g.comp.room_doors[m]) == 4
    red = four(s.g, RED, 3)
    s.disp[0] = [[red, True], [m, True]]
    s.ph, s.cur = PH_GAIN, 0
    s._mask = None
    mask = s.legal_action_mask()
    assert mask[cash_id(4, RED, 2)] and not mask[cash_id(4, BLUE, 2)]
    res = s.res[0]
    s.apply_action(cash_id(4, RED, 2))
    assert s.disp[0] == [] and s.res[0] == res + 3
    s.disp[0] = [[red, True], [four(s.g, BLUE, 3), True]]
    s._mask = None
    assert not s.legal_action_mask()[cash_id(4, RED, 2)], "without it: no red pair"


def test_room_groups_of_the_resources():
    """ "FROM EXPLORATION ...: group size x points": red, Multicolored, red explored in a row is one red group of 3
    (3 rooms x 3 points = 9 resources); with a blue room in the middle, three groups of 1 (3)."""
    for middle, expected in (("multi", 9), ("blue", 3)):
        s = empty_state(1, multicolored_rooms=True)
        rooms = corridor(s, 2, (1, 3))
        mid = put(s, 2, 2, _multi(s) if middle == "multi" else four(s.g, BLUE, 0))
        for c in rooms + [mid]:
            s.explored[c] = 0
        s._start_gain(0)
        assert s.res[0] == expected, middle


def test_creature_placement_any_colour():
    """New Creatures: a red cube room lets a Creature go into the Multicolored room (it may be red); a cube on the
    Multicolored room lets it go into a room of any colour."""
    s = empty_state(1, multicolored_rooms=True)
    m = put(s, 3, 3, _multi(s))
    blue = put(s, 3, 4, four(s.g, BLUE, 0))
    assert CR._col_ok(s, m, RED, False) and not CR._col_ok(s, blue, RED, False)
    assert CR._col_ok(s, blue, special_rooms.placing_colour(s), False)


def test_with_legend_tiles_the_colour_picks_the_group_with_most_creatures_left():
    s = empty_state(1, multicolored_rooms=True, legend=True)
    grp = s.g.legend[BLUE]
    for k in range(8):
        if k not in grp:
            s.pool[k] = 0
    assert special_rooms.placing_colour(s) == BLUE


def test_clues_take_it_as_the_colour_they_name():
    """A Clue "next to a <colour> room" holds beside the Multicolored room for every colour; "a room of a <colour>
    group of 3" holds for the Multicolored room between two rooms of that colour."""
    s = empty_state(1, multicolored_rooms=True)
    comp = s.g.comp
    rooms = corridor(s, 2, (1, 3))
    mid = put(s, 2, 2, _multi(s))
    nxt = [c for c in range(25) if comp.clue_kind[c] == CK_NEXT]
    assert nxt and all(clue_holds(s, c, rooms[0]) for c in nxt)
    grp = [c for c in range(25) if comp.clue_kind[c] == CK_GROUP and comp.clue_arg[c] == RED]
    assert grp and all(clue_holds(s, c, mid) for c in grp)
