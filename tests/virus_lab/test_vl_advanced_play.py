"""The advanced elements (issue 15) end to end: the heuristic team plays them legally, the PettingZoo env and
the CLI accept them, and Legend tiles, Final Attack and Walls keep the base game's observation and action sizes
(the ranged attack's and Smoke bombs' sizes: test_vl_ranged.py, test_vl_smoke.py; docs/rules/virus_lab.md,
"Advanced elements")."""
from __future__ import annotations

import contextlib
import io

import pytest

import virus_envs
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.experiments.arena import play_game
from virus_envs.virus_lab.game import VirusLabGame

OPTIONS = [{"legend": True}, {"final_attack": True}, {"walls": True}, {"advanced_combat": "ranged"},
           {"smoke_bombs": True}, {"resolution_tokens": True},
           {"legend": True, "final_attack": True, "walls": True, "advanced_combat": "ranged", "smoke_bombs": True,
            "resolution_tokens": True, "difficulty": 3},
           {"scenario": "reboot"}, {"scenario": "save_the_child"}, {"scenario": "captive"}]


def _id(c):
    return "-".join(k if v is True or v == "ranged" else str(v) for k, v in c.items() if v is True or isinstance(v, str))


@pytest.mark.parametrize("cfg", OPTIONS, ids=_id)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_heuristic_team_plays_legal_games(cfg, n):
    g = VirusLabGame(num_players=n, **cfg)
    for seed in range(2):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated()


@pytest.mark.parametrize("cfg", OPTIONS[:6], ids=_id)
def test_pettingzoo_api_with_the_option(cfg):
    from pettingzoo.test import api_test
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(virus_envs.env("virus_lab_v0", num_players=2, **cfg), num_cycles=60)


@pytest.mark.parametrize("name", ["reboot", "save_the_child", "captive"])
def test_pettingzoo_api_with_a_scenario(name):
    from pettingzoo.test import api_test
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(virus_envs.env("virus_lab_v0", num_players=2, scenario=name), num_cycles=60)


def test_sizes_do_not_change():
    base = VirusLabGame(num_players=2)
    for cfg in OPTIONS[:3]:
        g = VirusLabGame(num_players=2, **cfg)
        assert g.observation_shape == base.observation_shape == (8293,) and g.num_actions == base.num_actions == 1136


def test_cli_plays_the_options():
    from virus_envs.experiments.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["eval", "--game", "virus_lab_v0", "--players", "1", "--games", "1", "--game-config", "legend=true",
              "--game-config", "final_attack=true", "--game-config", "walls=true",
              "--game-config", "advanced_combat=ranged", "--game-config", "smoke_bombs=true",
              "--game-config", "resolution_tokens=true", "--game-config", "scenario=captive"])
    assert "virus_lab_v0 1p: team of heuristic" in out.getvalue()
