"""The generic contract and information-set checks of test_contract_properties.py, run again on games with
their optional rule elements switched on (each entry: env id, players, config).

The checks are the same functions; only the game behind `_game(env_id, n)` changes, so a variant meets exactly
the standard the default game meets (round trips, the loader, illegal actions, determinize keeping what the
seat sees and resampling what it does not).
"""
from __future__ import annotations

import pytest

import virus_envs
import test_contract_properties as T

VARIANTS = [
    # virus_lab: the advanced elements of issue 15 (docs/rules/virus_lab.md, "Advanced elements")
    ("virus_lab_v0", 2, {"legend": True, "final_attack": True, "walls": True, "advanced_combat": "ranged",
                         "smoke_bombs": True, "resolution_tokens": True}),
    ("virus_lab_v0", 1, {"legend": True, "final_attack": True, "walls": True, "advanced_combat": "ranged",
                         "smoke_bombs": True, "resolution_tokens": True, "auto_slow_phase": False, "difficulty": 3}),
    ("virus_lab_v0", 4, {"resolution_tokens": True, "walls": True, "teleport_rooms": True, "drifting_rooms": True,
                         "multicolored_rooms": True}),
    ("virus_lab_v0", 3, {"advanced_combat": "full", "final_attack": True, "difficulty": 3, "morbo": True}),
    ("virus_lab_v0", 4, {"resolution_tokens": True, "walls": True}),
    # Spy Mode and its Player vs Player combat (issue 15): roles, Clue cards held and declared
    ("virus_lab_v0", 3, {"spy": True, "pvp": True, "advanced_combat": "ranged", "smoke_bombs": True}),
    ("virus_lab_v0", 2, {"spy": True}),
    # virus_lab: the Scenarios (issue 15)
    ("virus_lab_v0", 2, {"scenario": "reboot"}),
    ("virus_lab_v0", 3, {"scenario": "save_the_child", "auto_display_choices": True}),
    ("virus_lab_v0", 2, {"scenario": "save_the_child", "auto_child": False}),
    ("virus_lab_v0", 4, {"scenario": "captive"}),
    # virus_lab: Play as Boss (issue 16): 5 and 6 players, the Boss players' secret hands
    ("virus_lab_v0", 5, {"boss_players": 1, "skills": "auction"}),
    ("virus_lab_v0", 6, {"boss_players": 2, "infected_boss": True, "difficulty": 3, "auto_slow_phase": False,
                         "skills": "draft"}),
    # both sides together: Spy / PvP with the divided combat and Morbo, the Scenarios with the special rooms
    ("virus_lab_v0", 3, {"spy": True, "pvp": True, "advanced_combat": "full", "morbo": True}),
    ("virus_lab_v0", 2, {"scenario": "save_the_child", "auto_child": False, "drifting_rooms": True,
                         "teleport_rooms": True, "multicolored_rooms": True}),
    # Boss players with Spy Mode and a Scenario; Spy Mode and a Boss seat in campaigns (issue 16, part 2)
    ("virus_lab_v0", 5, {"boss_players": 1, "spy": True, "pvp": True, "scenario": "save_the_child"}),
    ("virus_lab_v0", 4, {"campaign": True, "spy": True, "boss_players": 1, "scenario": "captive"}),
    ("virus_lab_v0", 3, {"campaign_games": 2, "boss_players": 1, "difficulty": 3, "boss_xp": "win"}),
    # a whole campaign climbing the user's ladder (the players' choice, the default, is in the entry above)
    ("virus_lab_v0", 2, {"campaign_games": 2, "campaign_escalation": "ladder", "campaign_ladder": "spy,difficulty"}),
    # Boss players with the divided combat, Morbo and the special rooms
    ("virus_lab_v0", 6, {"boss_players": 2, "advanced_combat": "full", "morbo": True, "teleport_rooms": True,
                         "drifting_rooms": True}),
]
CHECKS = [T.test_round_trip_and_loader_accepts_every_reachable_state, T.test_illegal_action_leaves_state_unchanged,
          T.test_determinize_keeps_what_the_seat_sees, T.test_determinize_resamples_what_the_seat_cannot_see,
          T.test_determinize_depends_only_on_the_generator_it_is_given, T.test_loader_names_the_field_at_fault]


def _id(v):
    env_id, n, cfg = v
    return f"{env_id}-{n}p-" + "-".join(k if x is True or x == "ranged" else f"{k}={x}" for k, x in cfg.items()
                                        if x is True or isinstance(x, str))


@pytest.mark.parametrize("variant", VARIANTS, ids=_id)
@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__[5:])
def test_contract_with_options_on(variant, check, monkeypatch):
    env_id, n, cfg = variant
    monkeypatch.setattr(T, "_GAMES", {(env_id, n): virus_envs.game(env_id, num_players=n, **cfg)})
    check(env_id=env_id, n=n)
