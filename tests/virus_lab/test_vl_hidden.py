"""Virus (virus_lab_v0): who knows which card, and `determinize` (issue 12, the information-set half).

Each scenario quotes the rulebook passage that makes a card public or secret, then checks the view, the
observation and what `determinize` keeps or resamples. The generic properties (view, observation and mask kept,
every hidden fact resampled) run on random positions in tests/core/test_contract_properties.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from vl_helpers import empty_state
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.flow import Q_REFILL
from virus_envs.virus_lab.game import PH_EVENT, PH_NONE, PH_REFILL, Q_EVENT, Q_RT, VirusLabGame

SAMPLES = 30


def _samples(s, p, k=SAMPLES, seed=0):
    rng = np.random.default_rng(seed)
    return [s.determinize(p, rng) for _ in range(k)]


def _event_phase(n=2):
    """The Lead player (seat 0) has drawn this turn's Event and decides whether to keep it."""
    s = empty_state(n, auto_display_choices=True)
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_EVENT and s.cur == 0 == s.lead
    return s


# --------------------------------------------------------------------------------- the Event
def test_the_lead_reads_the_event_secretly():
    """ "The Lead player draws an Event card and secretly reads it. If he is satisfied with it, he places it face
    up on the table": until then it is in the Lead's view and observation only."""
    s = _event_phase()
    g, e = s.g, s.event
    name = g.comp.event_name[e]
    assert s.view(0)["event"] == name and s.view(1)["event"] is None
    L = g.layout
    G0, G1 = s.observation(0)[L.slices["globals"]], s.observation(1)[L.slices["globals"]]
    assert G0.sum() > G1.sum(), "the event's effect, number and trap symbol are encoded for the Lead only"
    # the other seat's determinizations put any card there; the Lead's keep it
    others = {t.event for t in _samples(s, 1)}
    assert len(others) > 5 and all(t.event == e for t in _samples(s, 0))
    for t in _samples(s, 1, 5):
        assert t.view(1) == s.view(1) and np.array_equal(t.observation(1), s.observation(1))
    s.apply_action(A.KEEP)
    assert s.view(1)["event"] == name, "placed face up: public"
    assert all(t.event == e for t in _samples(s, 1, 5))


def test_the_event_the_lead_returned_is_known_to_him_at_the_bottom():
    """ "he may spend 1 Advantage to return it to the bottom of the Event deck and draw the next Event card": the
    Lead knows which card lies at the bottom, the others only that one does."""
    s = _event_phase()
    first = s.event
    s.apply_action(A.REDRAW)
    assert s.event_deck[0] == first and s.event_known == [0]
    assert s.view(0)["event_deck_bottom"] == [s.g.comp.event_name[first]]
    assert s.view(1)["event_deck_bottom"] == [None]
    assert all(t.event_deck[0] == first for t in _samples(s, 0))
    assert len({t.event_deck[0] for t in _samples(s, 1)}) > 5


# --------------------------------------------------------------------------------- the Room deck
@pytest.mark.parametrize("n", [1, 2, 3])
def test_room_cards_removed_at_setup_are_unknown_to_everybody(n):
    """ "3-player game: Randomly remove 20 Room cards"; 2 and 1 players remove Research Lab and normal cards per
    colour, face down: nobody knows which. A determinization may put a removed card into the deck (and a deck
    card out), never the public top card."""
    s = VirusLabGame(num_players=n).new_initial_state(seed=4)
    out = set(s.room_out)
    assert len(out) == {3: 20, 2: 52, 1: 80}[n]
    top = s.room_deck[-1]
    mixed = set()
    for t in _samples(s, 0):
        assert t.room_deck[-1] == top and len(t.room_deck) == len(s.room_deck) and len(t.room_out) == len(out)
        assert sorted(t.room_deck + t.room_out) == sorted(s.room_deck + s.room_out)
        mixed |= set(t.room_deck[:-1]) & out
    assert mixed, "removed cards come back into the sampled deck"
    assert "room_out" not in str(s.view(0)) and "room deck" in s.hidden_facts(0)


