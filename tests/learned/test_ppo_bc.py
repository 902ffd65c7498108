"""Behaviour-cloning warm start (agents/imitation.py, `bc_*` keys of experiments/train.py); no claim about
learning quality (the figures live in docs/agents.md)."""
import csv
import json

import numpy as np
import pytest
import torch

from virus_envs import agents
import virus_envs
from virus_envs.agents.imitation import MASKED_LOGIT, Demonstrations, behaviour_clone, collect, masked_logits, sparse_logits
from virus_envs.experiments.arena import play_game
from virus_envs.experiments.train import config_from_dict, train

torch.set_num_threads(1)

LAB = {"difficulty": 1}


def _policy(env_id, players=None, game_config=None, arch=(16, 16)):
    """A fresh MaskablePPO policy of the shape train() builds (the network BC trains in place)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from virus_envs.agents.sb3_env import SelfPlayEnv

    venv = DummyVecEnv([lambda: SelfPlayEnv(env_id, players, game_config)])
    return MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0, device="cpu",
                       policy_kwargs={"net_arch": list(arch)})


@pytest.mark.parametrize("env_id, players, game_config", [("virus_lab_v0", 1, LAB), ("virus_cards_v0", 2, {})])
def test_bc_then_ppo_end_to_end(env_id, players, game_config, tmp_path):
    """Teacher games -> cloning -> one DAgger round -> the clone evaluated at step 0 -> PPO from those weights."""
    cfg = config_from_dict(dict(
        game=env_id, players=players, game_config=game_config, total_steps=512, n_envs=2, n_steps=128,
        batch_size=128, n_epochs=1, net_arch=[16, 16], vf_arch=[8], opponents={"random": 1.0}, eval_every=512,
        eval_games=2, eval_opponents=["random"], progress_every=256, snapshot_every=256, seed=3, test_games=0,
        bc_teacher="heuristic", bc_games=3, bc_epochs=2, bc_batch_size=64, bc_dagger_rounds=1, bc_dagger_games=2,
        bc_dagger_epochs=1, save_optimizer=False))
    lines = []
    summary = train(cfg, tmp_path, echo=lines.append, command="test")
    bc = summary["bc"]
    assert bc["teacher"] == "heuristic" and bc["decisions"] > 0 and len(bc["dagger"]) == 1
    assert 0.0 <= bc["teacher_win_rate"] <= 1.0 and 0.0 < bc["chance_acc"] <= 1.0
    rows = list(csv.DictReader(open(tmp_path / "bc.csv")))
    assert [(r["phase"], r["epoch"]) for r in rows] == [("bc", "1"), ("bc", "2"), ("dagger1", "1")]
    assert all(0.0 <= float(r["train_acc"]) <= 1.0 and float(r["train_loss"]) >= 0 for r in rows)
    assert any("[bc] epoch" in s for s in lines) and any("DAgger round 1" in s for s in lines)
    # the clone is evaluated before PPO (step 0), then PPO trains on from it
    assert [e["step"] for e in summary["evals"]][:1] == [0] and summary["steps"] >= 512
    assert (tmp_path / "bc.zip").is_file() and (tmp_path / "checkpoints" / "step_0.zip").is_file()
    evals = list(csv.DictReader(open(tmp_path / "eval.csv")))
    assert evals[0]["step"] == "0"
    game = virus_envs.game(env_id, players, **game_config)
    for name in ("bc.zip", "final.zip"):
        line = [agents.make(f"ppo:{tmp_path / name}", game) for _ in range(game.num_players)]
        play_game(game, line, seed=1)      # a whole game, IllegalActionError on an illegal choice
    meta = line[0].meta
    assert meta["bc"]["teacher"] == "heuristic" and meta["config"]["bc_games"] == 3
    assert json.loads((tmp_path / "summary.json").read_text())["bc"]["decisions"] == bc["decisions"]


def test_collect_records_every_choice_with_its_observation_and_return():
    """Replaying the teacher's games gives back each recorded observation, mask and action; forced moves are
    skipped; the return is the seat's final return discounted by its own later decisions."""
    game = virus_envs.game("virus_cards_v0", 2)
    gamma = 0.9
    d = collect(game, "heuristic", 2, seed=7, gamma=gamma)
    from virus_envs.agents.imitation import _game_seeds
    row = 0
    for g, deal in enumerate(_game_seeds(7, 2)):
        st = game.new_initial_state(seed=deal)
        line = [agents.make("heuristic", game) for _ in range(2)]
        for i, ag in enumerate(line):
            ag.reset(seed=(deal * 7919 + i) % (2**63))
        recorded, count = [], [0, 0]         # (row, seat, the seat's decision number); decisions per seat
        while not st.is_terminal():
            p = st.current_player()
            dec = agents.decision_for(st)
            a = line[p].act(dec)
            if dec.action_mask.sum() > 1:
                obs, mask = d.batch(np.array([row]))
                assert np.array_equal(obs[0], dec.observation) and np.array_equal(mask[0], dec.action_mask)
                assert d.actions[row] == a and d.game_ids[row] == g
                recorded.append((row, p, count[p]))
                row += 1
            count[p] += 1
            st.apply_action(a)
        r = st.returns()
        for i, p, t in recorded:
            assert d.returns[i] == pytest.approx(r[p] * gamma ** (count[p] - 1 - t), rel=1e-5)
    assert row == len(d)


