"""Self-play vector envs over the batched VIRUS! (virus_envs/virus_cards/vector.py, core/batched_selfplay.py)."""
import numpy as np
import pytest

from virus_envs.virus_cards.vector import VirusCardsSelfPlay, VirusCardsVectorEnv


def test_every_step_leaves_each_learner_to_decide_and_rewards_come_only_at_the_end():
    core = VirusCardsSelfPlay(32, num_players=3, seed=3)
    core.reset()
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(400):
        assert (core.batch.current_player() == core.learner).all()
        mask = core.action_masks()
        a = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, done, trunc = core.step(a)
        assert (reward[~done] == 0).all()
        # "the first player to complete a healthy body wins": +1 the winner, -1 every other seat
        assert set(reward[done].tolist()) <= {-1.0, 1.0}
        np.testing.assert_array_equal(obs, core.batch.observation(core.learner))
        finished += int(done.sum())
        total += float(reward.sum())
    assert finished > 50
    # random against random: the learner wins about 1 game in 3, a mean return of about 1/3 - 2/3 = -1/3
    assert -0.7 < total / finished < 0.0


def test_a_callable_opponent_gets_the_opponents_observations_and_masks():
    seen = []

    def first_legal(obs, mask):
        seen.append((obs.shape, mask.shape))
        return np.argmax(mask, axis=1)

    env = VirusCardsVectorEnv(8, num_players=4, opponent=first_legal, seed=1)
    obs, info = env.reset()
    assert obs.shape == (8,) + env.single_observation_space.shape
    for _ in range(30):
        a = np.argmax(info["action_mask"], axis=1)
        obs, r, term, trunc, info = env.step(a)
        assert not trunc.any()
    assert seen and seen[0] == ((8,) + env.single_observation_space.shape, (8, env.single_action_space.n))
    with pytest.raises(ValueError, match="opponent"):
        VirusCardsVectorEnv(2, opponent="greedy")
    with pytest.raises(ValueError, match="no batched heuristic"):
        VirusCardsVectorEnv(2, opponent="heuristic")

