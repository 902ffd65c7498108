"""Self-play vector envs over the batched engine (virus_envs/roll_write/vector.py)."""
import numpy as np
import pytest

from virus_envs.roll_write.vector import BatchedSelfPlay, RollWriteVectorEnv


def test_every_step_leaves_each_learner_to_decide_and_rewards_come_only_at_the_end():
    core = BatchedSelfPlay(32, num_players=3, seed=3)
    core.reset()
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(300):
        assert (core.batch.current_player() == core.learner).all()
        mask = core.action_masks()
        a = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, reward, done, trunc = core.step(a)
        assert (reward[~done] == 0).all()
        # "Whoever has scored the most points has won": +1 sole winner, 1/k shared, -1 otherwise
        assert all(r == -1 or 0 < r <= 1 for r in reward[done])
        np.testing.assert_array_equal(obs, core.batch.observation(core.learner))
        finished += int(done.sum())
        total += float(reward.sum())
    assert finished > 50
    # random against random: the learner's mean return is about (1 - (n - 1)) / n = -1/3 for 3 players
    assert -0.6 < total / finished < -0.05


def test_a_callable_opponent_gets_the_opponents_observations_and_masks():
    seen = []

    def first_legal(obs, mask):
        seen.append(obs.shape)
        return np.argmax(mask, axis=1)

    env = RollWriteVectorEnv(8, num_players=2, opponent=first_legal, seed=1)
    obs, info = env.reset(seed=5)
    assert obs.shape == (8,) + env.single_observation_space.shape and seen
    for _ in range(100):
        a = np.argmax(info["action_mask"][:, ::-1], axis=1)
        a = info["action_mask"].shape[1] - 1 - a           # the last legal action
        obs, r, term, trunc, info = env.step(a)
        assert not trunc.any()
    with pytest.raises(ValueError, match="opponent"):
        RollWriteVectorEnv(2, opponent="greedy")
    with pytest.raises(ValueError, match="unknown variant 'bogus'"):
        RollWriteVectorEnv(2, opponent="heuristic:bogus")


@pytest.mark.parametrize("n,spec", [(2, "heuristic"), (3, "heuristic:cautious"), (4, "heuristic:spoiler")])
def test_a_heuristic_opponent_plays_what_the_scalar_heuristic_plays(n, spec):
    """opponent="heuristic" (the batched kernel) against a callable opponent that asks the scalar agent about each
    game's position: the same seed gives the same run, step for step."""
    from virus_envs import agents
    from virus_envs.agents.base import decision_for

    scalar = BatchedSelfPlay(16, num_players=n, seed=4)
    ref = agents.make(spec, scalar.batch.game)

    def ask_the_scalar_agent(obs, mask):
        b = scalar.batch
        return np.array([ref.act(decision_for(b.state(i))) for i in range(b.B)])

    scalar.opponent = ask_the_scalar_agent
    batched = BatchedSelfPlay(16, num_players=n, opponent=spec, seed=4)
    runs = []
    for core in (batched, scalar):
        steps = [(core.reset(), np.zeros(16), np.zeros(16, dtype=bool))]
        for t in range(150):
            mask = core.action_masks()
            k = (np.arange(16) * 7 + t) % mask.sum(1)            # the k-th legal action, k moving with t
            obs, reward, done, _ = core.step(np.array([np.flatnonzero(m)[j] for m, j in zip(mask, k)]))
            steps.append((obs.copy(), reward.copy(), done.copy()))
        runs.append(steps)
    for mine, theirs in zip(*runs):
        for u, v in zip(mine, theirs):
            np.testing.assert_array_equal(u, v)
    assert sum(int(d.sum()) for _, _, d in runs[0]) >= 16       # games ended (and restarted) on the way