def test_collect_does_not_depend_on_workers_or_chunks():
    game = virus_envs.game("virus_lab_v0", 1, **LAB)
    a = collect(game, "random", 4, seed=2, workers=1, chunk=4)
    b = collect(game, "random", 4, seed=2, workers=2, chunk=1)
    for f in ("obs_ptr", "obs_idx", "obs_val", "mask_ptr", "mask_idx", "actions", "returns", "game_ids"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert a.games == b.games == 4 and a.decisions == b.decisions
    assert np.all(a.returns < 0)                                   # random teams lose this game


def test_concat_keeps_games_apart():
    game = virus_envs.game("virus_cards_v0", 2)
    a, b = collect(game, "random", 2, seed=1), collect(game, "random", 3, seed=2)
    c = Demonstrations.concat([a, b])
    assert len(c) == len(a) + len(b) and c.games == 5
    assert set(np.unique(c.game_ids)) == set(range(5))
    rows = np.arange(len(b))
    assert np.array_equal(c.batch(rows + len(a))[0], b.batch(rows)[0])
    assert np.array_equal(c.masks(rows + len(a)), b.masks(rows))


def test_sparse_first_layer_equals_the_dense_network():
    model = _policy("virus_lab_v0", 1, LAB, arch=(32, 16))
    game = virus_envs.game("virus_lab_v0", 1, **LAB)
    d = collect(game, "random", 2, seed=0)
    rows = np.arange(0, len(d), 3)
    obs, mask = d.batch(rows)
    dense_l, dense_v = masked_logits(model.policy, torch.as_tensor(obs), torch.as_tensor(mask))
    si, so, sv = d.sparse_batch(rows)
    sp_l, sp_v = sparse_logits(model.policy, torch.as_tensor(si), torch.as_tensor(so), torch.as_tensor(sv),
                               torch.as_tensor(d.masks(rows)))
    assert torch.allclose(dense_l, sp_l, atol=1e-5) and torch.allclose(dense_v, sp_v, atol=1e-5)
    # illegal actions carry MaskableCategorical's masked logit, so the argmax is always legal
    assert torch.all(dense_l[~torch.as_tensor(mask)] == MASKED_LOGIT)
    assert mask[np.arange(len(rows)), dense_l.argmax(-1).numpy()].all()
    # and the same numbers as SB3's own forward pass (features -> mlp_extractor -> heads)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs))
        logits = dist.distribution.logits
        values = model.policy.predict_values(torch.as_tensor(obs)).squeeze(-1)
    ref = torch.log_softmax(dense_l.detach(), -1)
    own = torch.log_softmax(logits.masked_fill(~torch.as_tensor(mask), MASKED_LOGIT), -1)
    assert torch.allclose(ref, own, atol=1e-5) and torch.allclose(dense_v.detach(), values, atol=1e-5)


def test_cloning_lowers_the_training_loss_and_leaves_ppos_optimizer_alone():
    model = _policy("virus_cards_v0", 2)
    game = virus_envs.game("virus_cards_v0", 2)
    d = collect(game, "heuristic", 12, seed=4, gamma=0.99)
    assert not model.policy.optimizer.state
    rows = behaviour_clone(model.policy, d, epochs=6, lr=3e-3, batch_size=32, value_coef=0.5, seed=0)
    assert len(rows) == 6 and rows[-1]["train_loss"] < rows[0]["train_loss"]
    assert rows[-1]["train_value_loss"] < rows[0]["train_value_loss"]
    assert "val_acc" in rows[0] and rows[0]["val_samples"] > 0        # 12 games: one held out
    assert not model.policy.optimizer.state                              # PPO's Adam state untouched
    with pytest.raises(ValueError, match="games"):
        collect(game, "heuristic", 0)
    with pytest.raises(ValueError, match="unknown agent"):
        collect(game, "nonsense", 1)


@pytest.mark.parametrize("text, fragment", [
    ("bc_games: 0\n", "key 'bc_games' must be at least 1"),
    ("bc_lr: 0\n", "key 'bc_lr' must be positive"),
    ("bc_dagger_rounds: -1\n", "key 'bc_dagger_rounds' must not be negative"),
    ("target_kl: -0.1\n", "key 'target_kl' must not be negative"),
    ("vf_arch: [64, 0]\n", "key 'vf_arch[1]' must be at least 1, got 0"),
    ("bc_teacher: 3\n", "key 'bc_teacher' must be a string, got 3"),
])
def test_bc_config_mistakes_are_one_line(tmp_path, text, fragment):
    from virus_envs.experiments.cli import main

    cfgfile = tmp_path / "c.yaml"
    cfgfile.write_text(text)
    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "virus_cards_v0", "--config", str(cfgfile), "--out", str(tmp_path / "o")])
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_bad_teacher_fails_before_training(tmp_path):
    cfg = config_from_dict(dict(game="virus_cards_v0", total_steps=64, bc_teacher="nonsense"))
    with pytest.raises(ValueError, match="unknown agent"):
        train(cfg, tmp_path, echo=lambda *_: None)
    assert not (tmp_path / "final.zip").exists()


