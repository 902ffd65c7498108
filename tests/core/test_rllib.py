"""RLlib on the PettingZoo envs (`virus_envs.rllib`, docs/scale.md "RLlib"): the masked PPO module, the
multi-agent env's rewards, and a smoke test that trains two small iterations on a local Ray instance.

Ray's RLlib is the optional `[rllib]` extra, so these tests carry the `ray` marker: `make test` leaves
them out, `make test-ray` (run by .ci/run) installs the extra and runs them.
"""
import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

import virus_envs  # noqa: E402
from virus_envs.core import IllegalActionError  # noqa: E402
from virus_envs.experiments.arena import play_match  # noqa: E402
from virus_envs.rllib import (MASKED_LOGIT, SHARED, MaskedPPOTorchRLModule, RLModuleAgent,  # noqa: E402
                              VirusMultiAgentEnv, ppo_config)

pytestmark = pytest.mark.ray


def _module(env):
    spec = RLModuleSpec(module_class=MaskedPPOTorchRLModule, observation_space=env.observation_spaces["player_0"],
                        action_space=env.action_spaces["player_0"], model_config={"fcnet_hiddens": [32]})
    return spec.build()


def _positions(n, seed):
    """Observations and masks of n decisions of random Roll & Write games (2 players)."""
    game = virus_envs.game("roll_write_v0", 2)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    while len(obs) < n:
        s = game.new_initial_state(seed=int(rng.integers(2**31)))
        while not s.is_terminal() and len(obs) < n:
            m = s.legal_action_mask()
            obs.append(s.observation(s.current_player()))
            masks.append(m.astype(np.int8))
            s.apply_action(int(rng.choice(np.flatnonzero(m))))
    return torch.tensor(np.array(obs)), torch.tensor(np.array(masks))


def test_the_module_gives_illegal_actions_no_probability():
    torch.manual_seed(0)
    env = VirusMultiAgentEnv({"env_id": "roll_write_v0", "num_players": 2})
    module = _module(env)
    obs, mask = _positions(64, seed=1)
    assert (mask.sum(1) < mask.shape[1]).all()            # every position forbids some action
    batch = {Columns.OBS: {"observation": obs, "action_mask": mask}}
    for out in (module.forward_exploration(batch), module.forward_inference(batch), module.forward_train(batch)):
        logits = out[Columns.ACTION_DIST_INPUTS]
        assert (logits[mask == 0] == MASKED_LOGIT).all()
        assert (logits[mask == 1] > MASKED_LOGIT / 2).all()
        draws = torch.distributions.Categorical(logits=logits).sample((200,))      # (200, 64)
        assert mask.gather(1, draws.T).bool().all()
    assert set(batch[Columns.OBS]) == {"observation", "action_mask"}    # the batch is left as it was
    values = module.compute_values(batch)
    assert values.shape == (64,) and torch.isfinite(values).all()


def test_a_row_with_no_legal_action_stays_finite():
    """The final observation of a seat that is not to move has an all-zero mask: no NaN may come out of it."""
    env = VirusMultiAgentEnv({"env_id": "roll_write_v0", "num_players": 2})
    obs, mask = _positions(4, seed=2)
    mask[0] = 0
    out = _module(env).forward_exploration({Columns.OBS: {"observation": obs, "action_mask": mask}})
    logp = torch.log_softmax(out[Columns.ACTION_DIST_INPUTS], -1)
    assert torch.isfinite(logp).all()


def test_the_module_refuses_an_observation_space_without_a_mask():
    env = VirusMultiAgentEnv({"env_id": "roll_write_v0", "num_players": 2})
    box = env.observation_spaces["player_0"]["observation"]
    with pytest.raises(ValueError, match="action_mask"):
        RLModuleSpec(module_class=MaskedPPOTorchRLModule, observation_space=box,
                     action_space=env.action_spaces["player_0"]).build()


def test_each_seat_receives_the_return_of_the_game_once():
    """Played through RLlib's multi-agent API with random legal moves: a seat's rewards over the episode add up
    to the engine's return for that seat (0 before the end), and only the seat to move is asked to act."""
    env = VirusMultiAgentEnv({"env_id": "roll_write_v0", "num_players": 2})
    rng = np.random.default_rng(3)
    for episode in range(5):
        obs, _ = env.reset(seed=episode)
        totals = {a: 0.0 for a in env.possible_agents}
        while True:
            (agent, o), = obs.items()                # one seat to move
            assert env.env.agent_selection == agent
            action = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rew, term, trunc, _ = env.step({agent: action})
            for a, r in rew.items():
                totals[a] += r
            if term["__all__"] or trunc["__all__"]:
                break
            assert all(r == 0 for r in rew.values())
        returns = env.env.state.returns()
        assert set(obs) == set(env.possible_agents)    # every seat sees the end
        assert [totals[f"player_{i}"] for i in range(2)] == [float(x) for x in returns]
        assert sorted(returns) != [0.0, 0.0] or env.env.state.is_truncated()


def test_an_illegal_action_raises_instead_of_ending_the_game():
    env = VirusMultiAgentEnv({"env_id": "roll_write_v0", "num_players": 2})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    with pytest.raises(IllegalActionError):
        env.step({agent: int(np.flatnonzero(o["action_mask"] == 0)[0])})


def test_a_bad_game_config_fails_when_the_config_is_built():
    with pytest.raises(ValueError, match="rounds"):
        ppo_config("roll_write_v0", 2, game_config={"rounds": -3})


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ppo_trains_two_iterations_on_a_local_ray_instance(local_ray):
    """The recipe of docs/scale.md, small: one EnvRunner actor with 4 games, 400 env steps per iteration."""
    torch.manual_seed(0)
    algo = ppo_config("roll_write_v0", 2, hidden=(64,), num_env_runners=1, envs_per_runner=4, train_batch_size=400,
                      minibatch_size=200, num_epochs=1).build_algo()
    try:
        module = algo.get_module(SHARED)
        before = [p.detach().clone() for p in module.parameters()]
        episodes = 0
        for _ in range(2):
            r = algo.train()
            assert r["env_runners"]["num_env_steps_sampled"] >= 400
            episodes += int(r["env_runners"].get("num_episodes", 0))
        assert episodes >= 1                       # a Roll & Write game is about 70 decisions
        after = list(algo.get_module(SHARED).parameters())
        assert any(not torch.equal(a, b) for a, b in zip(after, before))
        game = virus_envs.game("roll_write_v0", 2)
        o = play_match(game, [RLModuleAgent(game, algo.get_module(SHARED)), RLModuleAgent(game, module,
                                                                                          greedy=False)], seed=5)
        assert o.state.is_terminal()               # every action it chose was legal (the engine raises otherwise)
    finally:
        algo.stop()
