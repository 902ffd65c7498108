"""Legend tiles (config `legend=True`): scenario tests quoting the rulebook's "LEGEND TILES" section.

Default groups (`legend_tiles`): red = Zombies + Desu, yellow = Dogs + Mutant, blue = Blooders + Verduko,
green = Trickers + Executioner (written out here, not read from the engine).
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.game import PH_SLOW, Q_PLACE_P, Q_RT, VirusLabGame
from vl_helpers import (BLOODER, DESU, DOG, EXECUTIONER, GREEN, MUTANT, RED, TRICKER, YELLOW, ZOMBIE, at,
                        corridor, creatures, empty_state, four, play_random, put, check_invariants)


def _cubes(s, p, cells):
    for c in cells:
        s.cubes[c * s.n + p] = 1
        s.stock[p] -= 1


def _place_for(s, p):
    """Run seat p's "Place new Creatures" step (then stop at the next Real Time phase)."""
    s.queue = [[Q_PLACE_P, p], [Q_RT]]
    s.ph = 0
    s._mask = None
    s._advance()


def _kinds(s, c):
    return [s.cre[c * 9 + k] for k in range(9)]


def test_two_green_rooms_and_one_red_room():
    """ "if you activated 2 green rooms and 1 red room, you must add 2 Creatures from the green group and 1 from
    the red group." """
    s = empty_state(1, legend=True)
    g1, r1, g2 = put(s, 1, 4, four(s.g, GREEN, 0)), put(s, 1, 5, four(s.g, RED, 0)), put(s, 1, 6, four(s.g, GREEN, 1))
    _cubes(s, 0, [g1, r1, g2])
    _place_for(s, 0)
    assert s.cre[g1 * 9 + TRICKER] == 1 and s.cre[g2 * 9 + TRICKER] == 1, "green rooms: the green group (Trickers)"
    assert s.cre[r1 * 9 + ZOMBIE] == 1, "the red room: the red group (Zombies)"
    assert sum(s.cre) == 3


def test_without_legend_tiles_the_kind_is_free():
    """The base game: "Players may freely choose which Creatures to take" (default: most left), so the same three
    rooms do not all follow the colour groups above."""
    s = empty_state(1)
    g1, r1, g2 = put(s, 1, 4, four(s.g, GREEN, 0)), put(s, 1, 5, four(s.g, RED, 0)), put(s, 1, 6, four(s.g, GREEN, 1))
    _cubes(s, 0, [g1, r1, g2])
    _place_for(s, 0)
    assert sum(s.cre) == 3
    assert not (s.cre[g1 * 9 + TRICKER] and s.cre[g2 * 9 + TRICKER] and s.cre[r1 * 9 + ZOMBIE])


def test_the_leader_due_comes_from_the_colour_group():
    """ "For every 4 Creatures that must be placed by a single player, 1 must be a Leader and is placed first";
    "Split Leader miniatures between each group": four yellow rooms give the yellow group's Leader (Mutant) and
    three Dogs."""
    s = empty_state(1, legend=True)
    rooms = corridor(s, 1, range(3, 8), YELLOW)
    _cubes(s, 0, rooms[:4])
    _place_for(s, 0)
    placed = [_kinds(s, c) for c in rooms]
    assert sum(row[MUTANT] for row in placed) == 1 and sum(row[DOG] for row in placed) == 3
    assert sum(sum(row) for row in placed) == 4
    assert placed[0][MUTANT] == 1, "the Leader is placed first (option 1: the lowest room)"


def test_group_exhausted_moves_creatures_of_the_legend_group():
    """ "If there are no more Creatures available in the corresponding group, you must move Creatures of
    corresponding Legend group instead." No Trickers or Executioners left: a green room's Creature is not added;
    the green group's Creatures (the Tricker) move 1 room (option 2B), the Zombie group in a green room stays."""
    s = empty_state(1, legend=True)
    rooms = corridor(s, 1, range(3, 8), GREEN)      # (1,3) .. (1,7); the Hero in the Starting Room (0,5)
    creatures(s, rooms[0], zombie=1)
    creatures(s, rooms[4], tricker=1)
    s.pool[TRICKER] = s.pool[EXECUTIONER] = 0
    CR.place_for_rooms(s, [GREEN])
    assert s.cre[rooms[0] * 9 + ZOMBIE] == 1, "the Zombie group is not of the green Legend group"
    assert s.cre[rooms[4] * 9 + TRICKER] == 0 and s.cre[rooms[3] * 9 + TRICKER] == 1, "the Tricker moved toward the Hero"
    assert sum(s.cre) == 2, "no Creature added"


def test_the_placing_player_chooses_among_the_group_leaders():
    """ "Split Leader miniatures between each group, as you prefer" (`legend_tiles`): with Desu and Mutant in the
    red group, the Leader due for red rooms is one of those two, the player's choice (`auto_slow_phase=False`)."""
    s = empty_state(1, legend=True, auto_slow_phase=False,
                    legend_tiles="zombie+desu+mutant,dog+verduko,blooder+executioner,tricker")
    rooms = corridor(s, 1, range(3, 8), RED)
    _cubes(s, 0, rooms[:4])
    _place_for(s, 0)
    assert s.ph == PH_SLOW and s.opt_kind == CR.OPT_KIND and sorted(s.opts) == [DESU, MUTANT]
    s.apply_action(s.legal_actions()[1])
    while s.ph == PH_SLOW:
        s.apply_action(s.legal_actions()[0])
    got = [sum(s.cre[c * 9 + k] for c in rooms) for k in range(9)]
    assert got[MUTANT] == 1 and got[ZOMBIE] == 3 and got[DOG] == got[BLOODER] == got[DESU] == 0


@pytest.mark.parametrize("bad", ["zombie,dog,blooder", "desu+zombie,dog+mutant,blooder+verduko,tricker+executioner",
                                 "zombie+desu,zombie+mutant,blooder+verduko,tricker+executioner",
                                 "zombie+desu,dog,blooder+verduko,tricker+executioner", "orc,dog,blooder,tricker"])
def test_bad_legend_tiles_name_the_key(bad):
    with pytest.raises(ValueError, match="legend_tiles"):
        VirusLabGame(num_players=2, legend=True, legend_tiles=bad)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, legend=True, auto_slow_phase=n != 4)
    for seed in range(3):
        play_random(g, seed, check=True)
