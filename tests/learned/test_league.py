"""The league (issue 17): prioritised fictitious self-play over the opponent pool."""
from __future__ import annotations

import collections
import csv

import pytest

from virus_envs.agents.sb3_env import SelfPlayEnv, pfsp_weights
from virus_envs.experiments.train import config_from_dict, train


def test_pfsp_weights_by_hand():
    base = {"random": 1.0, "heuristic": 2.0, "snapshot": 1.0}
    # the learner wins 90% against random, 50% against the heuristic, nothing measured against snapshots
    w = pfsp_weights(base, {"random": 0.9, "heuristic": 0.5}, exponent=2.0, floor=0.05)
    assert w["random"] == pytest.approx(0.05)          # (1 - 0.9)^2 = 0.01 is below the floor 0.05
    assert w["heuristic"] == pytest.approx(2.0 * 0.25)
    assert w["snapshot"] == 1.0
    assert pfsp_weights(base, {"random": 0.9}, exponent=0.0)["random"] == 1.0       # exponent 0: unchanged
    assert pfsp_weights({"a": 1.0}, {"a": 0.0}, exponent=3.0)["a"] == 1.0           # never beaten: full weight


def test_set_weights_moves_the_draws_and_refuses_what_is_not_in_the_pool():
    env = SelfPlayEnv("virus_cards_v0", opponents={"random": 1.0, "heuristic": 1.0})
    env.reset(seed=0)
    env.set_weights({"random": 0.0})
    kinds = collections.Counter()
    for i in range(30):
        kinds[env.reset(seed=i)[1]["opponents"]] += 1
    assert kinds == {"heuristic": 30}
    with pytest.raises(ValueError, match="'ppo:x' is not in the opponent pool"):
        env.set_weights({"ppo:x": 1.0})
    with pytest.raises(ValueError, match="every weight would be 0"):
        env.set_weights({"heuristic": 0.0})
    with pytest.raises(ValueError, match="non-negative"):
        env.set_weights({"heuristic": -1.0})


def test_a_league_run_logs_its_pool(tmp_path):
    cfg = config_from_dict(dict(
        game="roll_write_v0", total_steps=1024, n_envs=2, n_steps=128, batch_size=128, n_epochs=1, net_arch=[8],
        opponents={"random": 1.0, "heuristic": 1.0}, pfsp=2.0, pfsp_min_games=1, eval_every=100_000,
        eval_games=1, eval_opponents=["random"], progress_every=512, test_games=0, seed=1))
    lines = []
    train(cfg, tmp_path, echo=lines.append)
    rows = list(csv.DictReader(open(tmp_path / "progress.csv")))
    last = rows[-1]
    shares = {k: float(last[f"pool/weight_{k}"]) for k in ("random", "heuristic")}
    assert sum(shares.values()) == pytest.approx(1.0)
    # the heuristic beats a fresh learner far more often than random does: it gets the larger share
    assert shares["heuristic"] > shares["random"]
    assert any("pool: " in s for s in lines)


def test_expert_iteration_clones_the_search_agent(tmp_path):
    """Search-guided learning: the behaviour-cloning warm start and its DAgger rounds take IS-MCTS as the
    teacher (its decisions get their search handle), then PPO goes on from the clone."""
    cfg = config_from_dict(dict(
        game="roll_write_v0", total_steps=256, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=[8],
        opponents={"random": 1.0}, eval_every=100_000, eval_games=1, eval_opponents=["random"], test_games=0,
        bc_teacher="ismcts?iters=4", bc_games=2, bc_epochs=1, bc_batch_size=32, bc_dagger_rounds=1,
        bc_dagger_games=1, bc_dagger_epochs=1, seed=2))
    lines = []
    summary = train(cfg, tmp_path, echo=lines.append)
    assert summary["bc"]["teacher"] == "ismcts?iters=4" and summary["bc"]["decisions"] > 0
    assert any("DAgger round 1" in s for s in lines) and (tmp_path / "bc.zip").is_file()


def test_the_pool_issue_17_names_trains_and_is_logged_kind_by_kind(tmp_path):
    """Issue 17: "The pool holds past snapshots, every heuristic variant and the search agent at a small budget"
    and "Log the pool's composition and win rates as training goes": a league run with exactly that pool plays
    every kind, and progress.csv has a weight and a win share for each."""
    from virus_envs import agents
    import virus_envs

    variants = [v for v in agents.make("heuristic", virus_envs.game("roll_write_v0")).VARIANTS if v != "default"]
    pool = {"snapshot": 1.0, "heuristic": 1.0, "ismcts?iters=4": 1.0, **{f"heuristic:{v}": 1.0 for v in variants}}
    cfg = config_from_dict(dict(
        game="roll_write_v0", total_steps=2048, n_envs=2, n_steps=256, batch_size=256, n_epochs=1, net_arch=[8],
        opponents=pool, pfsp=1.0, pfsp_min_games=1, snapshot_every=512, eval_every=100_000, eval_games=1,
        eval_opponents=["random"], progress_every=1024, test_games=0, seed=3))
    lines = []
    train(cfg, tmp_path, echo=lines.append)
    last = list(csv.DictReader(open(tmp_path / "progress.csv")))[-1]
    assert float(last["selfplay/snapshots"]) >= 1
    for kind in pool:
        assert f"pool/weight_{kind}" in last, kind
    assert sum(float(last[f"pool/weight_{k}"]) for k in pool) == pytest.approx(1.0)
    played = {k[len("selfplay/win_"):] for k, v in last.items() if k.startswith("selfplay/win_") and v != ""}
    assert "ismcts?iters=4" in played and len(played) >= 3, played
