"""Walls System expansion (config `walls=True`): scenario tests quoting the rulebook's "Walls System expansion".

Buy ids written out from the price list's order in actions.ITEMS: 5 = "barrier bar", 10 = "barrier" (empty).
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_BUY, VirusLabGame
from vl_helpers import at, creatures, decide, empty_state, four, play_random, put

BUY_BAR, BUY_BARRIER = A.BUY + 5, A.BUY + 10


def _stock(s, p, barriers, bars):
    s.t_bar[p][0] += barriers
    s.bar_pool[0] -= barriers
    s.t_bar[p][1] += bars
    s.bar_pool[1] -= bars
    s._mask = None


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_reserve_one_barrier_and_three_bars_per_hero(n):
    """ "On the Setup place 1 Barrier and 3 bars in the game reserve for each Hero in the game." """
    s = VirusLabGame(num_players=n, walls=True).new_initial_state(seed=1)
    assert s.bar_pool == [n, 3 * n, 0, 0]


def test_bars_bought_singly_for_three_resources():
    """ "Bars are separated elements, so simply players can buy an additional bar (3 resource/bar) when required";
    a bar goes on a Barrier of the stock (3 bars at most: 4 Barriers + 12 bars)."""
    s = empty_state(2, walls=True)
    decide(s, PH_BUY, 0)
    s.res[0] = 30
    m = s.legal_action_mask()
    assert m[BUY_BARRIER] and not m[BUY_BAR], "no Barrier in the stock to add a bar to"
    s.apply_action(BUY_BARRIER)
    for _ in range(3):
        s.apply_action(BUY_BAR)
    assert s.t_bar[0][:2] == [1, 3] and s.res[0] == 30 - 4 * 3
    assert not s.legal_action_mask()[BUY_BAR], "3 bars on the one Barrier: no room for a fourth"
    s.apply_action(BUY_BARRIER)
    assert s.legal_action_mask()[BUY_BAR], "a second Barrier takes bars again"
    assert s.bar_pool[:2] == [0, 3]


def test_place_a_barrier_with_bars_then_add_bars():
    """ "The Barrier are used like the respective tiles, but players simply add Bars to their Barrier to improve
    their strength." A Barrier with 2 bars placed in one action (value 4), then 1 more bar on it (value 6)."""
    s = empty_state(1, walls=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    _stock(s, 0, 1, 3)
    e = s.g.geo.EDGE[c][2]
    m = s.legal_action_mask()
    assert [m[A.BARRIER + 4 * 2 + j] for j in range(4)] == [True] * 4, "the Barrier with 0 to 3 bars"
    s.apply_action(s.g.string_to_action("barrier S x 3"))         # the Barrier and 2 bars
    assert s.barrier[e] == 3 and s.t_bar[0][:2] == [0, 1] and s.stock[0] == 7
    m = s.legal_action_mask()
    assert m[A.BARRIER + 4 * 2] and not m[A.BARRIER + 4 * 2 + 1], "1 bar left in the stock"
    s.apply_action(s.g.string_to_action("barrier S x 1"))
    assert s.barrier[e] == 4 and s.t_bar[0][:2] == [0, 0]
    s.apply_action(A.UNBAR + 2)
    assert s.barrier[e] == 0 and s.bar_pool[:2] == [1, 3], "the Barrier and its bars back to the reserve"


def test_barrier_value_example_with_bars():
    """ "4 Creatures and 1 Leader are in a group. Their Creature group value is 6. A Barrier with 3 bars is located
    in front of them (Barrier value = 6). A new Creature enters the room, increasing the group value to 7; they
    will destroy the Barrier when they move through it." (Return the Barrier to the game reserve.)"""
    s = empty_state(1, walls=True)
    a, b = put(s, 2, 5, four(s.g)), put(s, 1, 5, four(s.g))
    at(s, 0, b)
    _stock(s, 0, 1, 3)
    s.apply_action(s.g.string_to_action("barrier S x 4"))
    e = s.g.geo.EDGE[b][2]
    assert s.barrier[e] == 4
    creatures(s, a, zombie=4, desu=1)
    assert CR.border_holds(s, a, e, b), "value 6 against a group of 6"
    creatures(s, a, dog=1)
    assert not CR.border_holds(s, a, e, b)
    assert CR._open_way(s, a, 0) == b
    assert s.barrier[e] == 0 and s.bar_pool[:2] == [1, 3]


def test_the_3d_walls_change_nothing():
    """ "walls are placed during the Slow phase wherever two adjacent room cards show 2 walls on the same side.
    Walls help players to quickly understand the room situation": no rules effect, so apart from the Barriers the
    same deal plays the same way."""
    a = VirusLabGame(num_players=2).new_initial_state(seed=3)
    b = VirusLabGame(num_players=2, walls=True).new_initial_state(seed=3)
    da, db = a.to_dict(), b.to_dict()
    assert da.pop("bar_pool") == [4, 4, 4, 4] and db.pop("bar_pool") == [2, 6, 0, 0]
    assert da == db


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, walls=True)
    for seed in range(3):
        play_random(g, seed, check=True)