def test_model_saved_without_optimizer_state_is_smaller_and_plays(tmp_path):
    from virus_envs.experiments.train import save_model

    model = _policy("virus_cards_v0", 2, arch=(64, 64))
    model.learn(128)                                     # Adam now holds moment estimates
    assert model.policy.optimizer.state
    save_model(model, tmp_path / "full.zip")
    save_model(model, tmp_path / "slim.zip", optimizer=False)
    assert model.policy.optimizer.state                  # restored after saving
    assert (tmp_path / "slim.zip").stat().st_size < 0.6 * (tmp_path / "full.zip").stat().st_size
    game = virus_envs.game("virus_cards_v0", 2)
    full, slim = agents.make(f"ppo:{tmp_path / 'full.zip'}", game), agents.make(f"ppo:{tmp_path / 'slim.zip'}", game)
    d = agents.decision_for(game.new_initial_state(seed=0))
    assert np.array_equal(full.policy.logits(d.observation), slim.policy.logits(d.observation))


def test_progress_potential_shapes_the_cooperative_game_and_telescopes():
    """virus_envs.agents.shaping:virus_lab_progress: intermediate rewards before the end, summing to the return - Phi(first)."""
    from virus_envs.agents.sb3_env import SelfPlayEnv

    env = SelfPlayEnv("virus_lab_v0", 1, LAB, shaping=0.1, gamma=1.0, potential="virus_envs.agents.shaping:virus_lab_progress")
    teacher = agents.make("heuristic", env.game)
    early = 0
    for ep in range(4):
        env.reset(seed=20 + ep)
        teacher.reset(seed=ep)
        phi0, total, done = env._phi, 0.0, False
        while not done:
            _, r, done, _, info = env.step(teacher.act(agents.decision_for(env.state)))
            total += r
            early += (r != 0) and not done
        assert total == pytest.approx(info["learner_return"] - phi0)
    assert early > 0
    with pytest.raises(ValueError, match="co-operative"):
        SelfPlayEnv("virus_lab_v0", 1, LAB, shaping=0.1)                # no rival score to compare with
    with pytest.raises(ValueError, match="potential"):
        SelfPlayEnv("virus_lab_v0", 1, LAB, shaping=0.1, potential="virus_envs.agents.shaping:nothing")


