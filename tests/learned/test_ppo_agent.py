"""The ppo:<path.zip> agent: shipped models load and play; the mask is honoured at predict time."""
from pathlib import Path

import numpy as np
import pytest
import torch

from virus_envs import agents
import virus_envs
from virus_envs.agents.base import decision_for
from virus_envs.agents.ppo import NumpyPolicy, PPOAgent
from virus_envs.experiments.arena import head_to_head, play_game
from virus_envs.experiments.train import save_model

torch.set_num_threads(1)
MODELS = Path(__file__).resolve().parents[2] / "models"
#: every shipped file, "<env_id>/<name>.zip" (VIRUS! ships one per player count: ppo.zip, ppo_4p.zip)
SHIPPED = sorted(str(p.relative_to(MODELS)) for p in MODELS.glob("*/*.zip"))


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A barely trained model (a few hundred steps): enough to exercise inference."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from virus_envs.agents.sb3_env import SelfPlayEnv

    venv = DummyVecEnv([lambda: SelfPlayEnv("virus_cards_v0")])
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32, 32]})
    model.learn(128)
    path = tmp_path_factory.mktemp("m") / "tiny.zip"
    save_model(model, path)             # with virus_model.json: `ppo:` loads it without unpickling
    return model, path


def test_virus_cards_models_are_shipped_for_two_and_four_players():
    from virus_envs import models

    assert {"virus_cards_v0/ppo.zip", "virus_cards_v0/ppo_4p.zip"} <= set(SHIPPED)
    assert models.path("virus_cards_v0", 2).endswith("ppo.zip")
    assert models.path("virus_cards_v0", 4).endswith("ppo_4p.zip")       # what ppo:builtin plays at 4 players


@pytest.mark.parametrize("shipped", SHIPPED)
def test_shipped_model_loads_and_plays(shipped):
    env_id = shipped.split("/")[0]
    path = MODELS / shipped
    from virus_envs.agents.ppo import load_model
    _, _, meta = load_model(path)
    assert meta["env_id"] == env_id and "virus-arena train" in meta["command"]
    game = virus_envs.game(env_id, meta["num_players"], **meta.get("game_config", {}))
    for seat in range(game.num_players):
        line = [agents.make("random", game) for _ in range(game.num_players)]
        line[seat] = agents.make(f"ppo:{path}", game)
        # a whole game: apply_action raises IllegalActionError if the model picks an illegal action
        _, actions = play_game(game, line, seed=seat, record=True)
        assert play_game(game, line, seed=seat, record=True)[1] == actions     # greedy: the same game again
    res = head_to_head(game, f"ppo:{path}?deterministic=false", "random", game.num_players, seed=1)
    assert res.games == game.num_players


def test_numpy_inference_matches_sb3_predict_with_masks(tiny_model):
    model, path = tiny_model
    game = virus_envs.game("virus_cards_v0")
    agent = agents.make(f"ppo:{path}", game)
    st = game.new_initial_state(seed=4)
    checked = 0
    while not st.is_terminal():
        d = decision_for(st)
        a_sb3, _ = model.predict(d.observation, action_masks=np.array(d.action_mask), deterministic=True)
        assert agent.act(d) == int(a_sb3)
        st.apply_action(agent.act(d))
        checked += 1
    assert checked > 5


def test_mask_is_honoured_at_predict_time(tiny_model):
    _, path = tiny_model
    game = virus_envs.game("virus_cards_v0")
    greedy = agents.make(f"ppo:{path}", game)
    sampler = agents.make(f"ppo:{path}?deterministic=false", game, seed=1)
    st = game.new_initial_state(seed=0)
    d = decision_for(st)
    logits = greedy.policy.logits(d.observation)
    rng = np.random.default_rng(0)
    for _ in range(200):
        # the network's favourite action is forbidden: never chosen
        mask = rng.random(game.num_actions) < 0.2
        mask[int(np.argmax(logits))] = False
        if not mask.any():
            mask[int(np.argmin(logits))] = True
        d.action_mask = mask
        assert mask[greedy.act(d)] and mask[sampler.act(d)]
    only = np.zeros(game.num_actions, dtype=bool)
    only[int(np.argmin(logits))] = True
    d.action_mask = only
    assert greedy.act(d) == int(np.argmin(logits)) == sampler.act(d)


def test_agent_uses_only_its_own_observation(tiny_model):
    """The answer depends only on decision.observation and the mask, never on the view or the state."""
    _, path = tiny_model
    game = virus_envs.game("virus_cards_v0")
    agent = agents.make(f"ppo:{path}", game)
    d = decision_for(game.new_initial_state(seed=2))
    a = agent.act(d)
    d.view, d.handle = None, None
    assert agent.act(d) == a


def test_model_for_another_shape_is_refused(tiny_model):
    _, path = tiny_model
    with pytest.raises(ValueError, match="does not fit"):
        agents.make(f"ppo:{path}", virus_envs.game("virus_cards_v0", num_players=3))
    with pytest.raises(ValueError, match="not found"):
        agents.make("ppo:/nonexistent/model.zip", virus_envs.game("virus_cards_v0"))
    with pytest.raises(ValueError, match="deterministic"):
        agents.make(f"ppo:{path}?deterministic=3", virus_envs.game("virus_cards_v0"))


def test_numpy_policy_pickles():
    import pickle

    rng = np.random.default_rng(0)
    pol = NumpyPolicy([(rng.normal(size=(5, 4)), rng.normal(size=4)), (rng.normal(size=(4, 3)), np.zeros(3))], "ReLU")
    back = pickle.loads(pickle.dumps(pol))
    x = rng.random(5)
    assert np.array_equal(pol.logits(x), back.logits(x))
    with pytest.raises(ValueError, match="activation"):
        NumpyPolicy(pol.layers, "GELU")
