"""virus_envs.gym_env: one seat of a game as a single-agent Gymnasium env (issue 17).

What a researcher plugs into SB3, CleanRL or their own loop: gymnasium's and SB3's `check_env` pass
on every game, an illegal action either raises or ends the episode with a penalty, the mask rides in
the observation, the seat can be fixed, and the README's loop runs as printed.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import virus_envs
from virus_envs import IllegalActionError

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_gymnasium_and_sb3_check_env_pass(env_id):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(virus_envs.gym_env(env_id, opponents=["heuristic", "random"]), skip_render_check=True)
    sb3_check_env(virus_envs.gym_env(env_id), warn=False)


def _illegal(env, obs):
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_changes_nothing():
    env = virus_envs.gym_env("virus_cards_v0", opponents=["random"])
    obs, _ = env.reset(seed=3)
    before = env.state.to_dict()
    obs2, r, term, trunc, info = env.step(_illegal(env, obs))
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.state.to_dict() == before                       # the game as it stood
    assert not obs2["action_mask"].any()                       # nothing is asked any more
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env2 = virus_envs.gym_env("virus_cards_v0", illegal_reward=-5.0)
    o, _ = env2.reset(seed=3)
    assert env2.step(_illegal(env2, o))[1] == -5.0


def test_raise_mode_raises_illegal_action_error_with_the_game_unchanged():
    env = virus_envs.gym_env("roll_write_v0", illegal="raise")
    obs, _ = env.reset(seed=0)
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(_illegal(env, obs))
    assert env.state.to_dict() == before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))       # the episode goes on


def test_the_mask_in_the_observation_is_the_learners_and_the_seat_can_be_fixed():
    for seat in (0, 1, 2):
        env = virus_envs.gym_env("virus_co_v0", num_players=3, learner_seat=seat, opponents=["heuristic"])
        obs, info = env.reset(seed=seat)
        assert info["learner_seat"] == seat == env.state.current_player()
        assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
        assert np.array_equal(obs["observation"], env.state.observation(seat))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="learner_seat"):
        virus_envs.gym_env("virus_cards_v0", learner_seat=2)           # 2 players: seats 0 and 1
    with pytest.raises(ValueError, match="illegal"):
        virus_envs.gym_env("virus_cards_v0", illegal="ignore")
    with pytest.raises(ValueError, match="obs"):
        virus_envs.gym_env("virus_cards_v0", obs="image")
    with pytest.raises(ValueError, match="opponents"):
        virus_envs.gym_env("virus_cards_v0", opponents=[])
    with pytest.raises(ValueError, match="nonsense"):
        virus_envs.gym_env("virus_cards_v0", opponents=["nonsense"])


def test_the_box_face_is_what_maskable_ppo_was_trained_on():
    env = virus_envs.gym_env("virus_cards_v0", obs="box", illegal="raise")
    obs, _ = env.reset(seed=1)
    assert obs.shape == virus_envs.game("virus_cards_v0").observation_shape


def test_sb3_learns_on_it_with_masks_and_without():
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import DQN, PPO

    MaskablePPO("MultiInputPolicy", virus_envs.gym_env("roll_write_v0", opponents=["heuristic"]),
                n_steps=32, batch_size=16, seed=0, device="cpu").learn(32)
    PPO("MultiInputPolicy", virus_envs.gym_env("virus_cards_v0"), n_steps=32, batch_size=16, seed=0,
        device="cpu").learn(32)
    DQN("MultiInputPolicy", virus_envs.gym_env("virus_co_v0"), learning_starts=8, buffer_size=100, seed=0,
        device="cpu").learn(32)


def test_the_readme_training_loop_runs_as_printed():
    text = README.read_text()
    block = re.search(r"<!-- gym-loop -->\s*```python\n(.*?)```", text, re.S)
    assert block, "README lost its CleanRL-style loop"
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 16
    code = code.replace("range(200)", "range(3)")            # three episodes are enough to show it runs
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)
    assert np.isfinite(float(scope["loss"]))
