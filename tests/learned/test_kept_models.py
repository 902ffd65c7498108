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


def test_a_kept_model_beside_a_per_count_file_is_builtin_prev_at_its_count(tmp_path, monkeypatch):
    """VIRUS! ships one file per player count (ppo.zip for 2, ppo_4p.zip for 4); the model a retrained 4-player one
    replaces is kept as ppo_4p_prev.zip, and `ppo:builtin_prev` finds it at 4 players as `ppo:builtin` finds
    ppo_4p.zip, while the 2-player names keep their files."""
    folder = tmp_path / "virus_cards_v0"
    folder.mkdir()
    for src, dst in (("ppo.zip", "ppo.zip"), ("ppo.zip", "ppo_prev.zip"), ("ppo_4p.zip", "ppo_4p.zip"),
                     ("ppo_4p.zip", "ppo_4p_prev.zip")):
        shutil.copyfile(MODELS / "virus_cards_v0" / src, folder / dst)
    monkeypatch.setattr(models, "ROOT", str(tmp_path))
    two, four = virus_envs.game("virus_cards_v0", 2), virus_envs.game("virus_cards_v0", 4)
    assert agents.make("ppo:builtin", four).path == str(folder / "ppo_4p.zip")
    assert agents.make("ppo:builtin_prev", four).path == str(folder / "ppo_4p_prev.zip")
    assert agents.make("ppo:builtin_prev", two).path == str(folder / "ppo_prev.zip")
    assert [(m.num_players, m.tag) for m in models.available()] == [(2, ""), (2, "prev"), (4, ""), (4, "prev")]
    cfg = load_config(MODELS.parent / "configs" / "train" / "virus_cards_4p_bc.yaml")
    assert held_out_opponents(four, cfg)[-2:] == ["ppo:builtin", "ppo:builtin_prev"]
    (folder / "ppo_4p_prev.zip").unlink()
    with pytest.raises(ValueError, match=r"no kept model ppo_prev for virus_cards_v0 with 4 players; kept for 2 "):
        agents.make("ppo:builtin_prev", four)


def test_the_retrained_virus_co_model_carries_its_split_and_is_kept_since_the_validation_choice():
    """Issue 17: "New shipped models carry their validation/test split in `virus_meta`". The retrained model (seed 2,
    the median of three) was shipped, then lost the choice on the validation deals to the model it had replaced
    (docs/results/virus_co_choice.json): it is kept as ppo_prev.zip, and the earlier model is ppo.zip again."""
    import json

    from virus_envs.agents.ppo import model_meta

    kept = model_meta(str(MODELS / "virus_co_v0" / "ppo_prev.zip"))
    split = kept["split"]
    assert (split["val_seed"], split["test_seed"], split["val_games"], split["test_games"]) == (7_000_003, 9_000_011,
                                                                                               300, 1000)
    assert split["train_seed"] == 2 and split["val_opponents"] == ["random", "heuristic"]
    # the held-out test opponents: both variants and the model shipped when it was trained (ppo.zip again now)
    assert {"heuristic:bold", "heuristic:cautious", "ppo:builtin"} <= set(split["test_opponents"])
    shipped = model_meta(str(MODELS / "virus_co_v0" / "ppo.zip"))
    assert shipped["git_commit"].startswith("1820cfb")
    # trained before the split code: its split was recorded after training, from this choice (test_recorded_splits.py)
    assert shipped["split"]["recorded"].startswith("after training") and shipped["split"]["chosen"] is True
    # the choice was made on the validation deals of the split, and the file shipped is the one it chose
    choice = json.loads((MODELS.parent / "docs" / "results" / "virus_co_choice.json").read_text())
    assert choice["val_seed"] == split["val_seed"] != split["test_seed"]
    won = choice["decision"]["ships"]
    assert choice["models"][won]["git_commit"] == shipped["git_commit"]
    assert choice["models"][won]["file_now"] == "models/virus_co_v0/ppo.zip"
    crit = {k: choice["results"][f"{k}_2000"]["criterion"] for k in ("previous", "retrained")}
    assert crit[won] == max(crit.values())


def test_the_retrained_virus_cards_2p_model_ships_with_its_split_and_the_previous_one_is_kept():
    """Issue 17 for VIRUS! 2p: the median of three training seeds (seed 2) beat the shipped model on the validation
    deals by the pre-registered rule (docs/results/virus_cards_choice.json), so it is ppo.zip, with its split in
    `virus_meta`, and the model it replaced is ppo_prev.zip: `ppo:builtin_prev` at 2 players (at 4 players the 4-player kept file: next test)."""
    import json

    from virus_envs.agents.ppo import model_meta

    shipped = model_meta(str(MODELS / "virus_cards_v0" / "ppo.zip"))
    split = shipped["split"]
    assert (split["train_seed"], split["val_seed"], split["test_seed"]) == (2, 7_000_003, 9_000_011)
    assert {"heuristic:aggressive", "heuristic:defensive", "ppo:builtin"} <= set(split["test_opponents"])
    kept = model_meta(str(MODELS / "virus_cards_v0" / "ppo_prev.zip"))
    assert kept["git_commit"].startswith("ee13840") and kept["num_players"] == 2
    # trained before the split code: its split was recorded after training, and says it lost this choice
    assert kept["split"]["recorded"].startswith("after training") and kept["split"]["chosen"] is False
    choice = json.loads((MODELS.parent / "docs" / "results" / "virus_cards_choice.json").read_text())
    assert choice["val_seed"] == split["val_seed"] != split["test_seed"]
    won = choice["decision"]["ships"]
    assert choice["models"][won]["file_now"] == "models/virus_cards_v0/ppo.zip"
    assert choice["models"][won]["git_commit"] == shipped["git_commit"]
    crit = {k: choice["results"][f"{k}_2000"]["criterion"] for k in ("current", "candidate")}
    assert won == "candidate" and crit["candidate"] > crit["current"]
    two, four = virus_envs.game("virus_cards_v0", 2), virus_envs.game("virus_cards_v0", 4)
    assert agents.make("ppo:builtin", two).path == str(MODELS / "virus_cards_v0" / "ppo.zip")
    assert agents.make("ppo:builtin_prev", two).path == str(MODELS / "virus_cards_v0" / "ppo_prev.zip")
    assert agents.make("ppo:builtin", four).path == str(MODELS / "virus_cards_v0" / "ppo_4p.zip")
    assert agents.make("ppo:builtin_prev", four).path != str(MODELS / "virus_cards_v0" / "ppo_prev.zip")
    cfg = load_config(MODELS.parent / "configs" / "train" / "virus_cards.yaml")
    assert held_out_opponents(two, cfg)[-2:] == ["ppo:builtin", "ppo:builtin_prev"]


