"""Spy Mode (config `spy=True`): scenario tests quoting the rulebook's "Advanced Elements: SPY MODE" section and its
FAQ answer. Positions are built by hand (vl_helpers); the Spy card is put where each test says.

Clue cards used (data/clues.yaml, the rulebook's list): 0 "A room with 4 doorways", 1 "... 3 doorways", 3 "... 1
doorway".
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs.agents import make as make_agent
from virus_envs.agents.base import decision_for
from virus_envs.virus_lab import spy
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_ACT, PH_CLUE, VirusLabGame
from vl_helpers import RED, YELLOW, at, check_invariants, empty_state, find_card, four, put

FOUR_DOORS, THREE_DOORS, ONE_DOOR = 0, 1, 3
INFECTED, CLEAN = 1, 0              # wound cards with / without the infection symbol (data/wounds.yaml)


def _table(n=2, **cfg):
    """Two rooms besides the grey ones: A (4 doorways, red) at (2, 5), B (1 doorway, yellow) at (4, 5)."""
    s = empty_state(n, spy=True, **cfg)
    a = put(s, 2, 5, four(s.g, RED))
    b = put(s, 4, 5, find_card(s.g, doors=1, colour=YELLOW, lab=False, special=0, bonus=0))
    s.spy_seat = -1
    return s, a, b


def _draw(s, p, card):
    """Seat p completes a Research Lab and draws `card` (put on top of the Clue deck)."""
    s.clue_deck.remove(card)
    s.clue_deck.append(card)
    s.clue_pending = [p, 1]
    assert s._draw_clue()
    s._mask = None
    assert s.ph == PH_CLUE and s.cur == p


def _declare(s, p, card, declared):
    _draw(s, p, card)
    s.apply_action(A.KEEP)
    s.apply_action(s.g.spy_base + declared)


def test_spy_deck_x_hero_cards_plus_one_spy_card():
    """ "Create a Spy deck with X Hero cards ... plus 1 Spy card ... give a single random card to each player ... The
    remaining card is NOT revealed and should be returned face down to the game box": with 3 Heroes the Spy card
    goes to each seat or to the box, 1 time in 4 each (200 deals: each place between 25 and 80 times)."""
    g = VirusLabGame(num_players=3, spy=True)
    counts = {q: 0 for q in (-1, 0, 1, 2)}
    for seed in range(200):
        counts[g.new_initial_state(seed=seed).spy_seat] += 1
    assert all(25 <= k <= 80 for k in counts.values()), counts


def test_each_player_keeps_his_card_secret_until_the_end():
    """ "Each player keeps this card secret until the end of the game": a seat's view says its own card only; a
    Hero's determinize puts the Spy card with another seat or in the box, never with him; the Spy knows every role
    (nothing resampled); at the end every card is shown."""
    s, _, _ = _table(3)
    s.spy_seat = 2
    views = [s.view(p)["spy"] for p in range(3)]
    assert [v["my_card"] for v in views] == ["hero", "hero", "spy"]
    assert all(v["cards"] is None for v in views)
    rng = np.random.default_rng(0)
    seen = {s.determinize(0, rng).spy_seat for _ in range(60)}
    assert seen == {1, 2, -1}
    assert "Spy card" in s.hidden_facts(0) and "Spy card" not in s.hidden_facts(2)
    assert {s.determinize(2, rng).spy_seat for _ in range(20)} == {2}
    obs = s.observation(1)
    for _ in range(5):
        assert np.array_equal(s.determinize(1, rng).observation(1), obs)
    s.terminal = True
    assert s.view(0)["spy"]["cards"] == ["heroes", "heroes", "spy"] and s.view(0)["spy"]["spy_in_box"] is False
    assert "Spy card" not in s.hidden_facts(0)


def test_clue_kept_hidden_and_declared_a_lie_is_legal():
    """ "Each player must keep his Clue cards hidden, but have to tell other players which clues are (obviously the
    Spy will lie). You can take a written note about it": the card drawn is seen by its drawer alone; after keeping
    it he declares any card (all 25 are legal, a lie included); the declaration is public, the card is not."""
    s, _, _ = _table(2)
    _draw(s, 0, FOUR_DOORS)
    assert s.view(0)["clue_drawn"] == FOUR_DOORS and s.view(1)["clue_drawn"] is None
    obs1, view1 = s.observation(1), json.dumps(s.view(1), sort_keys=True)
    s.clue_pending[2] = THREE_DOORS          # another card drawn: seat 1 sees no difference
    assert np.array_equal(s.observation(1), obs1) and json.dumps(s.view(1), sort_keys=True) == view1
    s.clue_pending[2] = FOUR_DOORS
    s.apply_action(A.KEEP)
    m = s.legal_action_mask()
    b = s.g.spy_base
    assert m[b:b + 25].all() and m.sum() == 25
    assert s.view(0)["spy"]["to_declare"] and not s.view(1)["spy"]["to_declare"]
    s.apply_action(b + ONE_DOOR)             # a lie
    assert s.spy_hand == [[FOUR_DOORS], []] and s.spy_decl == [[ONE_DOOR], []]
    assert s.view(1)["spy"]["declared"] == [[ONE_DOOR], []] and s.view(1)["spy"]["my_clues"] == []
    assert s.view(0)["spy"]["my_clues"] == [FOUR_DOORS] and s.view(1)["spy"]["held"] == [1, 0]
    assert s.clues == [], "nothing is face up"
    assert s.ph == PH_ACT
    assert "held Clue cards" in s.hidden_facts(1) and "held Clue cards" not in s.hidden_facts(0)
    rng = np.random.default_rng(1)
    hands = {s.determinize(1, rng).spy_hand[0][0] for _ in range(40)}
    assert len(hands) > 5, "seat 1 does not know seat 0's card"
    assert {s.determinize(0, rng).spy_hand[0][0] for _ in range(10)} == {FOUR_DOORS}
    check_invariants(s)


def test_antidote_placed_where_the_statements_point():
    """ "If at any time during the Real Time phase what players have stated about their Clue cards points to a unique
    room on the table, place the Antidote tile on that room": seat 0 states "A room with 1 doorway"; B is the only
    coloured room with 1 doorway."""
    s, a, b = _table(2)
    _declare(s, 0, ONE_DOOR, ONE_DOOR)
    assert s.antidote_cell == b


def test_a_lie_misplaces_the_antidote_and_the_verification_removes_it():
    """ "When the Antidote token is taken by a player, all players must show their clue cards for a verification. If
    the current Antidote position is wrong ... remove the Antidote tile and continue playing. Revealed cards remain
    face-up on the table": the Spy (seat 1) holds "4 doorways" and states "1 doorway"; the Antidote goes to B; seat 0
    takes it there: the cards are shown, the position is wrong (the card points to A), the Antidote leaves seat 0;
    the face-up card then places it in A."""
    s, a, b = _table(2)
    s.spy_seat = 1
    _declare(s, 1, FOUR_DOORS, ONE_DOOR)
    assert s.antidote_cell == b
    at(s, 0, b)
    s.ph, s.cur = PH_ACT, 0
    s._mask = None
    s.apply_action(A.PICKUP)
    assert s.antidote_holder == -1, "removed from the Hero who took it"
    assert s.clues == [FOUR_DOORS] and s.spy_hand == [[], []] and s.spy_decl == [[], []]
    assert s.spy_log == [[0, b, 0, [[], [ONE_DOOR]], [[], [FOUR_DOORS]]]]
    assert s.view(0)["spy"]["verifications"] == [[0, b, False, [[], [ONE_DOOR]], [[], [FOUR_DOORS]]]]
    assert s.antidote_cell == a, "the face-up card now points to A alone"
    check_invariants(s)


def test_a_true_statement_keeps_the_antidote():
    s, a, b = _table(2)
    _declare(s, 0, ONE_DOOR, ONE_DOOR)
    at(s, 1, b)
    s.ph, s.cur = PH_ACT, 1
    s._mask = None
    s.apply_action(A.PICKUP)
    assert s.antidote_holder == 1 and s.clues == [ONE_DOOR] and s.spy_log[0][2] == 1


def test_incompatible_cards_all_discarded_and_the_antidote_removed():
    """FAQ: "If clue cards are incompatible in Spy mode, which cards are discarded? All incompatible cards must be
    discarded." "if clues are not sufficient to determine a unique position, remove the Antidote tile": seat 0 holds
    and states "4 doorways"; seat 1 holds "3 doorways" and states "4 doorways" too (a lie), so the Antidote goes to
    A; at the verification the two cards shown are incompatible: both go to the bottom of the deck in everybody's
    sight, no Clue is left face up and the Antidote is removed."""
    s, a, b = _table(2)
    _declare(s, 0, FOUR_DOORS, FOUR_DOORS)
    _declare(s, 1, THREE_DOORS, FOUR_DOORS)
    assert s.antidote_cell == a
    at(s, 0, a)
    s.ph, s.cur = PH_ACT, 0
    s._mask = None
    s.apply_action(A.PICKUP)
    assert s.clues == [] and s.antidote_holder == -1 and s.antidote_cell == -1
    assert sorted(s.clue_deck[:2]) == [FOUR_DOORS, THREE_DOORS] and s.clue_known == 2
    assert sorted(s.view(1)["clue_deck_bottom"]) == [FOUR_DOORS, THREE_DOORS], "discarded in everybody's sight"


def test_a_clue_redrawn_goes_to_the_bottom_seen_by_its_drawer_alone():
    """The redraw Advantage ("he may use 2 Advantages to return it to the bottom of the deck and draw a new Clue
    card") in Spy Mode: the card returned was seen by the drawer only, so only he knows it lies at the bottom."""
    s, _, _ = _table(2)
    _draw(s, 0, ONE_DOOR)
    s.g.auto_disp = True                    # the display cards the Advantages flip: the default choice
    s.apply_action(A.REDRAW)
    assert s.clue_deck[0] == ONE_DOOR and s.clue_known == 1 and s.spy_bottom == [0]
    assert s.view(0)["clue_deck_bottom"] == [ONE_DOOR] and s.view(1)["clue_deck_bottom"] == [None]
    rng = np.random.default_rng(2)
    assert {s.determinize(1, rng).clue_deck[0] for _ in range(40)} != {ONE_DOOR}
    assert {s.determinize(0, rng).clue_deck[0] for _ in range(10)} == {ONE_DOOR}


def _end(s, exit_order, antidote_out=-1, infected=(), dead=()):
    s.terminal = True
    s.exit_order = list(exit_order)
    for q in exit_order:
        s.exited[q], s.pos[q] = True, -1
    s.antidote_out = antidote_out
    s.antidote_holder = -1
    for q in infected:
        s.wound_deck.remove(INFECTED)
        s.wounds[q].append([INFECTED, True, False])
    for q in dead:
        s.alive[q] = False
    s.won = antidote_out >= 0 and s.alive[antidote_out]


@pytest.mark.parametrize("case,winner", [
    # "He flees the map uninfected and the Antidote and all Heroes remain inside the map."
    (dict(exit_order=[2]), "spy"),
    (dict(exit_order=[2], infected=[2]), None),
    (dict(exit_order=[2, 0]), None),
    # "He leaves the map (infected or not) with the Antidote and the other players remain inside."
    (dict(exit_order=[2], antidote_out=2, infected=[2]), "spy"),
    # "He leaves the map (infected or not) with the Antidote and all other players who exit are infected."
    (dict(exit_order=[0, 2], antidote_out=2, infected=[0]), "spy"),
    # a Hero who exits uninfected: not the Spy's win; the Antidote is out: the Heroes' normal victory
    (dict(exit_order=[0, 2], antidote_out=2), "heroes"),
    # "At least 1 Hero must exit the map with the Antidote": the Heroes win, the Spy inside
    (dict(exit_order=[1], antidote_out=1), "heroes"),
    # the Spy dead after leaving with the Antidote (FAQ: "If this makes the Hero who exited with the antidote die,
    # do the Heroes still win? No."): nobody wins
    (dict(exit_order=[2], antidote_out=2, dead=[2]), None),
    (dict(exit_order=[]), None),
])
def test_the_spy_victory_conditions(case, winner):
    """ "The player taking the role of the Spy and wins if one of the following conditions occur" (the three quoted
    in the cases); the Heroes win by the normal conditions otherwise; returns per side: +1 for each seat of the
    winning side, -1 for the others (all -1 when nobody wins)."""
    s, _, _ = _table(3)
    s.spy_seat = 2
    _end(s, **case)
    assert spy.winner(s) == winner
    want = {"spy": [-1, -1, 1], "heroes": [1, 1, -1], None: [-1, -1, -1]}[winner]
    assert s.returns().tolist() == want
    assert s.scores().tolist() == [max(0, x) for x in want]
    assert s.sides() == ["heroes", "heroes", "spy"]


def test_without_a_spy_the_heroes_play_the_normal_game_and_rankings_stay():
    """The Spy card in the box: every seat a Hero, the normal victory; "The Spy variant is compatible with the
    Ranking players modality": the Heroes ranked by the rulebook, the Spy last; a winning Spy first."""
    s, _, _ = _table(3)
    _end(s, exit_order=[0, 1], antidote_out=1)
    assert s.sides() == ["heroes"] * 3 and s.returns().tolist() == [1, 1, 1]
    assert s.ranking() == [1, 0, 2]
    s, _, _ = _table(3)
    s.spy_seat = 0
    _end(s, exit_order=[0, 1], antidote_out=1)
    assert s.ranking() == [1, 2, 0], "the Heroes first, the Spy last"
    s, _, _ = _table(3)
    s.spy_seat = 1
    _end(s, exit_order=[1], antidote_out=1)
    assert s.ranking()[0] == 1 and s.returns().tolist() == [-1, 1, -1]


def test_config():
    g = VirusLabGame(num_players=3, spy=True)
    assert g.cooperative is False and VirusLabGame(num_players=3).cooperative is True
    assert VirusLabGame(num_players=2).new_initial_state(seed=0).sides() is None
    # "X Hero cards ... where X is the number of Heroes": one Hero with a Boss player has nobody to spy on
    for n, cfg, key in [(2, {"pvp": True}, "pvp"), (1, {"spy": True}, "spy"),
                        (2, {"spy": True, "boss_players": 1}, "spy")]:
        with pytest.raises(ValueError, match=key):
            VirusLabGame(num_players=n, **cfg)
    # Spy Mode in a campaign game and in a whole campaign (its XP rule: test_vl_campaign_sides.py)
    assert VirusLabGame(num_players=2, spy=True, campaign=True).spy
    assert not VirusLabGame(num_players=2, spy=True, campaign_games=2).cooperative


def test_sizes():
    """The base ids and blocks keep their places; Spy Mode appends 25 declarations and the `spy` block."""
    base = VirusLabGame(num_players=2)
    g = VirusLabGame(num_players=2, spy=True)
    assert g.num_actions == base.num_actions + 25 == 1161
    assert g.actions.name(1136) == "declare clue 0" and g.actions.name(1160) == "declare clue 24"
    assert g.observation_shape[0] == base.observation_shape[0] + spy.SPY_F == 8293 + 139    # 1 + 4 + 1 + 4 x 25 + 4 + 25 + 4


def test_heuristic_declares_the_truth_and_the_spy_a_plausible_lie():
    """An honest Hero declares the card he holds; the Spy declares a card that is not his, compatible with what is
    stated and leaving a room that meets it all (agents/virus_lab_spy.py)."""
    s, a, b = _table(2)
    s.spy_seat = 1
    for p, want_truth in ((0, True), (1, False)):
        _draw(s, p, FOUR_DOORS if p == 0 else ONE_DOOR)
        s.apply_action(A.KEEP)
        bot = make_agent("heuristic", s.g, seed=0)
        act = bot.act(decision_for(s))
        declared = act - s.g.spy_base
        held = s.clue_pending[2]
        assert (declared == held) == want_truth
        s.apply_action(act)
        if not want_truth:
            stated = spy.stated(s)
            assert not any(s.g.incompatible[declared][x] for x in stated if x != declared)
            assert spy.candidates(s, stated)


@pytest.mark.parametrize("n", [2, 3])
def test_heuristic_team_plays_spy_mode_legally(n):
    """Whole games with the heuristic in every seat (`spy` and `pvp` on): every action legal, the invariants hold, a
    Hero's declarations are his cards."""
    g = virus_envs.game("virus_lab_v0", n, spy=True, pvp=True, difficulty=1)
    for seed in range(2):
        s = g.new_initial_state(seed=seed)
        bots = [make_agent("heuristic", g, seed=seed) for _ in range(n)]
        steps = 0
        while not s.is_terminal():
            a = bots[s.current_player()].act(decision_for(s))
            assert s.legal_action_mask()[a]
            s.apply_action(a)
            steps += 1
            if steps % 97 == 0:
                check_invariants(s)
        for q in range(n):
            if q != s.spy_seat:
                assert sorted(s.spy_decl[q]) == sorted(s.spy_hand[q])
                assert all(sorted(x[3][q]) == sorted(x[4][q]) for x in s.spy_log)
        assert len(s.returns()) == n and s.sides() is not None


@pytest.mark.parametrize("field,value,named", [
    ("spy_seat", 3, "spy_seat"),
    ("spy_decl", [[ONE_DOOR], []], "spy_decl[0]"),           # a declaration without a card held
    ("spy_hand", [[FOUR_DOORS], []], "spy_decl[0]"),          # a card held without its declaration
    ("spy_wait", 1, "spy_wait"),
    ("spy_bottom", [0], "spy_bottom"),
    ("spy_log", [[0, 5, 1, [[]], [[]]]], "spy_log[0]"),
])
def test_loader_names_the_spy_field_at_fault(field, value, named):
    s = VirusLabGame(num_players=2, spy=True).new_initial_state(seed=0)
    d = json.loads(json.dumps(s.to_dict()))
    d[field] = value
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        s.g.state_from_dict(d)


def test_loader_counts_the_clue_cards_held():
    """Every Clue card is in one place: a card both in a hand and in the deck is refused."""
    s = VirusLabGame(num_players=2, spy=True).new_initial_state(seed=0)
    s.clue_deck.remove(FOUR_DOORS)
    s.spy_hand[0].append(FOUR_DOORS)
    s.spy_decl[0].append(ONE_DOOR)
    d = json.loads(json.dumps(s.to_dict()))
    assert s.g.state_from_dict(d).to_dict() == s.to_dict()
    d["clue_deck"].append(FOUR_DOORS)
    with pytest.raises(ValueError, match="clue card"):
        s.g.state_from_dict(d)


@pytest.mark.parametrize("reading,stands", [("unique", False), ("holds", True)])
def test_the_verification_on_a_table_grown_since_the_placement(reading, stands):
    """ "If the current Antidote position is wrong or if clues are not sufficient to determine a unique position,
    remove the Antidote tile": a true statement ("1 doorway") placed the Antidote in B; a second 1-doorway room
    explored since meets the card too. `spy_verify="unique"` (the literal reading): the card no longer singles out
    B, the Antidote is removed; `"holds"`: B meets the card, the position stands."""
    s, a, b = _table(2, spy_verify=reading)
    _declare(s, 0, ONE_DOOR, ONE_DOOR)
    assert s.antidote_cell == b
    put(s, 6, 5, find_card(s.g, doors=1, colour=RED, lab=False, special=0, bonus=0))
    at(s, 1, b)
    s.ph, s.cur = PH_ACT, 1
    s._mask = None
    s.apply_action(A.PICKUP)
    assert (s.antidote_holder == 1) == stands and s.spy_log[0][2] == int(stands)


@pytest.mark.parametrize("exit_order,antidote_out,want", [
    ([2], 2, "spy"),        # the Spy leaves with the Antidote, the Computer Room still on: his win stands
    ([2], -1, "spy"),       # he flees uninfected, the Antidote inside
    ([1], 1, None),         # a Hero leaves with the Antidote, the Computer Room still on: not the Heroes' victory
])
def test_the_spy_ignores_the_scenario_requirement_the_heroes_do_not(exit_order, antidote_out, want):
    """Reboot: "Scenario Goal: Deactivate the Computer Room and achieve the normal game victory conditions. The Spy
    ignores this Scenario's requirement." With Spy Mode and the Reboot scenario together, the Computer Room still
    active, the Spy's victory conditions are all that count for him, while the Heroes' normal victory is not
    enough."""
    s = empty_state(3, spy=True, scenario="reboot")
    s.spy_seat = 2
    assert not s.sc_off
    s.exit_order = list(exit_order)
    for q in exit_order:
        s.exited[q], s.pos[q] = True, -1
    s.antidote_out, s.antidote_holder = antidote_out, -1
    s._finish()
    assert spy.winner(s) == want
    assert s.sides() == ["heroes", "heroes", "spy"]
