"""Tiny training runs (a few thousand steps) through the whole pipeline; no claim about learning quality."""
import csv
import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from virus_envs import agents
import virus_envs
from virus_envs.experiments.arena import play_game
from virus_envs.experiments.cli import main
from virus_envs.experiments.train import TrainConfig, config_from_dict, load_config, make_env_fn, progress_bar, train

torch.set_num_threads(1)


def _tiny(env_id, **kw):
    pool = {"random": 1.0, "snapshot": 1.0, "heuristic": 1.0}
    evals = ["random", "heuristic"]
    base = dict(game=env_id, total_steps=2048, n_envs=2, n_steps=256, batch_size=256, n_epochs=1,
                net_arch=[16, 16], opponents=pool, snapshot_every=512, eval_every=1024, eval_games=4,
                eval_opponents=evals, progress_every=1024, seed=5, test_games=1)
    base.update(kw)
    return config_from_dict(base)


def test_progress_bar():
    assert progress_bar(0, 100, 10) == "|..........|   0%"
    assert progress_bar(25, 100, 20) == "|#####...............|  25%"
    assert progress_bar(150, 100, 4) == "|####| 100%" and progress_bar(5, 0, 4) == "|####| 100%"


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_tiny_training_run_end_to_end(env_id, tmp_path):
    lines = []
    summary = train(_tiny(env_id), tmp_path, echo=lines.append, command="test")
    for name in ("final.zip", "best.zip", "progress.csv", "eval.csv", "test.csv", "config.yaml", "summary.json"):
        assert (tmp_path / name).is_file(), name
    assert list(tmp_path.glob("events.out.tfevents.*")), "make setup installs the tensorboard extra: its events"
    assert summary["steps"] >= 2048 and len(summary["evals"]) == 2          # at 1024 and 2048 steps
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == ["step_1024.zip", "step_2048.zip"]
    rows = list(csv.DictReader(open(tmp_path / "eval.csv")))
    coop = getattr(virus_envs.game_class(env_id), "cooperative", False)
    assert {r["opponent"] for r in rows} == set(_tiny(env_id).eval_opponents) | ({"team"} if coop else set())
    assert all(0 <= float(r["ci95_low"]) <= float(r["win_rate"]) <= float(r["ci95_high"]) <= 1 for r in rows)
    progress = list(csv.DictReader(open(tmp_path / "progress.csv")))
    assert progress and "train/value_loss" in progress[0]
    assert any(k.startswith("selfplay/win_") for k in progress[-1])
    assert float(progress[-1]["selfplay/snapshots"]) >= 1                  # the pool was refreshed
    assert any("eval at" in s for s in lines) and any("steps/s" in s for s in lines)
    # issue 17: "a progress bar with fps and the latest evaluation": the line after the first validation shows both
    last = [s for s in lines if "steps/s" in s][-1]
    assert "|####################| 100%" in last and re.search(r"last validation \(2,048 steps\): .*random \d\.\d{3}", last)
    # the saved model is an agent of the tournament code
    game = virus_envs.game(env_id)
    line = [agents.make(f"ppo:{tmp_path / 'final.zip'}", game)] + [agents.make("random", game)
                                                                   for _ in range(game.num_players - 1)]
    play_game(game, line, seed=3)          # a whole game, IllegalActionError on an illegal choice
    meta = line[0].meta
    assert meta["env_id"] == env_id and meta["num_players"] == game.num_players and meta["trained_steps"] >= 2048
    assert meta["git_dirty"] in (True, False, None)          # the checkout's state beside git_commit
    # chosen on the validation deals, reported on the test deals against held-out opponents (issue 17)
    split = meta["split"]
    assert (split["val_seed"], split["test_seed"], split["train_seed"]) == (7_000_003, 9_000_011, 5)
    variants = getattr(agents.make("heuristic", game), "VARIANTS", {}) or {}
    held_out = {f"heuristic:{v}" for v in variants if v != "default"}
    assert held_out <= set(split["test_opponents"]) and "heuristic" in split["test_opponents"]
    test_rows = list(csv.DictReader(open(tmp_path / "test.csv")))
    assert {r["opponent"] for r in test_rows} >= held_out | ({"team"} if coop else set())
    assert summary["test"] and summary["split"] == split
    assert any(s.startswith(f"[{env_id}] test vs") for s in lines)


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_losses_reach_the_learners_transitions(env_id):
    """In PPO's own rollout buffer: -1 on the learner's last transition of lost games, +1 of won ones."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    cfg = _tiny(env_id, opponents={"random": 1.0})
    venv = DummyVecEnv([make_env_fn(cfg, virus_envs.game(env_id).num_players) for _ in range(2)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, n_epochs=1, seed=1, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(1024)
    buf = model.rollout_buffer
    rewards, starts = buf.rewards, buf.episode_starts      # shape (n_steps, n_envs)
    assert (rewards < 0).any(), "no loss ever reached a transition"
    if not getattr(virus_envs.game_class(env_id), "cooperative", False):   # random teams may never win
        assert (rewards > 0).any()
    # a non-zero reward is only ever on an episode's last transition (the next one starts a new game)
    nz = np.argwhere(rewards[:-1] != 0)
    assert len(nz) and all(starts[t + 1, e] == 1 for t, e in nz)
    venv.close()


def test_cli_train_with_a_config_file(tmp_path, capsys):
    cfgfile = tmp_path / "c.yaml"
    cfgfile.write_text("game: virus_cards_v0\ntotal_steps: 4096\nn_envs: 2\nn_steps: 128\nbatch_size: 128\n"
                       "n_epochs: 1\nnet_arch: [8]\neval_every: 100000\neval_games: 2\nsnapshot_every: 256\n")
    out = tmp_path / "run"
    main(["train", "--game", "virus_cards_v0", "--config", str(cfgfile), "--total-steps", "512", "--seed", "3",
          "--out", str(out), "--eval-games", "1", "--progress-every", "256", "--test-games", "1"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 512 and len(summary["evals"]) == 1       # the end is always evaluated
    saved = load_config(out / "config.yaml")
    assert (saved.seed, saved.eval_games, saved.progress_every, saved.test_games) == (3, 1, 256, 1)
    assert all(r["games"] == 1 for r in summary["evals"][0]["rows"]) and summary["test"]
    text = capsys.readouterr().out
    assert f"config: {cfgfile}; resolved: " in text and "total_steps=512" in text
    assert "done" in text


@pytest.mark.parametrize("text, fragment", [
    ("game: virus_cards_v0\nlearning_rat: 0.1\n", "unknown key 'learning_rat'"),
    ("total_steps: many\n", "key 'total_steps' must be an integer, got 'many'"),
    ("vec_env: threads\n", "key 'vec_env' must be one of"),
    ("opponents: {random: -1}\n", "key 'opponents.random' must not be negative, got -1"),
    ("game: roll_write_v0\n", "not --game"),
])
def test_cli_config_mistakes_are_one_line(tmp_path, text, fragment):
    cfgfile = tmp_path / "c.yaml"
    cfgfile.write_text(text)
    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "virus_cards_v0", "--config", str(cfgfile), "--out", str(tmp_path / "o")])
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_cli_unknown_game_and_missing_config(tmp_path):
    with pytest.raises(SystemExit, match="unknown env id"):
        main(["train", "--game", "nope"])
    with pytest.raises(SystemExit, match="config file not found"):
        main(["train", "--game", "virus_cards_v0", "--config", str(tmp_path / "none.yaml")])


def test_default_config_is_valid():
    assert TrainConfig().total_steps > 0
    config_from_dict({})


def test_same_seed_same_weights(tmp_path):
    """A run is reproducible with --seed (one process, one thread): the same final weights twice."""
    from virus_envs.agents.ppo import load_model

    cfg = dict(total_steps=1024, eval_every=512, snapshot_every=256, eval_games=2)
    train(_tiny("virus_cards_v0", **cfg), tmp_path / "a", echo=lambda *_: None)
    train(_tiny("virus_cards_v0", **cfg), tmp_path / "b", echo=lambda *_: None)
    pa, pb = load_model(tmp_path / "a" / "final.zip")[1], load_model(tmp_path / "b" / "final.zip")[1]
    assert all(np.array_equal(wa, wb) and np.array_equal(ba, bb) for (wa, ba), (wb, bb) in zip(pa.layers, pb.layers))


def test_a_run_is_reproducible_from_its_models_own_config(tmp_path):
    """A model's `virus_meta["config"]` is enough to train it again, weight for weight.

    The opponent pool is drawn in the config's key order, so that order is part of the run: the model file
    must keep it (a file written with sorted keys turned {random, snapshot, heuristic} into {heuristic, random,
    snapshot}, and the Roll & Write model of 2026-11-29 could not be retrained from its own record)."""
    from virus_envs.agents.model_file import read_entry
    from virus_envs.agents.ppo import load_model

    cfg = dict(total_steps=1024, eval_every=512, snapshot_every=256, eval_games=2)
    train(_tiny("virus_cards_v0", **cfg), tmp_path / "a", echo=lambda *_: None)
    meta = read_entry(str(tmp_path / "a" / "final.zip")).virus_meta
    assert list(meta["config"]["opponents"]) == ["random", "snapshot", "heuristic"]      # the order given
    train(config_from_dict(meta["config"]), tmp_path / "b", echo=lambda *_: None)
    pa, pb = load_model(tmp_path / "a" / "final.zip")[1], load_model(tmp_path / "b" / "final.zip")[1]
    assert all(np.array_equal(wa, wb) and np.array_equal(ba, bb) for (wa, ba), (wb, bb) in zip(pa.layers, pb.layers))


@pytest.mark.parametrize("path", sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "configs" / "train").glob("*.yaml")))
def test_every_shipped_training_config_loads(path):
    """A config file in configs/train is a command in the docs: it must stay valid as TrainConfig changes."""
    cfg = load_config(path)
    assert cfg.game in virus_envs.ENV_IDS


def test_a_model_records_whether_its_checkout_had_uncommitted_changes(tmp_path):
    """`git_commit` names HEAD; a run from a tree with uncommitted changes records `git_dirty` true, since that
    commit alone will not reproduce it (the Roll & Write model of 2026-11-29 could not be re-created so)."""
    import subprocess

    from virus_envs.experiments.train import _git_dirty, _git_head

    assert _git_dirty(tmp_path) is None and _git_head(tmp_path) == ""          # not a checkout: nothing to say
    git = lambda *a: subprocess.run(["git", *a], cwd=tmp_path, check=True, capture_output=True)
    git("init", "-q")
    (tmp_path / "f.txt").write_text("one\n")
    git("add", "f.txt")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    assert _git_dirty(tmp_path) is False and len(_git_head(tmp_path)) == 40
    (tmp_path / "new.txt").write_text("untracked files do not make a run differ\n")
    assert _git_dirty(tmp_path) is False
    (tmp_path / "f.txt").write_text("two\n")
    assert _git_dirty(tmp_path) is True
