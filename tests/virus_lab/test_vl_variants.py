"""The engine contract and the information sets with the advanced elements switched on.

tests/core/test_contract_properties.py checks every env id in its default configuration; this file runs the same
checks on seeded random positions of `virus_lab_v0` with each advanced element's config (VARIANTS): the
`to_dict` / `state_from_dict` round trip and the loader on every position, an illegal action leaving the state
unchanged, `determinize(p)` keeping view(p), observation(p) and the acting seat's mask and resampling every
hidden fact, `hidden_facts` naming the components of the rules doc's "Hidden information" table, the PettingZoo
api test.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.virus_lab.game import VirusLabGame
from virus_envs.core.positions import random_position

VARIANTS = {
    "real_time": {"real_time": True},
    "skills_draft": {"skills": "draft"},
    "skills_auction_real_time": {"skills": "auction", "real_time": True},
    "campaign_game": {"campaign": True},
    "whole_campaign": {"campaign_games": 2},
    "special_contents": {"morbo": True, "advanced_combat": "full", "teleport_rooms": True, "drifting_rooms": True,
                         "multicolored_rooms": True},
    "spy_pvp": {"spy": True, "pvp": True},
    "boss_players": {"boss_players": 1},
    "two_boss_players_infected": {"boss_players": 2, "infected_boss": True, "skills": "draft"},
    "spy_pvp_full_morbo": {"spy": True, "pvp": True, "advanced_combat": "full", "morbo": True},
    "captive_special_rooms": {"scenario": "captive", "teleport_rooms": True, "drifting_rooms": True,
                              "multicolored_rooms": True},
    "boss_players_divided_special_rooms": {"boss_players": 1, "advanced_combat": "full", "teleport_rooms": True,
                                           "drifting_rooms": True, "multicolored_rooms": True, "morbo": True},
    # issue 16, part 2: Boss players with Spy Mode and a Scenario; a whole campaign with a seat waiting to join
    "boss_players_spy_scenario": {"boss_players": 1, "spy": True, "pvp": True, "scenario": "save_the_child"},
    "whole_campaign_boss_seat": {"campaign_games": 2, "boss_players": 1, "difficulty": 3},
}
# seats per variant (default 1, 2, 4): Spy Mode needs 2-4 players (assumption 39); Boss players need a Hero besides
# them, and go up to 6 seats
COUNTS = {"boss_players": (2, 3, 5), "boss_players_divided_special_rooms": (2, 5), "two_boss_players_infected": (3, 4, 6),
          "boss_players_spy_scenario": (3, 5), "whole_campaign_boss_seat": (2, 5)}
CASES = [(name, n) for name in VARIANTS for n in COUNTS.get(name, (1, 2, 4))
         if not (n == 1 and VARIANTS[name].get("spy"))]
POSITIONS = ((1, 0), (2, 40), (3, 120), (4, 260), (5, 400))
SAMPLES = 24
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "virus_lab.md"


def _canon(x) -> str:
    return json.dumps(x, sort_keys=True, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))


def _positions(name, n):
    g = VirusLabGame(num_players=n, **VARIANTS[name])
    for seed, steps in POSITIONS:
        yield random_position(g, seed, steps)


@pytest.mark.parametrize("name,n", CASES)
def test_round_trip_loader_and_illegal_actions(name, n):
    for s in _positions(name, n):
        d = s.to_dict()
        t = s.game.state_from_dict(json.loads(json.dumps(d)))
        assert _canon(t.to_dict()) == _canon(d)
        before = _canon(d)
        bad = [0] if s.is_terminal() else np.flatnonzero(~s.legal_action_mask())[:5].tolist() + [-1]
        for a in bad:
            with pytest.raises(IllegalActionError):
                s.apply_action(a)
            assert _canon(s.to_dict()) == before
        if not s.is_terminal():
            assert np.array_equal(t.legal_action_mask(), s.legal_action_mask())


@pytest.mark.parametrize("name,n", CASES)
def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest(name, n):
    for s in _positions(name, n):
        rng = np.random.default_rng(7)
        acting = -1 if s.is_terminal() else s.current_player()
        for p in range(n):
            view, obs = _canon(s.view(p)), s.observation(p)
            names = set(s.hidden_facts(p))
            seen = {k: set() for k in names}
            for i in range(SAMPLES):
                t = s.determinize(p, rng)
                if i < 3:
                    assert _canon(t.view(p)) == view
                    assert np.array_equal(t.observation(p), obs)
                    if p == acting:
                        assert np.array_equal(t.legal_action_mask(), s.legal_action_mask())
                    s.game.state_from_dict(json.loads(json.dumps(t.to_dict())))
                for k, v in t.hidden_facts(p).items():
                    seen[k].add(_canon(v))
            stuck = sorted(k for k, vals in seen.items() if len(vals) < 2)
            assert not stuck, f"{name}: determinize({p}) never resampled {stuck}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_hidden_facts_are_the_components_the_docs_name(name):
    text = DOC.read_text()
    documented = set()
    for title in ("Hidden information", "Hidden information of the advanced elements"):
        m = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        documented |= set(re.findall(r"^\|\s*`([^`]+)`", m.group(1), re.M))
    named = set()
    for n in COUNTS.get(name, (1, 2, 4)):
        if (name, n) not in CASES:
            continue
        for s in _positions(name, n):
            for p in range(n):
                named |= set(s.hidden_facts(p))
    assert named <= documented, f"{name}: hidden facts not in the docs' table: {sorted(named - documented)}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_pettingzoo_api(name):
    from pettingzoo.test import api_test
    for n in COUNTS.get(name, (2,) if VARIANTS[name].get("spy") else (1, 2, 4))[:2]:
        api_test(virus_envs.env("virus_lab_v0", num_players=n, **VARIANTS[name]), num_cycles=200)


@pytest.mark.parametrize("cfg", [{}, {"smoke_bombs": True}, {"real_time": True}])
def test_search_out_of_combat_only(cfg):
    """ACTION COSTS TABLE: "Search | 3 actions/room | NO" (in combat): with and without the advanced elements."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from vl_helpers import at, creatures, empty_state, four, put
    from virus_envs.virus_lab.actions import A
    s = empty_state(1, **cfg)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    assert s.legal_action_mask()[A.SEARCH], "out of combat"
    creatures(s, c, zombie=1)
    assert not s.legal_action_mask()[A.SEARCH], "in combat"
