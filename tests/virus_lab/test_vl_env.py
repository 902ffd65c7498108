"""Virus (virus_lab_v0): engine contract, PettingZoo conformance, data validation, seeded random playouts.

The game is not registered yet (virus_envs._GAMES): the env is built from the Game class directly.
"""
from __future__ import annotations

import json
import os
import shutil
import warnings

import numpy as np
import pytest

from vl_helpers import check_invariants, play_random
from virus_envs import IllegalActionError
from virus_envs.core.aec import wrapped_env
from virus_envs.virus_lab.actions import TABLE
from virus_envs.virus_lab.components import DATA_DIR, _CACHE, load_components
from virus_envs.virus_lab.game import VirusLabGame

warnings.filterwarnings("ignore")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pettingzoo_api_seed_render(n):
    from pettingzoo.test import api_test, render_test, seed_test
    api_test(wrapped_env(VirusLabGame(num_players=n)), num_cycles=200)
    seed_test(lambda: wrapped_env(VirusLabGame(num_players=n)), num_cycles=100)
    render_test(lambda render_mode=None: wrapped_env(VirusLabGame(num_players=n), render_mode=render_mode))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("auto", [False, True])
def test_random_playouts_keep_invariants(n, level, auto):
    """Room capacity 7; creature, token, cube, tile and card supplies conserved; resources within the cap;
    every game ends (the Rooms display choices as decisions, and by the default)."""
    g = VirusLabGame(num_players=n, difficulty=level, auto_display_choices=auto)
    for seed in range(3):
        s, steps = play_random(g, seed, check=True)
        assert not s.is_truncated(), "ended by the rules, not by max_steps"
        r = s.returns()
        assert r.shape == (n,) and len(set(r.tolist())) == 1, "co-operative: one result for all"


