"""A retrained model replaces `models/<env_id>/ppo.zip`; the one it replaces stays beside it as `ppo_prev.zip`.

Issue 17: "Report against held-out opponents: every heuristic variant, IS-MCTS at two budgets, and the
previous shipped model." So the previous model must stay reachable (`ppo:builtin_prev`) and be among a
training run's default test opponents, while `ppo:builtin` keeps meaning the shipped `ppo.zip`.
"""
import shutil
from pathlib import Path

import pytest

import virus_envs
from virus_envs import agents, models
from virus_envs.experiments.train import load_config
from virus_envs.experiments.train_eval import held_out_opponents

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.fixture
def zoo(tmp_path, monkeypatch):
    """A models folder with Virus & Co's file twice (as ppo.zip and as the kept ppo_prev.zip) and VIRUS!'s once."""
    (tmp_path / "virus_co_v0").mkdir()
    (tmp_path / "virus_cards_v0").mkdir()
    shutil.copyfile(MODELS / "virus_co_v0" / "ppo.zip", tmp_path / "virus_co_v0" / "ppo.zip")
    shutil.copyfile(MODELS / "virus_co_v0" / "ppo.zip", tmp_path / "virus_co_v0" / "ppo_prev.zip")
    shutil.copyfile(MODELS / "virus_cards_v0" / "ppo.zip", tmp_path / "virus_cards_v0" / "ppo.zip")
    monkeypatch.setattr(models, "ROOT", str(tmp_path))
    return tmp_path


def test_builtin_is_ppo_zip_and_builtin_prev_the_kept_file(zoo):
    game = virus_envs.game("virus_co_v0", 4)
    assert agents.make("ppo:builtin", game).path == str(zoo / "virus_co_v0" / "ppo.zip")
    assert agents.make("ppo:builtin_prev", game).path == str(zoo / "virus_co_v0" / "ppo_prev.zip")
    assert models.load("virus_co_v0", tag="prev").path == str(zoo / "virus_co_v0" / "ppo_prev.zip")
    tags = [(m.env_id, m.tag) for m in models.available()]
    assert tags == [("virus_cards_v0", ""), ("virus_co_v0", ""), ("virus_co_v0", "prev")]


def test_a_missing_kept_model_is_named(zoo):
    with pytest.raises(ValueError, match=r"no kept model ppo_prev.zip for virus_cards_v0; kept: virus_co_v0/ppo_prev.zip"):
        agents.make("ppo:builtin_prev", virus_envs.game("virus_cards_v0", 2))


def test_the_previous_model_is_a_default_test_opponent(zoo):
    cfg = load_config(MODELS.parent / "configs" / "train" / "virus_co.yaml")
    assert not cfg.test_opponents                     # the config leaves the held-out list to the default
    specs = held_out_opponents(virus_envs.game("virus_co_v0", 4), cfg)
    assert specs == ["random", "heuristic", "heuristic:bold", "heuristic:cautious", "ppo:builtin", "ppo:builtin_prev"]
