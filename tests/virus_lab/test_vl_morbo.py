"""Special contents: the Morbo wound (config `morbo=True`), scenario tests quoting the rulebook:

"Morbo wounds* (1 card). If the back of this card appears when a player draws a Wound card, the player must place
the drawn card over his player board. This player is now infected by the "Morbo". During the Wounds sub-phase of the
Turn-End phase, all players in the same room as a Morbo infected player must draw a face down Wound card."
"""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs
from virus_envs.virus_lab.game import PH_NONE, Q_DEEP, Q_RT
from vl_helpers import at, check_invariants, corridor, empty_state, keep_wounds

MORBO = 25          # the 26th Wound card (data/wounds.yaml, special_contents.morbo)


def _morbo_state(n=3):
    s = empty_state(n, morbo=True)
    rooms = corridor(s, 2, range(1, 5))
    return s, rooms


def _give_morbo(s, p):
    s.wound_deck.remove(MORBO)
    s.wounds[p].append([MORBO, False, False])
    s._mask = None


def _turn_end(s):
    """Run the Turn End's Wounds sub-phase (deep wounds, the Morbo), then the next Real Time phase."""
    s.ph, s.queue = PH_NONE, [[Q_DEEP], [Q_RT]]
    s._advance()
    keep_wounds(s)


def test_one_card_more_in_the_wound_deck_only_with_the_option():
    """ "Morbo wounds* (1 card)": 26 Wound cards with the option, the base game's 25 without."""
    assert len(virus_envs.game("virus_lab_v0", 2).new_initial_state(seed=1).wound_deck) == 25
    s = virus_envs.game("virus_lab_v0", 2, morbo=True).new_initial_state(seed=1)
    assert len(s.wound_deck) == 26 and MORBO in s.wound_deck


def test_the_drawn_morbo_card_goes_over_the_player_board():
    """ "the player must place the drawn card over his player board. This player is now infected by the Morbo":
    drawn as a face-down wound (a Creature's Damage point), it lies face up in everybody's sight."""
    s, rooms = _morbo_state(2)
    s.wound_deck.remove(MORBO)
    s.wound_deck.append(MORBO)
    assert s.view(1)["wound_top_morbo"], "its back is seen on the top of the deck"
    s._wound(0, True)
    assert s.wounds[0][-1][:2] == [MORBO, False]
    assert s.view(1)["morbo_infected"] == [True, False]


def test_the_wounds_sub_phase_infects_the_heroes_of_his_room():
    """ "all players in the same room as a Morbo infected player must draw a face down Wound card": seat 1 (same
    room) draws one face-down card; seat 2 (next room) and the infected seat 0 draw none."""
    s, rooms = _morbo_state(3)
    at(s, 0, rooms[1])
    at(s, 1, rooms[1])
    at(s, 2, rooms[2])
    _give_morbo(s, 0)
    _turn_end(s)
    assert [len(w) for w in s.wounds] == [1, 1, 0]
    assert s.wounds[1][0][1] is True, "face down"
    check_invariants(s)


def test_without_the_morbo_nobody_draws():
    s, rooms = _morbo_state(2)
    at(s, 0, rooms[1])
    at(s, 1, rooms[1])
    _turn_end(s)
    assert [len(w) for w in s.wounds] == [0, 0]


def test_determinize_keeps_the_morbo_back_on_top():
    """The top Wound card's back is public: a Morbo back on top stays the Morbo card in every resampled world;
    one level down it moves."""
    s, rooms = _morbo_state(2)
    s.wound_deck.remove(MORBO)
    s.wound_deck.append(MORBO)
    rng = np.random.default_rng(0)
    assert all(s.determinize(1, rng).wound_deck[-1] == MORBO for _ in range(20))
    s.wound_deck.insert(-1, s.wound_deck.pop())         # now second from the top
    tops = {s.determinize(1, rng).wound_deck[-2] for _ in range(40)}
    assert len(tops) > 1


def test_the_morbo_card_is_refused_without_the_option():
    g = virus_envs.game("virus_lab_v0", 2)
    d = g.new_initial_state(seed=0).to_dict()
    d["wound_deck"] = d["wound_deck"] + [MORBO]
    with pytest.raises(ValueError, match="wound"):
        g.state_from_dict(d)


def test_sizes():
    base = virus_envs.game("virus_lab_v0", 2)
    g = virus_envs.game("virus_lab_v0", 2, morbo=True)
    assert g.num_actions == base.num_actions
    assert g.observation_shape[0] == base.observation_shape[0] + 5