def test_observation_shape_range_and_view_json():
    g = VirusLabGame(num_players=3)
    s = g.new_initial_state(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if s.is_terminal():
            break
        for p in range(3):
            o = s.observation(p)
            assert o.shape == g.observation_shape and o.dtype == np.float32
            assert o.min() >= 0.0 and o.max() <= 1.0
        json.dumps(s.view(s.current_player()))
        s.apply_action(int(rng.choice(s.legal_actions())))


def test_illegal_action_leaves_state_unchanged():
    g = VirusLabGame(num_players=2)
    s = g.new_initial_state(seed=1)
    before = json.dumps(s.to_dict(), sort_keys=True)
    bad = int(np.flatnonzero(~s.legal_action_mask())[0])
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(bad)
    assert "phase" in str(e.value)
    assert json.dumps(s.to_dict(), sort_keys=True) == before


@pytest.mark.parametrize("key, value", [("difficulty", 4), ("p_positive", 1.5), ("table_cols", 8),
                                        ("max_steps", 0), ("auto_slow_phase", "no"), ("nonsense", 1),
                                        ("difficulty", "hard")])
def test_bad_config_names_the_key(key, value):
    with pytest.raises(ValueError, match=key):
        VirusLabGame(num_players=2, **{key: value})


def test_manual_slow_phase_needs_a_bounded_table():
    with pytest.raises(ValueError, match="auto_slow_phase"):
        VirusLabGame(num_players=2, auto_slow_phase=False, table_rows=15, table_cols=21)


@pytest.mark.parametrize("n, level", [(1, 3), (2, 1), (3, 3), (4, 1)])
def test_manual_slow_phase_playouts(n, level):
    """The Slow-phase choices as actions: invariants hold, games end (never truncated: a follow-up question
    must not re-ask the question it follows), state round-trips."""
    g = VirusLabGame(num_players=n, auto_slow_phase=False, difficulty=level)
    seen = 0
    for seed in (20, 0, 1, 2) if n == 2 else range(4):
        s = g.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.phase() == "slow phase: a Creature choice":
                seen += 1
                if seen % 5 == 0:
                    d = json.loads(json.dumps(s.to_dict()))
                    assert json.dumps(g.state_from_dict(d).to_dict(), sort_keys=True) == json.dumps(d, sort_keys=True)
                    p = s.current_player()
                    det = s.determinize(p, np.random.default_rng(seed))
                    assert np.array_equal(det.observation(p), s.observation(p))
                    assert np.array_equal(det.legal_action_mask(), s.legal_action_mask())
                    v = json.loads(json.dumps(s.view(p)))
                    assert len(v["slow_choice"]["options"]) == int(s.legal_action_mask().sum())
            s.apply_action(int(rng.choice(s.legal_actions())))
            check_invariants(s)
        assert not s.is_truncated()
    assert seen > 0


def test_table_too_small_for_exit_cards():
    with pytest.raises(ValueError, match="table_rows"):
        VirusLabGame(num_players=2, table_rows=5)


def test_roundtrip_clone_determinize():
    g = VirusLabGame(num_players=4, difficulty=3)
    rng = np.random.default_rng(3)
    s = g.new_initial_state(seed=9)
    k = 0
    while not s.is_terminal() and k < 400:
        if k % 13 == 0:
            d = json.loads(json.dumps(s.to_dict()))
            s2 = g.state_from_dict(d)
            assert json.dumps(s2.to_dict(), sort_keys=True) == json.dumps(s.to_dict(), sort_keys=True)
            p = s.current_player()
            det = s.determinize(p, np.random.default_rng(k))
            assert np.array_equal(det.observation(p), s.observation(p))
            assert np.array_equal(det.legal_action_mask(), s.legal_action_mask())
            before = json.dumps(s.to_dict(), sort_keys=True)
            c = s.clone()
            c.apply_action(int(rng.choice(c.legal_actions())))
            assert json.dumps(s.to_dict(), sort_keys=True) == before
            # same future from the same state
            a = int(rng.choice(s.legal_actions()))
            c1, c2 = s.clone(), g.state_from_dict(d)
            c1.apply_action(a)
            c2.apply_action(a)
            assert json.dumps(c1.to_dict(), sort_keys=True) == json.dumps(c2.to_dict(), sort_keys=True)
        s.apply_action(int(rng.choice(s.legal_actions())))
        k += 1


def test_clone_copies_every_mutable_field():
    """clone() slices the lists of numbers once and copies the lists of lists all the way down: every list field
    is in one of the two groups, a "flat" one never holds a list, and a clone shares no list with its state."""
    from virus_envs.virus_lab.game import _BYTE_FIELDS, _DEEP_FIELDS, _FIELDS, _FLAT_FIELDS
    groups = set(_BYTE_FIELDS) | set(_DEEP_FIELDS) | set(_FLAT_FIELDS)
    assert len(groups) == len(_BYTE_FIELDS) + len(_DEEP_FIELDS) + len(_FLAT_FIELDS) and groups <= set(_FIELDS)

    def lists(v):
        if isinstance(v, (list, bytearray)):
            yield v
            for x in v:
                yield from lists(x)
    for n, level, seed in ((1, 3, 0), (2, 2, 1), (4, 3, 2)):
        g = VirusLabGame(num_players=n, difficulty=level, auto_slow_phase=n != 2)
        s = g.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            for f in _FIELDS:
                v = getattr(s, f)
                assert f in groups or not isinstance(v, list), f"{f} is a list clone() does not copy"
                if f in _FLAT_FIELDS:
                    assert not any(isinstance(x, list) for x in v), f"{f} holds a list: it must be deep-copied"
            c = s.clone()
            mine = {id(x) for f in _FIELDS for x in lists(getattr(s, f))}
            assert not mine & {id(x) for f in _FIELDS for x in lists(getattr(c, f))}
            s.apply_action(int(rng.choice(s.legal_actions())))


def test_action_names_round_trip():
    g = VirusLabGame(num_players=2)
    assert len(set(TABLE.names)) == g.num_actions
    for a in range(g.num_actions):
        assert g.string_to_action(g.action_to_string(a)) == a


def test_truncation_by_max_steps():
    g = VirusLabGame(num_players=2, max_steps=30)
    s, steps = play_random(g, 0)
    assert s.is_truncated() and steps == 30 and list(s.returns()) == [0.0, 0.0]


def test_render_text():
    s = VirusLabGame(num_players=2).new_initial_state(seed=0)
    text = str(s)
    assert "S0S" in text and "seat 1" in text and "X.X" in text


# --------------------------------------------------------------------------------- data files
def _broken(tmp_path, fname, old, new):
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    p = d / fname
    txt = p.read_text()
    assert old in txt
    p.write_text(txt.replace(old, new, 1))
    _CACHE.pop(str(d), None)
    return str(d)


@pytest.mark.parametrize("fname, old, new, field", [
    ("rooms.yaml", "colour: red", "colour: purple", "rooms[0].colour"),
    ("rooms.yaml", "doors: NS,", "doors: NX,", "rooms[5].doors"),
    ("rooms.yaml", "bonus: 0", "bonus: 5", "rooms[0].bonus"),
    ("rooms.yaml", "lab: NE", "lab: null", "rooms"),
    ("events.yaml", "number: 1,", "number: 11,", "events[0].number"),
    ("events.yaml", "exit: [[3, -3], [3, 3]]", "exit: [[1, -3], [3, 3]]", "events[0].exit"),
    ("events.yaml", ", effect: quiet", ", effect: party", "].effect"),
    ("wounds.yaml", "infection: false", "infection: 3", "infection"),
    ("clues.yaml", "kind: doorways, n: 4", "kind: doorways, n: 5", "clues[0].n"),
    ("clues.yaml", "rows: [0, 4]", "rows: [4, 0]", "clues[12].rows"),
    ("bosses.yaml", "hp: 4", "hp: 0", "bosses[0].hp"),
    ("supply.yaml", "heart: 16", "heart: many", "tokens.heart"),
    ("supply.yaml", "stock_actions: 8", "stock_actions: 2", "hero_start.stock_actions"),
    # the special contents (issue 15): the counts the rulebook gives, colours, kinds
    ("rooms.yaml", "{id: TELEPORT-4, kind: teleport", "{id: TELEPORT-4, kind: drifting", "special_rooms"),
    ("rooms.yaml", "kind: multicolored, colour: any, doors: NE", "kind: multicolored, colour: red, doors: NE",
     "special_rooms[4].colour"),
    ("rooms.yaml", "{id: DRIFTING-2, kind: drifting", "{id: DRIFTING-2, kind: portal", "special_rooms[7].kind"),
    ("wounds.yaml", "morbo: {id: MORBO, infection: false}", "morbo: {id: MORBO, infection: maybe}",
     "special_contents.morbo.infection"),
])
def test_bad_data_file_names_file_and_field(tmp_path, fname, old, new, field):
    d = _broken(tmp_path, fname, old, new)
    with pytest.raises(ValueError) as e:
        load_components(d)
    assert fname in str(e.value) and field in str(e.value)
    with pytest.raises(ValueError, match="data_dir"):
        VirusLabGame(num_players=1, data_dir=d)


def test_room_deck_constraints():
    comp = load_components()
    assert comp.num_rooms == 144
    for col in range(4):
        labs = [c for c in range(144) if comp.room_colour[c] == col and comp.room_lab[c] >= 0]
        norm = [c for c in range(144) if comp.room_colour[c] == col and comp.room_lab[c] < 0]
        assert len(labs) == 7 and len(norm) >= 16
        assert {comp.room_special[c] for c in norm} >= {1, 2, 3}
    deck = range(144)           # the 144 cards; the 3 grey cards (144-146) and the special rooms (ids from 147) follow
    assert {bin(comp.room_doors[c]).count("1") for c in deck} == {1, 2, 3, 4}
    assert {comp.room_bonus[c] for c in deck} == {0, 1, 2} and {comp.room_trap[c] for c in deck} == {1, 2, 3, 4, 5, 6}
    assert [comp.room_kind.count(k) for k in range(4)] == [144 + 3, 4, 2, 2], "Special contents: 4 + 2 + 2 cards"
    # the grey cards START_CARD, EXIT_CARD, SCEN_CARD (the Scenario room) are not room cards; the specials are
    assert [comp.is_room(c) for c in (143, 144, 145, 146, 147)] == [True, False, False, False, True]
    assert comp.room_name[146] == "Scenario Room" and comp.room_kind[147] != 0
    assert len(comp.event_name) == comp.num_wounds == len(comp.clue_kind) == 25
    assert len(comp.wound_heart) == 26, "the Morbo card (special_contents.morbo) comes last"
    assert len(comp.boss_name) == 15 and set(comp.event_number) <= set(range(1, 11))
    assert os.path.isdir(DATA_DIR)
    check_invariants.__doc__


def test_marked_cooperative_for_the_tournament_code():
    assert VirusLabGame.cooperative is True


def test_ranking_in_infos_at_the_end():
    """ "Co-operative returns (all win or all lose; ranking in infos)": every agent's infos carry the
    rulebook's ranking once a game is over ([] when it is lost)."""
    import virus_envs
    from virus_envs.agents.base import decision_for
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic

    env = virus_envs.raw_env("virus_lab_v0", num_players=1, difficulty=1)
    bot = VirusLabHeuristic(env.unwrapped.game)
    outcomes = set()
    for seed in range(40):
        env.reset(seed=seed)
        bot.reset(0)
        assert "ranking" not in env.infos["player_0"]
        for agent in env.agent_iter():
            _, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(bot.act(decision_for(env.unwrapped.state)))
        won = env.unwrapped.state.won
        assert info["ranking"] == ([0] if won else [])
        outcomes.add(won)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}


