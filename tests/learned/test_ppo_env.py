"""The self-play view: only the learner's decisions are transitions, and its return arrives whenever the game ends."""
import numpy as np
import pytest

import virus_envs
from virus_envs.agents.sb3_env import SelfPlayEnv


def _opponents(env_id):
    return {"random": 1.0, "heuristic": 1.0}


def _run_episodes(env, episodes, seed):
    """A random learner; checks every step, returns the final (reward, info) of each episode."""
    rng = np.random.default_rng(seed)
    finals = []
    obs, info = env.reset(seed=seed)
    while len(finals) < episodes:
        st = env.state
        assert st.current_player() == env.learner          # only the learner's decisions are transitions
        assert np.array_equal(obs, st.observation(env.learner))   # its own seat's observation, nothing else
        mask = env.action_masks()
        assert np.array_equal(mask, st.legal_action_mask())
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not trunc
        if term:
            assert env.state.is_terminal()
            assert r == info["learner_return"] == float(env.state.returns()[env.learner])
            finals.append((r, info))
            obs, info = env.reset()
        else:
            assert r == 0.0 and not env.state.is_terminal()
    return finals


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_learner_gets_its_return_on_wins_and_on_losses_ended_by_an_opponent(env_id):
    env = SelfPlayEnv(env_id, opponents=_opponents(env_id), same_opponent=False)
    finals = _run_episodes(env, 40, seed=11)
    # an opponent's move ended the game and the learner still received its (negative) return
    assert any(info["ended_by_opponent"] and r < 0 for r, info in finals)
    if not getattr(env.game, "cooperative", False):   # a co-operative game may never be won by random play
        assert any(r > 0 for r, _ in finals)
    seats = {info["learner_seat"] for _, info in finals}
    assert seats == set(range(env.num_players))        # the learner seat is drawn every episode


def test_snapshot_opponents_are_used_once_given():
    from virus_envs.agents.ppo import NumpyPolicy

    env = SelfPlayEnv("virus_cards_v0", opponents={"snapshot": 1.0})
    finals = _run_episodes(env, 3, seed=1)
    assert {i["opponents"] for _, i in finals} == {"random"}      # no snapshot yet: falls back to random
    g = env.game
    rng = np.random.default_rng(0)
    pol = NumpyPolicy([(rng.normal(size=(g.observation_shape[0], 8)), np.zeros(8)),
                       (rng.normal(size=(8, g.num_actions)), np.zeros(g.num_actions))], "Tanh")
    assert env.set_snapshots([pol]) == 1
    finals = _run_episodes(env, 3, seed=2)
    assert {i["opponents"] for _, i in finals} == {"snapshot"}


def test_same_seed_same_episodes():
    a = _run_episodes(SelfPlayEnv("virus_cards_v0", opponents={"random": 1, "heuristic": 1}), 5, seed=3)
    b = _run_episodes(SelfPlayEnv("virus_cards_v0", opponents={"random": 1, "heuristic": 1}), 5, seed=3)
    assert [(r, i["learner_seat"], i["opponents"]) for r, i in a] == [(r, i["learner_seat"], i["opponents"]) for r, i in b]


def test_bad_pool_is_refused():
    with pytest.raises(ValueError, match="weights"):
        SelfPlayEnv("virus_cards_v0", opponents={"random": -1.0})
    with pytest.raises(ValueError, match="unknown agent"):
        SelfPlayEnv("virus_cards_v0", opponents={"nonsense": 1.0})


def test_illegal_learner_action_raises():
    env = SelfPlayEnv("virus_cards_v0")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(virus_envs.IllegalActionError):
        env.step(bad)


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_shaping_telescopes_to_the_return(env_id):
    """With gamma = 1 the shaped rewards of an episode add up to the return minus Phi at the first decision."""
    if getattr(virus_envs.game_class(env_id), "cooperative", False):
        # a team has no rival score to be ahead of: shaping on the score difference is refused
        with pytest.raises(ValueError, match="co-operative"):
            SelfPlayEnv(env_id, shaping=0.05, gamma=1.0)
        return
    env = SelfPlayEnv(env_id, shaping=0.05, gamma=1.0)
    rng = np.random.default_rng(0)
    for ep in range(5):
        env.reset(seed=100 + ep)
        phi0, total, done = env._phi, 0.0, False
        while not done:
            _, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += r
        assert total == pytest.approx(info["learner_return"] - phi0)
    with pytest.raises(ValueError, match="shaping"):
        SelfPlayEnv(env_id, shaping=-1.0)
