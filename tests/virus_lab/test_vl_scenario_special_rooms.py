"""The Scenarios and Spy Mode (with Player vs Player) beside the divided combat, the Morbo wound and the special
rooms: the two sets of options were built apart and merged; these tests switch them on together."""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.experiments.arena import play_game
from virus_envs.virus_lab import child as CH
from virus_envs.virus_lab.components import RK_DRIFT, RK_MULTI, RK_TELEPORT
from virus_envs.virus_lab.game import PH_DRIFT, PH_NONE, Q_NEXT, SCEN_CARD, VirusLabGame
from vl_helpers import at, cell, check_invariants, corridor, creatures, empty_state, put, random_playout_checked

ROOMS = dict(teleport_rooms=True, drifting_rooms=True, multicolored_rooms=True)


def test_card_ids_of_the_grey_cards_and_the_special_rooms():
    """One numbering: the 144 cards of the Room deck, the grey cards (Starting Room 144, Exit Control 145, the
    Scenario room 146: "This is a special card, not part of the Room deck"), then the 8 special room cards."""
    g = VirusLabGame(num_players=2, scenario="reboot", **ROOMS)
    comp = g.comp
    assert SCEN_CARD == 146 and comp.room_name[SCEN_CARD] == "Scenario Room" and not comp.is_room(SCEN_CARD)
    special = sorted(g.teleport_ids | g.multi_ids | g.drift_ids)
    assert special == list(range(147, 155)), "4 Teleport + 2 Multicolored + 2 Drifting cards after the grey ones"
    assert [comp.room_kind[c] for c in special].count(RK_TELEPORT) == 4
    assert [comp.room_kind[c] for c in special].count(RK_MULTI) == 2
    assert [comp.room_kind[c] for c in special].count(RK_DRIFT) == 2
    assert g.room_cards == tuple(range(144)) + tuple(special), "the Scenario room is never dealt"


@pytest.mark.parametrize("scenario", ["reboot", "captive", "save_the_child"])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_games_with_a_scenario_and_the_special_rooms(scenario, n):
    """Random games to the end, invariants and the `to_dict` round trip checked at random steps."""
    g = virus_envs.game("virus_lab_v0", n, scenario=scenario, **ROOMS)
    for seed in range(2):
        s = random_playout_checked(g, seed, every=0.1)
        assert s.is_terminal()
        assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()


@pytest.mark.parametrize("scenario", ["reboot", "captive"])
@pytest.mark.parametrize("n", [1, 2])
def test_heuristic_games_with_a_scenario_and_the_special_rooms(scenario, n):
    g = VirusLabGame(num_players=n, scenario=scenario, morbo=True, **ROOMS)
    for seed in range(2):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated()
        assert g.state_from_dict(st.to_dict()).to_dict() == st.to_dict()


@pytest.mark.parametrize("n", [2, 4])
def test_spy_pvp_with_the_full_advanced_combat_and_morbo(n):
    """Player vs Player is part of Advanced Combat ("only for Spy mode variant"): with `advanced_combat="full"` the
    table holds the PvP actions and the divided combat's, each once; heuristic games end."""
    g = VirusLabGame(num_players=n, spy=True, pvp=True, advanced_combat="full", morbo=True)
    names = g.actions.names
    assert len(set(names)) == len(names) == g.num_actions
    assert g.spy_base < g.pvp_base < g.take_base, "main's Spy and PvP actions first, then the divided combat's"
    assert names[g.pvp_base].startswith("attack player") and names[g.take_base].startswith("take ")
    for seed in range(2):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated()


def test_morbo_and_spy_hidden_facts_and_determinize():
    """The Spy card and the held Clue cards (Spy Mode) and the Wound cards' faces behind their three backs (Morbo)
    are hidden together: a determinized copy keeps seat p's view and resamples both."""
    g = VirusLabGame(num_players=3, spy=True, morbo=True)
    rng = np.random.default_rng(0)
    s = g.new_initial_state(seed=3)
    for _ in range(300):
        if s.is_terminal():
            break
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
    p = 0
    facts = s.hidden_facts(p)
    assert "future chance" in facts
    if s.spy_seat != p and not s.terminal:
        assert "Spy card" in facts
    seen = set()
    for k in range(12):
        d = s.determinize(p, np.random.default_rng(k))
        assert d.view(p) == s.view(p)
        assert np.array_equal(d.observation(p), s.observation(p))
        seen.add((d.spy_seat, tuple(d.wound_deck)))
    assert len(seen) > 1