def test_observation_shows_cards_as_printed_and_lab_corners():
    """An `explore <side> slot <k> rot <r>` action turns the card as printed: the observation shows each display
    and Net card's printed doorways and lab corner, and the corner of every lab symbol on the table."""
    from virus_envs.virus_lab.encoding import CF, DF
    from virus_envs.virus_lab.actions import MAX_DISPLAY, MAX_NET
    g = VirusLabGame(num_players=1, difficulty=1)
    comp = g.comp
    from virus_envs.agents.base import decision_for
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    bot = VirusLabHeuristic(g)                  # it places lab cards (random play seldom does)
    s = g.new_initial_state(seed=0)
    seen_lab = False
    for _ in range(3000):
        if s.is_terminal():
            break
        obs = s.observation(0)
        L = g.layout
        D = obs[L.slices["display"]].reshape(MAX_DISPLAY, DF)
        for k, (c, up) in enumerate(s.disp[0]):
            assert list(D[k, 18:22]) == [(comp.room_doors[c] >> d) & 1 for d in range(4)]
            assert list(D[k, 22:26]) == [float(comp.room_lab[c] == j) for j in range(4)]
        Nt = obs[L.slices["net"]].reshape(MAX_NET, DF)
        for k, c in enumerate(s.net[0]):
            assert Nt[k, 0] == 1 and list(Nt[k, 18:22]) == [(comp.room_doors[c] >> d) & 1 for d in range(4)]
        cells = obs[L.slices["cells"]].reshape(g.geo.ncells, CF)
        for x in range(g.geo.ncells):
            c = s.card[x]
            if 0 <= c < comp.num_rooms and comp.room_lab[c] >= 0 and not s.trapside[x]:
                seen_lab = True
                corner = (comp.room_lab[c] + s.rot[x]) % 4
                assert list(cells[x, 67:71]) == [float(corner == j) for j in range(4)]
                assert s.labvert[x] == g.geo.VERTEX[x][corner]
            else:
                assert not cells[x, 67:71].any()
        s.apply_action(bot.act(decision_for(s)))
    assert seen_lab
