"""Policy targets from search visit counts (issue 17, expert iteration AlphaZero-style): the search agents'
root visit shares, their collection as soft targets, and cloning by cross-entropy to them."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from virus_envs import agents
import virus_envs
from virus_envs.agents.imitation import (MASKED_LOGIT, Demonstrations, behaviour_clone, collect,
                                         soft_cross_entropy)
from virus_envs.core.positions import random_position
from virus_envs.experiments.train import config_from_dict, train

torch.set_num_threads(1)


def _decision_with_choices(game, seed):
    """A decision of a random position with at least two legal actions, with its search handle."""
    for k in range(50):
        st = random_position(game, seed + k, 6 + k)
        if not st.is_terminal() and st.legal_action_mask().sum() > 1:
            return agents.decision_for(st, with_handle=True)
    raise AssertionError("no position with a choice")


@pytest.mark.parametrize("env_id", ["virus_cards_v0", "roll_write_v0"])
def test_ismcts_exposes_its_root_visit_shares_over_the_legal_actions(env_id):
    game = virus_envs.game(env_id, 2)
    iters = 40
    agent = agents.make(f"ismcts?iters={iters}&seed=3", game)
    for seed in (1, 100):
        d = _decision_with_choices(game, seed)
        a = agent.act(d)
        shares = agent.last_policy
        legal = set(d.legal_actions.tolist())
        assert set(shares) == legal                               # every legal action, nothing else
        assert sum(shares.values()) == pytest.approx(1.0)
        # each iteration descends through exactly one root action: a share is visits / iterations
        for s in shares.values():
            assert s * iters == pytest.approx(round(s * iters))
        assert shares[a] == max(shares.values())                   # the move played is the most visited


def test_a_forced_move_is_its_own_whole_policy_and_pimc_sums_its_worlds():
    game = virus_envs.game("virus_cards_v0", 2)
    agent = agents.make("ismcts?iters=5", game)
    st = game.new_initial_state(seed=0)
    d = agents.decision_for(st, with_handle=True)
    only = int(d.legal_actions[0])
    mask = np.zeros_like(d.action_mask)
    mask[only] = 1
    forced = agents.Decision(d.seat, d.phase, d.view, d.observation, mask, game, d.handle)
    assert agent.act(forced) == only and agent.last_policy == {only: 1.0}
    pimc = agents.make("pimc?worlds=3&iters=10&seed=1", game)
    d = _decision_with_choices(game, 7)
    pimc.act(d)
    assert set(pimc.last_policy) == set(d.legal_actions.tolist())
    # 3 worlds x 10 iterations = 30 root visits in all
    assert all(s * 30 == pytest.approx(round(s * 30)) for s in pimc.last_policy.values())
    assert sum(pimc.last_policy.values()) == pytest.approx(1.0)


def test_soft_cross_entropy_by_hand():
    # softmax(0, ln 3) = (1/4, 3/4), the third action masked; target (1/4, 3/4, 0):
    # -(1/4 ln 1/4 + 3/4 ln 3/4) = 0.5623351446...
    logits = torch.tensor([[0.0, math.log(3.0), MASKED_LOGIT]])
    target = torch.tensor([[0.25, 0.75, 0.0]])
    assert float(soft_cross_entropy(logits, target)) == pytest.approx(0.5623351446, abs=1e-6)
    # a one-hot target on the second action: -ln 3/4 = 0.2876820725
    assert float(soft_cross_entropy(logits, torch.tensor([[0.0, 1.0, 0.0]]))) == pytest.approx(0.2876820725,
                                                                                               abs=1e-6)


def test_collect_records_the_visit_shares_beside_the_action():
    game = virus_envs.game("roll_write_v0", 2)
    d = collect(game, "ismcts?iters=6", 1, seed=4, targets="visits")
    assert d.soft is not None and d.soft.shape == d.mask_idx.shape
    targets = d.soft_targets(np.arange(len(d)))
    masks = d.masks(np.arange(len(d)))
    assert np.allclose(targets.sum(1), 1.0, atol=1e-5)
    assert np.all(targets[~masks] == 0.0)                          # no share on an illegal action
    chosen = targets[np.arange(len(d)), d.actions]
    assert np.all(chosen == targets.max(1))                        # the teacher played its most visited move
    both = Demonstrations.concat([d, collect(game, "ismcts?iters=6", 1, seed=5, targets="visits")])
    assert both.soft.shape == both.mask_idx.shape
    assert collect(game, "ismcts?iters=6", 1, seed=4).soft is None  # the default records actions only


def test_visit_targets_need_a_search_teacher():
    game = virus_envs.game("roll_write_v0", 2)
    with pytest.raises(ValueError, match="'visits' needs a search teacher .* 'heuristic' has none"):
        collect(game, "heuristic", 1, targets="visits")
    d = collect(game, "random", 1)
    with pytest.raises(ValueError, match="no visit shares"):
        behaviour_clone(_policy(), d, epochs=1, lr=1e-3, soft=True)
    with pytest.raises(ValueError, match="bc_targets"):
        config_from_dict(dict(game="roll_write_v0", bc_targets="counts"))


def _policy(arch=(16,)):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from virus_envs.agents.sb3_env import SelfPlayEnv

    venv = DummyVecEnv([lambda: SelfPlayEnv("roll_write_v0", 2)])
    return MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0, device="cpu",
                       policy_kwargs={"net_arch": list(arch)}).policy


def test_cloning_on_visit_shares_learns_the_distribution_not_just_the_move():
    """One observation, two legal actions, visit shares (0.2, 0.8): trained on the shares the clone's
    probabilities go to (0.2, 0.8); trained on the action (the argmax) they go towards (0, 1)."""
    game = virus_envs.game("roll_write_v0", 2)
    n_act, size = game.num_actions, int(np.prod(game.observation_shape))
    obs = np.asarray(game.new_initial_state(seed=0).observation(0), dtype=np.float32).reshape(-1)
    nz = np.flatnonzero(obs)
    rows, legal = 64, np.array([3, 7], dtype=np.int32)
    demos = Demonstrations(
        obs_ptr=np.arange(rows + 1, dtype=np.int64) * nz.shape[0], obs_idx=np.tile(nz.astype(np.int32), rows),
        obs_val=np.tile(obs[nz], rows), mask_ptr=np.arange(rows + 1, dtype=np.int64) * 2,
        mask_idx=np.tile(legal, rows), actions=np.full(rows, 7, dtype=np.int64),
        returns=np.zeros(rows, dtype=np.float32), game_ids=np.zeros(rows, dtype=np.int32), obs_size=size,
        num_actions=n_act, games=1, soft=np.tile(np.array([0.2, 0.8], dtype=np.float32), rows))

    def probs(policy):
        from virus_envs.agents.imitation import masked_logits
        with torch.no_grad():
            o, m = demos.batch(np.array([0]))
            logits, _ = masked_logits(policy, torch.as_tensor(o), torch.as_tensor(m))
            return torch.softmax(logits, -1)[0, legal.tolist()].numpy()

    soft = _policy()
    log = behaviour_clone(soft, demos, epochs=60, lr=1e-2, batch_size=64, value_coef=0.0, soft=True)
    assert log[-1]["train_loss"] < log[0]["train_loss"]
    assert probs(soft) == pytest.approx([0.2, 0.8], abs=0.03)
    # the loss cannot go below the targets' entropy, -(0.2 ln 0.2 + 0.8 ln 0.8) = 0.5004
    assert log[-1]["train_loss"] == pytest.approx(0.5004, abs=0.01)
    hard = _policy()
    behaviour_clone(hard, demos, epochs=60, lr=1e-2, batch_size=64, value_coef=0.0)
    assert probs(hard)[1] > 0.95


def test_expert_iteration_on_visit_targets_end_to_end(tmp_path):
    cfg = config_from_dict(dict(
        game="roll_write_v0", total_steps=128, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=[8],
        opponents={"random": 1.0}, eval_every=100_000, eval_games=1, eval_opponents=["random"], test_games=0,
        bc_teacher="ismcts?iters=4", bc_targets="visits", bc_games=2, bc_epochs=1, bc_batch_size=32,
        bc_dagger_rounds=1, bc_dagger_games=1, bc_dagger_epochs=1, seed=2))
    lines = []
    summary = train(cfg, tmp_path, echo=lines.append)
    assert summary["bc"]["targets"] == "visits" and summary["bc"]["decisions"] > 0
    assert any("root visit shares" in s for s in lines) and (tmp_path / "bc.zip").is_file()
    with pytest.raises(ValueError, match="'visits' needs a search teacher"):
        train(config_from_dict(dict(cfg.__dict__, bc_teacher="heuristic")), tmp_path / "b", echo=lines.append)