def test_init_from_starts_ppo_from_saved_weights(tmp_path):
    base = dict(game="virus_cards_v0", players=2, total_steps=256, n_envs=2, n_steps=128, batch_size=128,
                n_epochs=1, net_arch=[16, 16], opponents={"random": 1.0}, eval_every=10_000, eval_games=2, test_games=0,
                eval_opponents=["random"], seed=2)
    train(config_from_dict(dict(base, bc_teacher="heuristic", bc_games=2, bc_epochs=1)), tmp_path / "a",
          echo=lambda *_: None)
    summary = train(config_from_dict(dict(base, init_from=str(tmp_path / "a" / "bc.zip"))), tmp_path / "b",
                    echo=lambda *_: None)
    assert summary["bc"] is None and summary["evals"][0]["step"] == 0
    from virus_envs.agents.ppo import load_model
    start, clone = load_model(tmp_path / "b" / "checkpoints" / "step_0.zip")[1], load_model(tmp_path / "a" / "bc.zip")[1]
    assert all(np.array_equal(w1, w2) and np.array_equal(b1, b2)
               for (w1, b1), (w2, b2) in zip(start.layers, clone.layers))
    with pytest.raises(ValueError, match="networks differ"):
        train(config_from_dict(dict(base, net_arch=[8], init_from=str(tmp_path / "a" / "bc.zip"))),
              tmp_path / "c", echo=lambda *_: None)


