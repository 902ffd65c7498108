"""Virus!: Roll & Write: contract, PettingZoo conformance, data validation, seeded random playouts."""
from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.roll_write import encoding
from virus_envs.roll_write.game import RollWriteGame
from virus_envs.roll_write.sheet import load_lab_cards, load_sheet
from rw_oracle import evaluation, research, rulebook_returns

ENV = "roll_write_v0"


# -- PettingZoo ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api_seed_render(n):
    api_test(virus_envs.env(ENV, num_players=n), num_cycles=200)
    seed_test(lambda: virus_envs.env(ENV, num_players=n), num_cycles=100)
    render_test(lambda render_mode=None: virus_envs.env(ENV, num_players=n, render_mode=render_mode))


def test_registered_with_pettingzoo_make():
    import pettingzoo
    e = pettingzoo.make("aec", "virus/roll_write-v0", num_players=3)
    e.reset(seed=0)
    assert e.unwrapped.game.num_players == 3


# -- config ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cfg,key", [
    ({"lab_cards": "A3,B3"}, "lab_cards"),           # 3-player side with 2 players
    ({"lab_cards": "B2,B2"}, "lab_cards"),
    ({"lab_cards": "Z9,B2"}, "lab_cards"),
    ({"rounds": -1}, "rounds"), ({"rounds": 9}, "rounds"),
    ({"first_player": 2}, "first_player"),
    ({"max_turns": 0}, "max_turns"),
    ({"sheet_file": "/nonexistent.yaml"}, "sheet_file"),
    ({"lab_cards_file": "/nonexistent.yaml"}, "lab_cards_file"),
    ({"colour_blind": True}, "colour_blind"),
    ({"rounds": "five"}, "rounds"),
])
def test_bad_config_names_the_key(cfg, key):
    with pytest.raises(ValueError, match=key):
        RollWriteGame(num_players=2, **cfg)


def test_player_count_range():
    for n in (1, 5):
        with pytest.raises(ValueError):
            RollWriteGame(num_players=n)


def test_all_eight_cards_can_be_chosen_for_their_player_count():
    for n, names in ((2, "A2,D2"), (4, "C2,A2"), (3, "C3,D3"), (3, "B3,C3")):
        g = RollWriteGame(num_players=n, lab_cards=names)
        s = g.new_initial_state(seed=0)
        assert g.lab_names == tuple(names.split(","))
        assert s.legal_actions()