def test_the_top_room_card_is_public():
    """ "Place the Room deck on the table near the other decks with the 'normal room' side face up": its top card
    is in every view and observation, and every determinization keeps it."""
    s = VirusLabGame(num_players=4).new_initial_state(seed=2)
    comp, L = s.g.comp, s.g.layout
    top = s.room_deck[-1]
    for p in range(4):
        assert s.view(p)["room_deck_top"] == comp.room_name[top]
        row = s.observation(p)[L.slices["deck_top"]]
        assert row[0] == 1 and row[1] == 1, "a card, face up"
        assert row[2 + comp.room_shape[top]] == 1 and row[7 + comp.room_colour[top]] == 1
        assert [row[18 + d] for d in range(4)] == [(comp.room_doors[top] >> d) & 1 for d in range(4)]
    orders = set()
    for t in _samples(s, 1):
        assert t.room_deck[-1] == top
        orders.add(tuple(t.room_deck))
    assert len(orders) == SAMPLES, "the rest of the deck is resampled"


def test_room_cards_returned_to_the_bottom_stay_there():
    """ "If a player doesn't like a card he may return it to the bottom of the deck": everybody saw it go there."""
    s = empty_state(2, auto_display_choices=True)
    s.disp[0] = s.disp[0][:7]
    top = s.room_deck[-1]
    s.queue = [[Q_REFILL, 0], [Q_RT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_REFILL
    s.apply_action(A.REDRAW)
    assert s.room_deck[0] == top and s.room_known == 1
    for p in (0, 1):
        assert s.view(p)["room_deck_bottom"] == [s.g.comp.room_name[top]]
        assert all(t.room_deck[0] == top for t in _samples(s, p, 10))


# --------------------------------------------------------------------------------- Wound cards
def _face_down_wounds(s, p, k):
    for _ in range(k):
        s._wound(p, True)


def test_wound_backs_are_public_faces_are_not():
    """ "Every time a player draws a Wound card, he must check the back of the next card in the Wound deck": the
    back of each card was seen on top of the deck; "Face-down wounds can never be examined by anyone, even by the
    wounded Hero's player". Determinizations change the faces, never a back."""
    s = empty_state(2)
    comp = s.g.comp
    _face_down_wounds(s, 0, 4)
    _face_down_wounds(s, 1, 2)
    backs = [[comp.wound_heart[w[0]] for w in s.wounds[q]] for q in (0, 1)]
    top = comp.wound_heart[s.wound_deck[-1]]
    assert [w["heart_back"] for w in s.view(1)["heroes"][0]["wounds"]] == backs[0]
    assert all(w["card"] is None for w in s.view(0)["heroes"][0]["wounds"]), "not even their owner"
    faces = set()
    for t in _samples(s, 0):
        assert [[comp.wound_heart[w[0]] for w in t.wounds[q]] for q in (0, 1)] == backs
        assert comp.wound_heart[t.wound_deck[-1]] == top
        faces.add(tuple(w[0] for w in t.wounds[0]))
    assert len(faces) > 5


def test_wound_cards_returned_to_the_bottom_keep_their_place_and_back():
    """ "he may use 1 Advantage to return it to the bottom of the Wound deck": its back stays known (and its face,
    when it was a face-up wound)."""
    s = empty_state(1, auto_display_choices=True)
    comp = s.g.comp
    s._take_wounds(0, 1, face_down=False)
    up = s.wounds[0][-1][0]
    s.apply_action(A.REDRAW)                 # the face-up wound goes to the bottom
    s.apply_action(A.KEEP)
    assert s.wound_deck[0] == up and s.wound_known == [1]
    assert s.view(0)["wound_deck_bottom"] == [{"card": up, "heart_back": comp.wound_heart[up]}]
    assert all(t.wound_deck[0] == up for t in _samples(s, 0, 10))
    s._take_wounds(0, 1, face_down=True)
    down = s.wounds[0][-1][0]
    s.apply_action(A.REDRAW)                 # a face-down wound: only its back is known
    assert s.wound_deck[0] == down and s.wound_known[:2] == [0, 1]
    backs = {comp.wound_heart[t.wound_deck[0]] for t in _samples(s, 0)}
    assert backs == {comp.wound_heart[down]} and all(t.wound_deck[1] == up for t in _samples(s, 0, 5))


def test_a_dead_heros_wounds_are_revealed():
    """ "Wound cards are checked at game end or when the player dies" """
    s = empty_state(2)
    _face_down_wounds(s, 1, s.g.hp)
    assert not s.alive[1]
    cards = [w[0] for w in s.wounds[1]]
    assert [w["card"] for w in s.view(0)["heroes"][1]["wounds"]] == cards
    assert all([w[0] for w in t.wounds[1]] == cards for t in _samples(s, 0, 10))


# --------------------------------------------------------------------------------- Boss cards
def test_boss_cards_nobody_met_are_resampled_a_met_boss_is_kept():
    """ "Keep the Boss card hidden until a Hero interacts with the Boss" """
    s = VirusLabGame(num_players=1, difficulty=3).new_initial_state(seed=1)
    assert len(s.bosses) == 2 and s.boss_seen == []
    true = [b[2] for b in s.bosses]
    seen = {tuple(b[2] for b in t.bosses) for t in _samples(s, 0)}
    assert len(seen) > 5
    s._reveal_bosses(s.bosses[0][0])
    assert all(t.bosses[0][2] == true[0] for t in _samples(s, 0))
    assert s.view(0)["bosses"][0]["hp"] == s.g.comp.boss_hp[true[0]]


def test_hidden_facts_name_the_hidden_components():
    """The components docs/rules/virus_lab.md lists under "Hidden information"."""
    s = _event_phase(2)
    assert set(s.hidden_facts(1)) == {"future chance", "room deck", "event deck", "clue deck", "wound cards",
                                      "Boss cards"}
    assert s.event in s.hidden_facts(1)["event deck"] and s.event not in s.hidden_facts(0)["event deck"]
    s4 = VirusLabGame(num_players=4).new_initial_state(seed=0)
    assert s4.room_out == [] and s4.hidden_facts(0)["room deck"][-1] == -1, "no card removed with 4 Heroes"


def test_the_teams_successes_show_only_while_a_team_attacks():
    """Attacking together, "Each player simultaneously rolls ... these Successes are added together": the sum so far
    is public while the team rolls; once the attack is over the number left in the state means nothing, and the
    observation must not carry it from one team attack to the next (the seed-4 mutation sample's `_setup` 365)."""
    g = VirusLabGame(2)
    rng = np.random.default_rng(0)
    attacking = after = None
    for seed in range(300):
        s = g.new_initial_state(seed=seed)
        was_team = False
        while not s.is_terminal() and (attacking is None or after is None):
            if s.team and attacking is None:
                attacking = s.clone()
            if was_team and not s.team and after is None:
                after = s.clone()
            was_team = bool(s.team)
            s.apply_action(int(rng.choice(s.legal_actions())))
        if attacking is not None and after is not None:
            break
    assert attacking is not None and after is not None

    def with_successes(state, k):
        d = state.to_dict()
        d["team_succ"] = k
        return g.state_from_dict(d)

    for p in range(2):
        # during the attack: 3 and 5 Successes so far are told apart
        assert not np.array_equal(with_successes(attacking, 3).observation(p),
                                  with_successes(attacking, 5).observation(p))
        # after it: whatever number is left, the observation is the same
        np.testing.assert_array_equal(with_successes(after, 0).observation(p), with_successes(after, 5).observation(p))