def test_shipped_lab_model_is_the_clone_and_plays_a_team_game():
    """models/virus_lab_v0/ppo.zip: the behaviour-cloned policy (bc.zip of its run), 1 Hero, difficulty 1."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "models" / "virus_lab_v0" / "ppo.zip"
    agent_spec = f"ppo:{path}"
    from virus_envs.agents.ppo import load_model
    meta = load_model(path)[2]
    assert meta["env_id"] == "virus_lab_v0" and meta["num_players"] == 1 and meta["bc"]["teacher"] == "heuristic"
    game = virus_envs.game("virus_lab_v0", 1, **meta["game_config"])
    _, actions = play_game(game, [agents.make(agent_spec, game)], seed=11, record=True)
    assert len(actions) > 10


def test_a_single_seat_learner_is_labelled_alone():
    from virus_envs.agents.sb3_env import SelfPlayEnv

    env = SelfPlayEnv("virus_lab_v0", 1, LAB)
    _, info = env.reset(seed=0)
    assert info["opponents"] == "alone"


def test_same_seed_same_clone(tmp_path):
    """Cloning (DAgger included) gives the same weights twice with one seed (workers: see test_collect_does_not_...)."""
    from virus_envs.agents.ppo import load_model

    base = dict(game="virus_cards_v0", players=2, total_steps=128, n_envs=2, n_steps=64, batch_size=64,
                n_epochs=1, net_arch=[16], opponents={"random": 1.0}, eval_every=10_000, eval_games=1, test_games=0,
                eval_opponents=["random"], seed=4, bc_teacher="heuristic", bc_games=4, bc_epochs=2,
                bc_batch_size=32, bc_dagger_rounds=1, bc_dagger_games=2)
    for name in ("a", "b"):
        train(config_from_dict(base), tmp_path / name, echo=lambda *_: None)
    pa, pb = load_model(tmp_path / "a" / "bc.zip")[1], load_model(tmp_path / "b" / "bc.zip")[1]
    assert all(np.array_equal(wa, wb) and np.array_equal(ba, bb) for (wa, ba), (wb, bb) in zip(pa.layers, pb.layers))


def test_on_epoch_sees_each_epoch_s_row_and_changes_nothing():
    """behaviour_clone's on_epoch hook (experiments/lab_clone_capacity.py evaluates between epochs): called once per
    epoch, in order, with the logged row, the policy in eval mode; the clone is the one trained without the hook."""
    game = virus_envs.game("virus_cards_v0", 2)
    d = collect(game, "heuristic", 12, seed=4, gamma=0.99)
    plain, hooked = _policy("virus_cards_v0", 2), _policy("virus_cards_v0", 2)
    seen = []
    a = behaviour_clone(plain.policy, d, epochs=3, lr=3e-3, batch_size=32, seed=0)
    b = behaviour_clone(hooked.policy, d, epochs=3, lr=3e-3, batch_size=32, seed=0,
                        on_epoch=lambda row: seen.append((row["epoch"], hooked.policy.training)))
    assert seen == [(1, False), (2, False), (3, False)]
    from virus_envs.agents.imitation import held_out_rows       # the rows it validated on, as an experiment sees them
    rows = held_out_rows(d, seed=0)
    assert b[0]["val_samples"] == rows.shape[0] > 0
    assert len(set(d.game_ids[rows].tolist())) == 1                  # 12 games: 5% rounds to one held-out game
    assert [r["train_loss"] for r in a] == [r["train_loss"] for r in b]
    for p, q in zip(plain.policy.parameters(), hooked.policy.parameters()):
        assert torch.equal(p, q)


def test_lab_capacity_pieces_on_a_tiny_clone(tmp_path):
    """experiments/lab_clone_capacity.py on 6 teacher games: the cached demonstrations load back equal, the
    per-kind accuracy covers every held-out row, and the team win rate is a Wilson row on the validation deals."""
    from virus_envs.experiments import lab_clone_capacity as cap

    d = cap.load_or_collect(tmp_path, 6, 3, 1, echo=lambda s: None)
    again = cap.load_or_collect(tmp_path, 6, 3, 1, echo=lambda s: None)
    assert len(again) == len(d) and np.array_equal(again.actions, d.actions) and again.games == 6
    assert np.array_equal(again.obs_val, d.obs_val) and again.obs_size == d.obs_size
    policy = cap.make_policy([16], "relu", 0)
    rows = np.arange(len(d))
    names = [cap._game().action_to_string(a).split()[0] for a in range(d.num_actions)]
    acc = cap.kind_accuracy(policy, d, rows, names)
    assert acc["all"]["n"] == len(d) == sum(v["n"] for k, v in acc.items() if k != "all")
    team = cap.team_win_rate(policy, 1)
    assert team["games"] == 1 and team["seed"] == cap.VAL_SEED and 0 <= team["ci95"][0] <= team["ci95"][1] <= 1


def test_lab_capacity_summary_marks_a_variant_stopped_early(tmp_path):
    """--summarize: every variant file found, in VARIANTS order, with the teacher data's meta and, for a run cut
    before its epochs, the epoch it stopped after (the stored file then says so, the page need not guess)."""
    from virus_envs.experiments import lab_clone_capacity as cap

    row = {"epoch": 2, "train_acc": 0.5, "val_acc": 0.4, "by_kind": {}, "team_val": {}}
    (tmp_path / "wide.json").write_text(json.dumps([row]))
    (tmp_path / "base.json").write_text(json.dumps([dict(row, epoch=5)]))
    cap.summarize(tmp_path, str(tmp_path / "s.json"), 6000, 0)
    doc = json.loads((tmp_path / "s.json").read_text())
    assert list(doc["variants"]) == ["base", "wide"] and doc["teacher"] is None and doc["val_seed"] == 7000003
    assert doc["variants"]["wide"]["stopped_after_epoch"] == 2 and doc["variants"]["base"]["stopped_after_epoch"] is None
    with pytest.raises(SystemExit, match="no variant results"):
        cap.summarize(tmp_path / "empty", str(tmp_path / "t.json"), 6000, 0)