def _write(tmp_path, text, name="sheet.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_bad_sheet_file_names_file_and_field(tmp_path):
    base = open(load_sheet().path).read()
    bad = base.replace("- [1, 6, 8, 11]", "- [1, 6, 8, 8]", 1)
    path = _write(tmp_path, bad)
    with pytest.raises(ValueError, match=r"sheet.yaml.*grids.blue.boxes"):
        RollWriteGame(num_players=2, sheet_file=path)
    bad = base.replace("row_icons: [red, yellow, green]", "row_icons: [red, purple, green]", 1)
    with pytest.raises(ValueError, match="row_icons"):
        RollWriteGame(num_players=2, sheet_file=_write(tmp_path, bad))
    bad = base.replace("boxes: 4 ", "boxes: 2 ", 1)
    with pytest.raises(ValueError, match="wildcard_tube.boxes"):
        RollWriteGame(num_players=2, sheet_file=_write(tmp_path, bad))
    bad = base.replace("{min: 8, max: 10, points: 10}", "{min: 9, max: 10, points: 10}")
    with pytest.raises(ValueError, match="research_points"):
        RollWriteGame(num_players=2, sheet_file=_write(tmp_path, bad))


def test_bad_lab_file_names_file_and_field(tmp_path):
    base = open(load_lab_cards.__globals__["LAB_FILE"]).read()
    bad = base.replace("condition: odd_even", "condition: prime", 1)
    with pytest.raises(ValueError, match=r"lab_cards.yaml.*cards.B2.condition"):
        RollWriteGame(num_players=2, lab_cards_file=_write(tmp_path, bad, "lab_cards.yaml"))


def test_an_edited_sheet_file_is_used(tmp_path):
    base = open(load_sheet().path).read()
    text = base.replace("speed_bonus: 5", "speed_bonus: 7").replace("{2: 5, 3: 7, 4: 8}", "{2: 3, 3: 7, 4: 8}")
    g = RollWriteGame(num_players=2, sheet_file=_write(tmp_path, text))
    assert g.sheet.speed_bonus == 7 and g.rounds == 3


# -- the designed sheet keeps the rulebook's statements true ---------------------------------------
def test_sheet_design_matches_the_rulebook():
    sh = load_sheet()
    for c in range(4):
        assert sorted(sh.values[c]) == list(range(1, 13))      # 12 boxes, "11-12 boxes" tops the table
    green = sh.boxes[2]
    col = next(j for j in range(len(green[0])) if any(r[j] == 10 for r in green))
    icon = [ic for m, ic, name in sh.lines[2] if name == f"column {col + 1}"][0]
    assert icon == 1                                            # the green 10's column icon is red
    assert 3 in sh.lab_values and 11 in sh.lab_values          # "the 3 - 2+1", "the box for 11"
    assert sh.lab_advantage[2] == 1 and sh.lab_advantage[5] == 2   # legend "2 - Extra cross-off", "5 - Wildcard"
    cards, _ = load_lab_cards()
    results = set()
    for card in cards.values():
        flat = card.result if card.slots == 1 else sum(card.result, ())
        results |= {r for r in flat if r}
    assert results == set(range(2, 13))
    assert results <= set(sh.lab_values)                        # every laboratory result has a box


# -- actions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_action_names_round_trip(n):
    g = RollWriteGame(num_players=n)
    names = [g.action_to_string(a) for a in range(g.num_actions)]
    assert len(set(names)) == g.num_actions
    assert all(g.string_to_action(x) == a for a, x in enumerate(names))


def test_illegal_action_raises_and_leaves_state_unchanged():
    g = RollWriteGame(num_players=2)
    s = g.new_initial_state(seed=3)
    before = json.dumps(s.to_dict(), sort_keys=True)
    bad = int(np.flatnonzero(~s.legal_action_mask())[0])
    with pytest.raises(IllegalActionError, match="place a die"):
        s.apply_action(bad)
    with pytest.raises(IllegalActionError):
        s.apply_action(g.num_actions)
    with pytest.raises(IllegalActionError):
        s.apply_action("x")
    assert json.dumps(s.to_dict(), sort_keys=True) == before


# -- seeded random playouts and invariants -------------------------------------------------------
def _dice_on_table(s, p):
    return (sum(1 for v, o in zip(s.trial, s.trial_own) if v and o == p)
            + sum(1 for v, o in zip(s.lab, s.lab_own) if v and o == p))


def _score_from_sheet(s, p):
    """The rulebook's final evaluation of seat p's sheet (research table of tests/roll_write/rw_oracle.py)."""
    return (sum(research(s.grid[p][c].bit_count()) for c in range(4)) + 5 * s.cure[p].count(1)
            + 3 * s.wild[p] - sum(s.virus[p]))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_invariants(n):
    g = RollWriteGame(num_players=n)
    rng = np.random.default_rng(100 + n)
    for k in range(25):
        s = g.new_initial_state(seed=k)
        assert np.array_equal(s.board, encoding.encode_full(s))
        while not s.is_terminal():
            mask = s.legal_action_mask()
            assert mask.any()
            a = int(rng.choice(np.flatnonzero(mask)))
            grids_before = [row[:] for row in s.grid]
            labs_before = s.labrow[:]
            s.apply_action(a)
            # no box crossed twice: bits only ever get added, and each action adds at most what it says
            for p in range(n):
                for c in range(4):
                    assert s.grid[p][c] & grids_before[p][c] == grids_before[p][c]
                    assert s.grid[p][c] & ~g.sheet.full[c] == 0
                assert s.labrow[p] & labs_before[p] == labs_before[p]
            if not s.is_terminal():
                for p in range(n):   # dice conserved within a round
                    assert sum(s.reserve[p]) + _dice_on_table(s, p) + sum(s.contam[p][1:]) == g.dice
                    assert min(s.reserve[p]) >= 0
            for p in range(n):       # the wildcard tube never over-full, for every seat
                assert 0 <= s.wild[p] and s.wild[p] + s.wused[p] <= g.sheet.wildcard_boxes
            # the incrementally kept encoding (and cached scores) equal ones rebuilt from scratch
            assert np.array_equal(s.board, encoding.encode_full(s))
            assert list(s.scores()) == [_score_from_sheet(s, p) for p in range(n)]
        assert all(len(v) == g.rounds for v in s.virus)
        assert list(s.scores()) == [evaluation(sh) for sh in s.view(0)["sheets"]]
        # cures: each colour claimed by at least one finder, or open; a claimed colour is closed for all
        for c in range(4):
            marks = {s.cure[p][c] for p in range(n)}
            assert marks in ({0}, {1}, {1, 2})
        r = s.returns()
        assert r.max() > 0 and np.isclose(r[r > 0].sum(), 1.0)
        assert list(r) == pytest.approx(rulebook_returns(s.view(0)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_to_dict_round_trip_clone_and_determinize(n):
    g = RollWriteGame(num_players=n)
    rng = np.random.default_rng(n)
    s = g.new_initial_state(seed=11)
    step = 0
    while not s.is_terminal():
        if step % 5 == 0:
            d = s.to_dict()
            s2 = g.state_from_dict(json.loads(json.dumps(d)))
            assert json.dumps(s2.to_dict(), sort_keys=True) == json.dumps(d, sort_keys=True)
            p = s.current_player()
            for q in range(n):
                assert np.array_equal(s2.observation(q), s.observation(q))
            det = s.determinize(p, np.random.default_rng(step))
            assert det.view(p) == s.view(p)
            assert np.array_equal(det.observation(p), s.observation(p))
            assert np.array_equal(det.legal_action_mask(), s.legal_action_mask())
            c = s.clone()
            c.apply_action(int(rng.choice(c.legal_actions())))
            assert json.dumps(s.to_dict(), sort_keys=True) == json.dumps(d, sort_keys=True)
            json.dumps(s.view(p))            # JSON-safe
        s.apply_action(int(rng.choice(s.legal_actions())))
        step += 1


def test_same_seed_same_game():
    g = RollWriteGame(num_players=3)
    a, b = g.new_initial_state(seed=7), g.new_initial_state(seed=7)
    assert a.to_dict() == b.to_dict()
    assert len({json.dumps(g.new_initial_state(seed=k).reserve) for k in range(10)}) > 1


def test_observation_is_seat_relative_and_in_bounds():
    g = RollWriteGame(num_players=3)
    s = g.new_initial_state(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(40):
        s.apply_action(int(rng.choice(s.legal_actions())))
    lay = g.layout
    for p in range(3):
        o = s.observation(p)
        assert o.shape == g.observation_shape and o.dtype == np.float32
        assert o.min() >= 0.0 and o.max() <= g.observation_high
        grids = lay.view(o, "grids")
        for i in range(3):
            q = (p + i) % 3
            for c in range(4):
                assert [v for v in range(1, 13) if grids[i, c, v - 1]] == \
                    [v for v in range(1, 13) if s.grid[q][c] >> v & 1]
        assert lay.view(o, "priority")[(s.priority - p) % 3] == 1.0
        owners = lay.view(o, "trial_owners")
        for i, (v, q) in enumerate(zip(s.trial, s.trial_own)):
            assert owners[i // 2, i % 2].tolist() == ([1.0 if (q - p) % 3 == k else 0.0 for k in range(3)]
                                                      if v else [0.0] * 3)
        lab_owners = lay.view(o, "lab_owners")
        for j, (v, q) in enumerate(zip(s.lab, s.lab_own)):
            assert lab_owners[j].sum() == (1.0 if v else 0.0)
            if v:
                assert lab_owners[j, (q - p) % 3] == 1.0


def test_render_shows_the_table():
    g = RollWriteGame(num_players=2)
    s = g.new_initial_state(seed=0)
    text = str(s)
    assert "trial cards" in text and "B2" in text and "C2" in text and "p1:" in text


# -- the mask against an oracle written from the rulebook's sentences ---------------------------------
def _oracle_legal(s, a):
    """Is action a legal? Decided from the rule texts, independently of the engine's tables."""
    g = s.game
    kind, x, y = g.actions.payloads[a]
    p = s.current_player()
    sh = g.sheet
    if s.pending:
        q, pk, col = s.pending[0]
        if pk == 1:
            return kind == 3
        return kind == 2 and (col < 0 or x == col) and y in sh.values[x] and not s.grid[p][x] >> y & 1
    literal = g.config["wildcard_then_contaminate"]
    if kind == 1:   # wildcard: before placing, with a circled one, on a die in reserve, to another value
        return (not s.wild_die and s.wild[p] > 0 and s.reserve[p][x] > 0 and x != y
                # other reading: the changed die must then go on a trial or laboratory card
                and (literal or any(_oracle_card_takes(s, p, y, name) for name in g.target_names
                                    if name != "contaminated samples")))
    if kind != 0:
        return False
    v, t = x, y
    if s.wild_die and v != s.wild_die:
        return False
    if s.reserve[p][v] == 0:
        return False
    name = g.target_names[t]
    if name == "contaminated samples":
        return literal or not s.wild_die
    return _oracle_card_takes(s, p, v, name)


def _oracle_card_takes(s, p, v, name):
    """May seat p's die showing v go on the trial or laboratory slot `name`?"""
    g, sh = s.game, s.game.sheet
    if name.endswith(" trial"):
        c = ("blue", "red", "green", "yellow").index(name.split()[0])
        first, second = s.trial[2 * c], s.trial[2 * c + 1]
        if second:
            return False
        box = v if not first else first + v
        return box in sh.values[c] and not s.grid[p][c] >> box & 1
    parts = name.split()
    k = g.lab_names.index(parts[0])
    card = g.lab_cards[k]
    if card.slots == 1:
        if s.lab[k]:
            return False
        if card.condition == "even" and v % 2:
            return False
        if card.condition == "odd" and v % 2 == 0:
            return False
        r = v + 1 if card.name == "A3" else v * 2 if card.name in ("B3", "D3") else v + 2
        return r in sh.lab_values and not s.labrow[p] >> r & 1
    side = 0 if parts[1] == "left" else 1
    j = 2 * k + side
    if s.lab[j]:
        return False
    other = s.lab[2 * k + 1 - side]
    if not other:
        return True
    left, right = (v, other) if side == 0 else (other, v)
    cond = {"A2": left == right, "B2": (left % 2) != (right % 2), "C2": left >= right, "D2": left != right}
    r = left + right
    return cond[card.name] and r in sh.lab_values and not s.labrow[p] >> r & 1


@pytest.mark.parametrize("n,cards,literal", [(2, "B2,C2", True), (2, "A2,D2", True), (3, "A3,B3", True),
                                             (3, "C3,D3", True), (4, "C2,D2", True), (2, "B2,C2", False),
                                             (3, "C3,D3", False)])
def test_mask_equals_the_rulebook_oracle(n, cards, literal):
    g = RollWriteGame(num_players=n, lab_cards=cards, wildcard_then_contaminate=literal)
    rng = np.random.default_rng(7)
    for k in range(12):
        s = g.new_initial_state(seed=k)
        while not s.is_terminal():
            mask = s.legal_action_mask()
            oracle = np.array([_oracle_legal(s, a) for a in range(g.num_actions)])
            assert np.array_equal(mask, oracle), [g.action_to_string(a) for a in np.flatnonzero(mask != oracle)]
            s.apply_action(int(rng.choice(np.flatnonzero(mask))))


def test_first_player_drawn_with_the_seed():
    g = RollWriteGame(num_players=4, first_player=-1)
    firsts = {g.new_initial_state(seed=k).current_player() for k in range(30)}
    assert len(firsts) > 1
    assert g.new_initial_state(seed=3).priority == g.new_initial_state(seed=3).current_player()
    assert RollWriteGame(num_players=4, first_player=2).new_initial_state(seed=0).current_player() == 2
