"""Self-play vector envs over the batched Virus & Co engine (virus_envs/virus_co/vector.py), SelfPlayEnv's contract."""
import numpy as np
import pytest

from virus_envs.virus_co.vector import VirusCoVecEnv, VirusCoVectorEnv, self_play


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


def test_the_learners_reward_is_its_scalar_return():
    """Every action of every seat that reaches the batch is replayed in scalar states dealt from the seeds the
    batch reports: each finished game pays its learner exactly the scalar engine's return for that seat."""
    core = self_play(8, num_players=3, seed=5)
    b = core.batch
    g = b.game
    states, ended = [], [[] for _ in range(b.B)]
    orig_reset, orig_step = b.reset, b.step

    def reset(seeds):
        orig_reset(seeds)
        states[:] = [g.new_initial_state(seed=int(x)) for x in b.seeds]

    def step(actions, partial=False):
        out = orig_step(actions, partial)
        for i, s in enumerate(states):
            if actions[i] >= 0:
                s.apply_action(int(actions[i]))
                if out.done[i]:
                    ended[i].append(s.returns())
                    states[i] = g.new_initial_state(seed=int(b.seeds[i]))
                assert b.to_dict(i) == states[i].to_dict()
        return out

    b.reset, b.step = reset, step
    core.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(250):
        learner = core.learner.copy()
        mask = core.action_masks()
        _, reward, done, _ = core.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
        for i in range(b.B):
            assert len(ended[i]) == int(done[i])
            if done[i]:
                assert reward[i] == ended[i].pop()[learner[i]]
                finished += 1
    assert finished >= 8


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


def test_the_same_seed_gives_the_same_run():
    runs = []
    for _ in range(2):
        env = VirusCoVectorEnv(16, num_players=6, seed=9, mr_doctor="fee_on_pass")
        obs, info = env.reset()
        out = [obs]
        for t in range(40):
            obs, _, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
            out.append(obs)
        runs.append(np.stack(out))
    np.testing.assert_array_equal(*runs)


def test_maskable_ppo_trains_on_the_sb3_vecenv():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    venv = VirusCoVecEnv(16, num_players=4, seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                                    device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(512)
    assert model.num_timesteps >= 512
    masks = sb3_contrib.common.maskable.utils.get_action_masks(venv)
    assert masks.shape == (16, venv.action_space.n)
