"""Virus (virus_lab_v0): the Rooms display choices are the player's decisions (`auto_display_choices=False`).

"When a player takes an Advantage he flips a face-up card of his Rooms display"; "Players may discard from
their Rooms display any group of cards"; death: "Flip 6 room cards face down on the player's Rooms display";
recovering: "flips 1 ... room card(s) from his display face up"; Major Advantage: "restore 3 used room cards".
One scenario per place an Advantage can be taken (the chosen slot is the one flipped, the flow goes on as
before), the discard, the death penalty and the restores; the auto mode reproduces the default exactly.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from vl_helpers import check_invariants, empty_state, put
from virus_envs import IllegalActionError
from virus_envs.virus_lab import encoding
from virus_envs.virus_lab.actions import A, cash_id, discard_id
from virus_envs.virus_lab.display import (default_death_flip_slot, default_discard_slots, default_display_action,
                                          default_flip_slot, default_restore_slot, display_from_view)
from virus_envs.virus_lab.flow import Q_REFILL
from virus_envs.virus_lab.game import (PH_ACT, PH_CLUE, PH_DEATH_FLIP, PH_DISCARD, PH_EVENT, PH_FLIP, PH_GAIN,
                                       PH_NONE, PH_REFILL, PH_RESTORE, PH_RESULT, PH_ROLL, PH_SPEND, PH_WOUND,
                                       PHASES, Q_DEEP, Q_EVENT, Q_NEXT, Q_RESPAWN, Q_RT, VirusLabGame)

RED, YELLOW, BLUE, GREEN = range(4)
DOG = 1


def four(g, colour=RED, k=0):
    got = [c for c in range(144) if g.comp.room_doors[c] == 15 and g.comp.room_colour[c] == colour
           and g.comp.room_lab[c] < 0 and g.comp.room_special[c] == 0 and g.comp.room_bonus[c] == 0]
    return got[k % len(got)]


def down(s, p=0):
    return [i for i, (_, up) in enumerate(s.disp[p]) if not up]


def opened(s):
    """Slots of the pending display choice, read from the mask."""
    m = s.legal_action_mask()
    base = A.DISCARD_SLOT if s.ph == PH_DISCARD else A.FLIP
    return [k for k in range(24) if m[base + k]]


def not_default(s, p=0):
    """An open slot other than the documented default (so the test sees the player's choice matter)."""
    dflt = default_display_action(s.view(p), s.g.comp)
    base = A.DISCARD_SLOT if s.ph == PH_DISCARD else A.FLIP
    other = [k for k in opened(s) if base + k != dflt]
    assert other, "the scenario needs a real choice"
    return other[0]


def flip_pending(s, p=0, action="redraw (advantage)"):
    """The flip decision is pending for p and visible in phase(), view, observation and render."""
    assert s.ph == PH_FLIP and s.current_player() == p
    assert s.phase() == "advantage: flip a face-up card of the Rooms display"
    v = s.view(p)
    dc = v["display_choice"]
    assert dc["kind"] == "flip" and dc["seat"] == p and dc["for"] == action and dc["slots"] == opened(s)
    json.dumps(v)
    o = s.observation(p)
    L = s.g.layout
    G = o[L.slices["globals"]]
    assert G[1 + PH_FLIP] == 1
    D = o[L.slices["display"]].reshape(24, encoding.DF)
    assert [k for k in range(24) if D[k, 16]] == dc["slots"]
    assert "display choice (flip" in str(s)
    # exactly the face-up slots (the mask is exact), never a face-down one
    assert all(s.disp[p][k][1] for k in dc["slots"])
    return dc["slots"]


# --------------------------------------------------------------------------------- each Advantage
def test_event_redraw_flips_the_chosen_card():
    s = empty_state(1)
    e1, e2 = s.event_deck[-1], s.event_deck[-2]
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_EVENT
    s.apply_action(A.REDRAW)
    assert flip_pending(s) == list(range(8)) and s.event == e1, "the Advantage's effect waits for the flip"
    k = not_default(s)
    s.apply_action(A.FLIP + k)
    assert down(s) == [k]
    assert s.ph == PH_EVENT and s.event == e2 and s.event_deck[0] == e1
    s.apply_action(A.KEEP)
    assert s.event_pile == [e2]


def test_clue_redraw_two_flips_then_the_real_time_phase_resumes():
    s = empty_state(1)
    top, nxt = s.clue_deck[-1], s.clue_deck[-2]
    s.clue_pending = [0, 1]
    s.rt_actor = 0
    assert s._draw_clue() and s.ph == PH_CLUE
    s.apply_action(A.REDRAW)
    flip_pending(s)
    assert s.view(0)["display_choice"]["left"] == 2
    s.apply_action(A.FLIP + 3)
    assert s.ph == PH_FLIP and opened(s) == [0, 1, 2, 4, 5, 6, 7]
    s.apply_action(A.FLIP + 6)
    assert down(s) == [3, 6] and s.clue_deck[0] == top and s.ph == PH_CLUE
    s.apply_action(A.KEEP)
    assert s.clues == [nxt] and s.ph == PH_ACT


def test_wound_redraw_in_real_time_resumes_the_action():
    s = empty_state(1)
    comp = s.g.comp
    plain = [w for w in range(25) if not comp.wound_heart[w]]
    s.wound_deck = [w for w in range(25) if w not in plain[:3]] + [plain[2], plain[1], plain[0]]
    s.rt_actor, s.ret = 0, 1                 # inside a Real Time action (RET_RT)
    assert s._take_wounds(0, 1) and s.ph == PH_WOUND
    s.apply_action(A.REDRAW)
    flip_pending(s)
    assert s.wounds[0][0][0] == plain[0]
    s.apply_action(A.FLIP + 5)
    assert down(s) == [5] and s.wounds[0] == [[plain[1], True, False]] and s.wound_deck[0] == plain[0]
    assert s.ph == PH_WOUND
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and len(s.wounds[0]) == 1


def test_wound_redraw_at_turn_end_resumes_the_queue():
    """A deep wound's turn-end wound, redrawn: after the flip and the keep, the turn ends as before."""
    s = empty_state(1)
    s.wounds[0] = [[s.wound_deck.pop(0), False, True]]
    s.queue = [[Q_DEEP], [Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_WOUND
    s.apply_action(A.REDRAW)
    flip_pending(s)
    s.apply_action(A.FLIP + 0)
    assert down(s) == [0] and s.ph == PH_WOUND and len(s.wounds[0]) == 2
    s.apply_action(A.KEEP)
    assert s.turn == 2 and s.ph == PH_EVENT, "the turn ended and the next Event is drawn"


def test_counter_attack_wound_redraw_then_real_time_goes_on():
    """Creature damage after a roll: the Wound card redrawn with the chosen card flipped."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    s.pos[0] = c
    s.cre[c * 9 + DOG] = 1
    s._mask = None
    s.apply_action(A.ATTACK)
    s.apply_action(A.ROLL)
    s.rollres = [0, 1, 0, 0] + [0] * 12
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_WOUND and len(s.wounds[0]) == 1
    s.apply_action(A.REDRAW)
    flip_pending(s)
    s.apply_action(A.FLIP + 2)
    assert down(s) == [2] and s.ph == PH_WOUND and len(s.wounds[0]) == 1
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and s.current_player() == 0


def test_refill_redraw_cannot_flip_the_returned_card():
    s = empty_state(1)
    s.disp[0] = s.disp[0][:7]
    top, nxt = s.room_deck[-1], s.room_deck[-2]
    s.queue = [[Q_REFILL, 0], [Q_RT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_REFILL and s.disp[0][-1] == [top, True]
    s.apply_action(A.REDRAW)
    assert flip_pending(s) == list(range(7)), "slot 7 holds the card being returned"
    with pytest.raises(IllegalActionError):
        s.apply_action(A.FLIP + 7)
    s.apply_action(A.FLIP + 1)
    assert down(s) == [1] and s.room_deck[0] == top and s.disp[0][-1] == [nxt, True] and len(s.disp[0]) == 8
    assert s.ph == PH_REFILL
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and len(s.disp[0]) == 8


@pytest.mark.parametrize("action, before, after", [(A.ADV_CUBE, [1, 1, 2, 0], [2, 0, 2, 0]),
                                                   (A.ADV_BULLET, [2, 0, 1, 1], [2, 0, 2, 0])])
def test_combat_advantage_positive_cube(action, before, after):
    """ "the player may use 1 or more Advantages ... to move 1 negative cube back ... to a positive position" """
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    s.pos[0] = c
    s.cre[c * 9 + DOG] = 3
    s._mask = None
    s.apply_action(A.ATTACK)
    assert s.ph == PH_ROLL
    s.apply_action(A.ROLL)
    s.rollres = before + [0] * 12
    s._mask = None
    s.apply_action(action)
    flip_pending(s, action=s.action_to_string(action))
    assert s.rollres[:4] == before
    s.apply_action(A.FLIP + 4)
    assert down(s) == [4] and s.rollres[:4] == after and s.ph == PH_RESULT
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.succ == 4


def test_advantage_six_resources():
    s = empty_state(1)
    s.ph, s.cur, s.queue = PH_GAIN, 0, [[Q_RT]]
    s._mask = None
    s.apply_action(A.ADV_RES)
    flip_pending(s, action="advantage: 6 resources")
    assert s.res[0] == 0
    s.apply_action(A.FLIP + 7)
    assert down(s) == [7] and s.res[0] == 6 and s.ph == PH_GAIN


def test_no_choice_is_resolved_automatically():
    """One face-up card (or as many as the flips): no decision, the card flips at once."""
    s = empty_state(1)
    for i in range(1, 8):
        s.disp[0][i][1] = False
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_EVENT
    e2 = s.event_deck[-1]
    s.apply_action(A.REDRAW)
    assert s.event == e2 and all(not up for _, up in s.disp[0])


# --------------------------------------------------------------------------------- discard, death, restore
def _corner_cards(g, colour, n, labs=False):
    comp = g.comp
    return [c for c in range(144) if comp.room_shape[c] == 2 and comp.room_colour[c] == colour
            and (comp.room_lab[c] >= 0) == labs][:n]


def test_cash_a_pair_out_of_three_matching_cards():
    """Three red corner cards (one a Research Lab), cash 2: the player picks which two go."""
    s = empty_state(1)
    g = s.g
    plain = _corner_cards(g, RED, 2)
    lab = _corner_cards(g, RED, 1, labs=True)
    other = four(g, BLUE)
    s.disp[0] = [[plain[0], True], [other, True], [lab[0], True], [plain[1], True]]
    s.ph, s.cur, s.queue = PH_GAIN, 0, [[Q_RT]]
    s._mask = None
    s.apply_action(cash_id(2, RED, 2))
    assert s.ph == PH_DISCARD and s.phase() == "turn end: choose the display cards to discard"
    assert opened(s) == [0, 2, 3] and s.res[0] == 0
    dc = s.view(0)["display_choice"]
    assert dc["kind"] == "discard" and dc["left"] == 2 and dc["shape"] == 2 and dc["colour"] == RED
    assert default_discard_slots(display_from_view(s.view(0)["heroes"][0]["display"], g.comp), g.comp, 2, RED,
                                 2) == [0, 3], "the default keeps the Research Lab"
    s.apply_action(A.DISCARD_SLOT + 2)            # the lab card goes (the default would keep it)
    assert s.ph == PH_DISCARD and opened(s) == [0, 3] and s.view(0)["display_choice"]["chosen"] == [2]
    D = s.observation(0)[g.layout.slices["display"]].reshape(24, encoding.DF)
    assert D[2, 15] == 1 and D[0, 16] == 1 and D[2, 16] == 0
    s.apply_action(A.DISCARD_SLOT + 3)
    assert [c for c, _ in s.disp[0]] == [plain[0], other] and s.res[0] == 3 and s.ph == PH_GAIN
    assert s.room_discard[-2:] == [plain[1], lab[0]]


def test_discard_group_with_exactly_k_cards_needs_no_choice():
    s = empty_state(1)
    g = s.g
    red = _corner_cards(g, RED, 1)
    green = _corner_cards(g, GREEN, 1)
    s.disp[0] = [[red[0], True], [green[0], True], [four(g), True]]
    s.ph, s.cur, s.queue = PH_GAIN, 0, [[Q_RT]]
    s._mask = None
    s.apply_action(discard_id(2, 2))
    assert s.ph == PH_GAIN and [c for c, _ in s.disp[0]] == [four(g)] and s.res[0] == 0


def test_death_penalty_the_player_flips_six_cards():
    s = empty_state(2)
    c = put(s, 1, 5, four(s.g))
    s.pos[0] = c
    for _ in range(s.g.hp):
        s._wound(0, True)
    assert not s.alive[0]
    s.queue = [[Q_RESPAWN, 0], [Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_DEATH_FLIP and s.current_player() == 0 and s.alive[0]
    assert s.phase() == "death: flip room cards face down on the Rooms display"
    assert s.view(0)["display_choice"]["kind"] == "death flip" and s.view(0)["display_choice"]["left"] == 6
    for k in (7, 6, 5, 4, 3):
        s.apply_action(A.FLIP + k)
        assert s.ph == PH_DEATH_FLIP
    assert opened(s) == [0, 1, 2]
    s.apply_action(A.FLIP + 1)
    assert down(s) == [1, 3, 4, 5, 6, 7] and s.ph != PH_DEATH_FLIP and s.turn == 2


def test_recover_advantage_restores_the_chosen_card():
    s = empty_state(1)
    for i in (2, 5):
        s.disp[0][i][1] = False
    s._mask = None
    s.apply_action(A.RECOVER)
    assert s.ph == PH_RESTORE and s.current_player() == 0 and opened(s) == [2, 5]
    assert s.view(0)["display_choice"]["kind"] == "restore" and s.stock[0] == 5
    assert default_display_action(s.view(0), s.g.comp) == A.FLIP + 2
    s.apply_action(A.FLIP + 5)
    assert down(s) == [2] and s.ph == PH_ACT


def test_major_advantage_restores_three_chosen_cards():
    s = empty_state(1)
    for i in (0, 2, 4, 6, 7):
        s.disp[0][i][1] = False
    s._mask = None
    s.apply_action(A.MAJOR_CARDS)
    assert s.ph == PH_RESTORE and s.majors[0] == 1
    s.apply_action(A.FLIP + 7)
    s.apply_action(A.FLIP + 2)
    assert opened(s) == [0, 4, 6]
    s.apply_action(A.FLIP + 6)
    assert down(s) == [0, 4] and s.ph == PH_ACT


# --------------------------------------------------------------------------------- contract
def test_illegal_choice_leaves_the_state_unchanged():
    s = empty_state(1)
    s.disp[0][3][1] = False
    s.ph, s.cur, s.queue = PH_GAIN, 0, [[Q_RT]]
    s._mask = None
    s.apply_action(A.ADV_RES)
    before = json.dumps(s.to_dict(), sort_keys=True)
    for a in (A.FLIP + 3, A.FLIP + 8, A.DISCARD_SLOT + 0, A.KEEP):
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(a)
        assert s.action_to_string(a) in str(e.value)
        assert json.dumps(s.to_dict(), sort_keys=True) == before


def test_round_trip_and_determinize_during_a_choice():
    s = empty_state(1)
    s.ph, s.cur, s.queue = PH_GAIN, 0, [[Q_RT]]
    s._mask = None
    s.apply_action(A.ADV_RES)
    assert s.ph == PH_FLIP
    d = json.loads(json.dumps(s.to_dict()))
    s2 = s.g.state_from_dict(d)
    assert json.dumps(s2.to_dict(), sort_keys=True) == json.dumps(s.to_dict(), sort_keys=True)
    det = s.determinize(0, np.random.default_rng(1))
    assert np.array_equal(det.observation(0), s.observation(0))
    assert np.array_equal(det.legal_action_mask(), s.legal_action_mask())
    a = A.FLIP + opened(s)[0]
    c = s.clone()
    c.apply_action(a)
    s2.apply_action(a)
    assert json.dumps(c.to_dict(), sort_keys=True) == json.dumps(s2.to_dict(), sort_keys=True)
    assert s.ph == PH_FLIP, "the clone is independent"


def test_config_key_type_is_checked():
    with pytest.raises(ValueError, match="auto_display_choices"):
        VirusLabGame(num_players=1, auto_display_choices="yes")


def test_new_phases_fit_the_observation():
    """The base game's phases have their slots in `globals`; an advanced element's phase (from PHASE_SLOTS on) is
    encoded in that element's own block, present only with the element on (PH_LATE: the `clock` block, PH_SKILL:
    the `skills` block, PH_SCENARIO: the `scenario` block's pending count, PH_BOSS: the `boss` block)."""
    from virus_envs.virus_lab.flow import PH_BOSS, PH_LATE, PH_SCENARIO, PH_SKILL
    assert [PH_LATE, PH_SKILL, PH_SCENARIO, PH_BOSS] == list(range(encoding.PHASE_SLOTS, len(PHASES)))
    assert A.FLIP == 1088 and A.DISCARD_SLOT == 1112 and VirusLabGame(num_players=1).num_actions == 1136


# --------------------------------------------------------------------------------- the default, exactly
@pytest.mark.parametrize("n, level", [(1, 1), (2, 2), (3, 3), (4, 1)])
def test_auto_mode_equals_the_default_functions_driving_the_choices(n, level):
    """A seeded random game with `auto_display_choices=True`, replayed with the choices as decisions taken by
    `display.default_display_action` (from the view only): the same game, state by state."""
    ga = VirusLabGame(num_players=n, difficulty=level, auto_display_choices=True)
    gm = VirusLabGame(num_players=n, difficulty=level)
    asked = 0
    for seed in range(3):
        sa, sm = ga.new_initial_state(seed=seed), gm.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not sa.is_terminal():
            a = int(rng.choice(sa.legal_actions()))
            sa.apply_action(a)
            sm.apply_action(a)
            while sm.ph >= PH_FLIP and not sm.is_terminal():
                p = sm.current_player()
                sm.apply_action(default_display_action(sm.view(p), gm.comp))
                asked += 1
            da, dm = sa.to_dict(), sm.to_dict()
            da.pop("steps"), dm.pop("steps"), da.pop("rng"), dm.pop("rng")
            assert da == dm
        assert sm.is_terminal() and sa.returns().tolist() == sm.returns().tolist()
    assert asked > 0


def test_default_functions_match_their_documentation():
    g = VirusLabGame(num_players=1)
    comp = g.comp
    plain3 = [c for c in range(144) if comp.room_shape[c] == 3 and comp.room_lab[c] < 0 and not comp.room_special[c]]
    lab3 = [c for c in range(144) if comp.room_shape[c] == 3 and comp.room_lab[c] >= 0]
    one = [c for c in range(144) if comp.room_shape[c] == 0]
    d = [(plain3[0], True), (lab3[0], True), (one[0], True), (lab3[1], True), (plain3[1], False)]
    assert default_flip_slot(d, comp) == 0, "a plain room of the most plentiful shape (3 doorways)"
    assert default_flip_slot(d[1:4], comp) == 2, "no plain one: the last card of that shape"
    assert default_flip_slot(d, comp, limit=1) == 0 and default_flip_slot([(one[0], False)], comp) == -1
    assert default_discard_slots(d, comp, 3, -1, 2) == [0, 1]
    assert default_discard_slots(d, comp, 3, -1, 2, selected=[0]) == [1]
    assert default_death_flip_slot(d) == 0 and default_restore_slot(d) == 4


@pytest.mark.parametrize("n", [2, 4])
def test_manual_playouts_keep_invariants_and_end(n):
    g = VirusLabGame(num_players=n, difficulty=2)
    for seed in range(2):
        s = g.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.ph >= PH_FLIP:
                dc = s.view(s.current_player())["display_choice"]
                assert dc is not None and dc["slots"] == opened(s) and len(dc["slots"]) > dc["left"] > 0
            s.apply_action(int(rng.choice(s.legal_actions())))
            check_invariants(s)
        assert not s.is_truncated()
