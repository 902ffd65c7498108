"""The exploitability proxy (issue 17): a PPO best response against a frozen model; no claim about its strength."""
from __future__ import annotations

import json

import pytest
import torch

from virus_envs.experiments.best_response import best_response, best_response_config, margin_report
from virus_envs.experiments.cli import main

torch.set_num_threads(1)


def test_the_best_response_gets_the_target_models_own_budget_and_only_the_target_as_opponent():
    cfg, source, budget = best_response_config("ppo:builtin", "roll_write_v0")
    # the shipped Roll & Write model: 2,000,000 steps of 256-256 networks with shaping 0.02, 2 players
    # (configs/train/roll_write.yaml, the command in docs/agents/baselines.md)
    assert budget == 2_000_000 and cfg.total_steps == 2_000_000
    assert cfg.net_arch == [256, 256] and cfg.shaping == 0.02 and cfg.players == 2
    assert cfg.opponents == {"ppo:builtin": 1.0} and cfg.same_opponent and cfg.pfsp == 0
    assert cfg.eval_opponents == ["ppo:builtin"] and cfg.test_opponents == ["ppo:builtin"]
    assert cfg.bc_teacher == "" and cfg.init_from == ""
    assert "virus_meta.config" in source
    # a target that is no model file: the game's config file, no budget of its own
    cfg, source, budget = best_response_config("heuristic", "roll_write_v0")
    assert budget is None and source.endswith("roll_write.yaml") and cfg.opponents == {"heuristic": 1.0}


def test_a_config_file_given_wins_over_the_models_own(tmp_path):
    f = tmp_path / "br.yaml"
    f.write_text("total_steps: 5000\nnet_arch: [32]\n")
    cfg, source, budget = best_response_config("ppo:builtin", "roll_write_v0", config_path=str(f))
    assert (cfg.total_steps, cfg.net_arch, cfg.players, budget) == (5000, [32], 2, None) and source == str(f)
    f.write_text("game: virus_cards_v0\n")
    with pytest.raises(ValueError, match="config is for game 'virus_cards_v0', not --game 'roll_write_v0'"):
        best_response_config("heuristic", "roll_write_v0", config_path=str(f))


def test_margin_by_hand():
    row = {"opponent": "x", "games": 40, "wins": 30, "win_rate": 0.75, "ci95": [0.6, 0.86], "by_seat": {}}
    rep = margin_report(row, 2)
    assert rep["baseline"] == 0.5 and rep["margin"] == pytest.approx(0.25)
    assert rep["margin_ci95"] == pytest.approx([0.1, 0.36])
    assert margin_report(dict(row, win_rate=0.25, ci95=[0.1, 0.4]), 4)["margin"] == pytest.approx(0.0)


def test_a_tiny_best_response_run_reports_on_the_test_deals(tmp_path):
    over = dict(total_steps=256, n_envs=2, eval_games=2, test_games=4, progress_every=256, seed=1)
    lines = []
    rep = best_response("ppo:builtin", "roll_write_v0", tmp_path, overrides=over, echo=lines.append)
    saved = json.loads((tmp_path / "best_response.json").read_text())
    assert saved["games"] == 4 == sum(v["games"] for v in saved["by_seat"].values())
    assert set(saved["by_seat"]) == {"0", "1"}                       # the learner in each seat in turn
    assert saved["win_rate"] == pytest.approx(saved["wins"] / 4)
    assert saved["margin"] == pytest.approx(saved["win_rate"] - 0.5)
    assert saved["target_budget_steps"] == 2_000_000 and saved["steps"] >= 256
    assert saved["test_seed"] != saved["val_seed"] and rep["overrides"]["total_steps"] == 256
    assert any("test win rate" in s and "1/N = 0.500" in s for s in lines)
    assert any("resolved: " in s and "opponents={'ppo:builtin': 1.0}" in s for s in lines)
    assert (tmp_path / "best.zip").is_file() and (tmp_path / "test.csv").is_file()


def test_cli_errors_are_one_line(capsys):
    with pytest.raises(SystemExit, match="virus_lab_v0 is co-operative"):
        main(["train", "--game", "virus_lab_v0", "--best-response-to", "ppo:builtin"])
    with pytest.raises(SystemExit, match="do not go together"):
        main(["train", "--game", "roll_write_v0", "--best-response-to", "ppo:builtin", "--evaluate", "x.zip"])
    with pytest.raises(SystemExit, match="no shipped model for roll_write_v0 with 3 players"):
        main(["train", "--game", "roll_write_v0", "--players", "3", "--best-response-to", "ppo:builtin"])
    with pytest.raises(SystemExit, match="--test-games must be at least 1"):
        main(["train", "--game", "roll_write_v0", "--best-response-to", "heuristic", "--test-games", "0"])