# -- Drifting rooms and Save the Child ---------------------------------------------------------------------------
def _child_and_drift():
    """Corridor on row 2 (columns 1..9); a Drifting room under its west end at (3, 1); Save the Child."""
    s = empty_state(2, scenario="save_the_child", drifting_rooms=True)
    d1 = sorted(s.g.drift_ids)[0]
    corridor(s, 2, range(1, 10))
    return s, put(s, 3, 1, d1)


def _lead_sub_phase(s):
    s.ph, s.queue = PH_NONE, [[Q_NEXT]]
    s._advance()


def test_the_child_follows_his_hero_out_of_a_drifting_room():
    """ "If a Hero meets the Child, the Child will follow him automatically": a Drifting room holding that Hero
    moves ("if any Creature or Hero is located in this room"), and the Child with him."""
    s, d = _child_and_drift()
    at(s, 0, d)
    s.child = [d, 0, CH.CHILD_IN]
    _lead_sub_phase(s)
    assert s.ph == PH_DRIFT
    s.apply_action(s.g.actions.parse("drift room W"))
    west = cell(s, 3, 0)
    assert s.pos[0] == west and CH.cell_of(s) == west and s.card[d] == -1
    check_invariants(s)


def test_a_child_alone_does_not_make_a_drifting_room_move():
    """The rule names "any Creature or Hero" in the room: the Child alone is neither, the room stays (the Child
    then makes his own calm move at the Event phase, another rule)."""
    s, d = _child_and_drift()
    s.child = [d, -1, CH.CHILD_IN]
    _lead_sub_phase(s)
    assert s.ph != PH_DRIFT and s.card[d] == sorted(s.g.drift_ids)[0]


def test_a_drifting_room_never_moves_onto_the_scenario_room():
    """ "move this room to a free adjacent space": the Scenario room's space is not free. The room at (3, 1) with
    a Creature in it, the Scenario room west of it at (3, 0): only south and the corridor's sides stay open."""
    s, d = _child_and_drift()
    west = cell(s, 3, 0)
    s._put(west, SCEN_CARD, 0, False)
    s.sc_cell = west
    creatures(s, d, zombie=1)
    _lead_sub_phase(s)
    assert s.ph == PH_DRIFT
    names = [s.g.actions.names[a] for a in np.flatnonzero(s.legal_action_mask()) if
             s.g.actions.names[a].startswith("drift")]
    assert "drift room W" not in names and "drift room S" in names
    s.apply_action(s.g.actions.parse("drift room S"))
    assert s.card[west] == SCEN_CARD and s.sc_cell == west


def test_a_hero_without_opponents_may_attack_a_player():
    """Player vs Player: "A player not involved in combat may attack another player"; the divided combat: "The other
    player, with zero opponents, will be considered out of combat and will be able to take any action". One Zombie,
    two Heroes: the Lead player's Hero (seat 0) takes it; seat 1 may attack seat 0 (distance 0), seat 0 may not."""
    s = empty_state(2, advanced_combat="full", spy=True, pvp=True)
    rooms = corridor(s, 2, range(1, 8))
    for p in range(2):
        at(s, p, rooms[2])
    creatures(s, rooms[2], zombie=1)

    def attacks():
        return sorted(s.g.actions.names[a] for a in s.legal_actions() if s.g.actions.names[a].startswith("attack pl"))
    assert s.cur == 0 and s.in_combat(0) and attacks() == []
    s.apply_action(s.g.actions.parse("pass"))
    assert s.cur == 1 and not s.in_combat(1)
    assert attacks() == ["attack player 0"]