def test_the_retrained_virus_cards_4p_model_ships_with_its_split_and_the_previous_one_is_kept():
    """Issue 17 for VIRUS! 4p: the median of three training seeds of the behaviour-cloned config (seed 1) beat the
    shipped 500K-step model on the validation deals by the pre-registered rule (docs/results/virus_cards_4p_choice.json),
    so it is ppo_4p.zip, with its split in `virus_meta`, and the model it replaced is ppo_4p_prev.zip:
    `ppo:builtin_prev` at 4 players, while the 2-player names keep their own files."""
    import json

    from virus_envs.agents.ppo import model_meta

    shipped = model_meta(str(MODELS / "virus_cards_v0" / "ppo_4p.zip"))
    split = shipped["split"]
    assert shipped["num_players"] == 4 and "virus_cards_4p_bc.yaml" in shipped["command"]
    assert (split["train_seed"], split["val_seed"], split["test_seed"]) == (1, 7_000_003, 9_000_011)
    assert {"heuristic:aggressive", "heuristic:defensive", "ppo:builtin"} <= set(split["test_opponents"])
    kept = model_meta(str(MODELS / "virus_cards_v0" / "ppo_4p_prev.zip"))
    assert kept["git_commit"].startswith("82f4465") and kept["num_players"] == 4 and kept["trained_steps"] == 501_760
    choice = json.loads((MODELS.parent / "docs" / "results" / "virus_cards_4p_choice.json").read_text())
    assert choice["val_seed"] == split["val_seed"] != split["test_seed"] == choice["test_seed_never_used"]
    won = choice["decision"]["ships"]
    assert won == "candidate"
    assert choice["models"]["candidate"]["file_now"] == "models/virus_cards_v0/ppo_4p.zip"
    assert choice["models"]["candidate"]["git_commit"] == shipped["git_commit"]
    assert choice["models"]["current"]["file_now"] == "models/virus_cards_v0/ppo_4p_prev.zip"
    assert choice["models"]["current"]["git_commit"] == kept["git_commit"]
    crit = {k: choice["results"][f"{k}_2000"]["criterion"] for k in ("current", "candidate")}
    assert crit["candidate"] > crit["current"]
    for k in ("current", "candidate"):        # the deciding sample: 2000 validation games against each opponent
        rows = choice["results"][f"{k}_2000"]["rows"]
        assert [(r["opponent"], r["games"], r["players"]) for r in rows] == [("random", 2000, 4), ("heuristic", 2000, 4)]
        assert crit[k] == sum(r["win_rate"] for r in rows) / 2
    # the candidate is the median of the three runs by validation against heuristic (the seeds JSON)
    seeds = json.loads((MODELS.parent / "docs" / "results" / "virus_cards_4p_seeds.json").read_text())
    assert seeds["num_players"] == 4 and seeds["shipped_seed"] == split["train_seed"] and len(seeds["runs"]) == 3
    four = virus_envs.game("virus_cards_v0", 4)
    assert agents.make("ppo:builtin", four).path == str(MODELS / "virus_cards_v0" / "ppo_4p.zip")
    assert agents.make("ppo:builtin_prev", four).path == str(MODELS / "virus_cards_v0" / "ppo_4p_prev.zip")
    cfg = load_config(MODELS.parent / "configs" / "train" / "virus_cards_4p_bc.yaml")
    assert held_out_opponents(four, cfg)[-2:] == ["ppo:builtin", "ppo:builtin_prev"]


def test_roll_write_keeps_its_model_since_the_validation_choice():
    """Issue 17 for Roll & Write: the median of three training seeds (seed 2) lost the pre-registered choice on the
    validation deals (docs/results/roll_write_choice.json), so ppo.zip is still the model of 4f36d57 and no
    ppo_prev.zip is kept for this game."""
    import json

    from virus_envs.agents.ppo import model_meta

    shipped = model_meta(str(MODELS / "roll_write_v0" / "ppo.zip"))
    choice = json.loads((MODELS.parent / "docs" / "results" / "roll_write_choice.json").read_text())
    assert choice["val_seed"] == 7_000_003 != choice["test_seed_never_used"]
    assert choice["decision"]["ships"] == "current"
    crit = {k: choice["results"][f"{k}_2000"]["criterion"] for k in ("current", "candidate")}
    assert crit["current"] >= crit["candidate"]
    assert choice["models"]["current"]["git_commit"] == shipped["git_commit"]
    assert choice["models"]["current"]["file_now"] == "models/roll_write_v0/ppo.zip"
    assert not (MODELS / "roll_write_v0" / "ppo_prev.zip").exists()
