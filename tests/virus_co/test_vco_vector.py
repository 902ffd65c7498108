"""Self-play vector envs over the batched Virus & Co engine (virus_envs/virus_co/vector.py), SelfPlayEnv's contract."""
import numpy as np
import pytest

from virus_envs.virus_co.vector import VirusCoVectorEnv, self_play


def test_every_step_leaves_each_learner_to_decide_and_rewards_come_only_at_the_end():
    core = self_play(32, num_players=4, seed=3)
    core.reset()
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(400):
        assert (core.batch.current_player() == core.learner).all()
        mask = core.action_masks()
        a = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, done, trunc = core.step(a)
        assert (reward[~done] == 0).all()
        # "The player with the best total after three rounds wins": +1 sole best, 1/k shared, -1 otherwise
        assert all(r == -1 or 0 < r <= 1 for r in reward[done])
        np.testing.assert_array_equal(obs, core.batch.observation(core.learner))
        finished += int(done.sum())
        total += float(reward.sum())
    assert finished > 100
    # random against random: the learner's mean return is about (1 - 3) / 4 = -0.5 with 4 players
    assert -0.8 < total / finished < -0.2


def test_a_callable_opponent_gets_the_opponents_observations_and_masks():
    seen = []

    def first_legal(obs, mask):
        seen.append(obs.shape)
        return np.argmax(mask, axis=1)

    env = VirusCoVectorEnv(8, num_players=5, opponent=first_legal, seed=1)
    obs, info = env.reset(seed=5)
    assert obs.shape == (8,) + env.single_observation_space.shape and seen
    for _ in range(100):
        a = info["action_mask"].shape[1] - 1 - np.argmax(info["action_mask"][:, ::-1], axis=1)   # the last legal
        obs, r, term, trunc, info = env.step(a)
        assert not trunc.any()
    with pytest.raises(ValueError, match="opponent"):
        VirusCoVectorEnv(2, opponent="heuristic")

