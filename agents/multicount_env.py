"""Self-play over several player counts with one padded network (`virus-arena train` with `player_counts`).

`MultiCountSelfPlayEnv` holds one `SelfPlayEnv` per count and draws the count of each episode (uniformly,
from its own seeded generator). What the learner sees is the padded encoding (`agents/padded.py`): the
observation of its seat embedded in the largest layout plus the `present` flags, the mask at the padded
action ids; its padded action is mapped back to the table's own id before the engine sees it. Frozen
snapshots of the learner (padded networks) are wrapped in `PaddedPolicy` for each count, so they play
the smaller tables as the `ppo:` agent does. `info["num_players"]` says which count an episode had.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .padded import PaddedPolicy, padding_for
from .sb3_env import SelfPlayEnv

__all__ = ["MultiCountSelfPlayEnv"]


class MultiCountSelfPlayEnv(gym.Env):
    """A SelfPlayEnv per player count behind one padded observation and action space."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, env_id: str, player_counts, game_config: dict | None = None, **selfplay):
        """player_counts: the counts drawn per episode (each with a padded encoding); selfplay: SelfPlayEnv's
        keywords (opponents, same_opponent, shaping, gamma, potential, ...), the same for every count. Only the
        "box" observation: the face MaskablePPO trains on."""
        counts = sorted({int(n) for n in player_counts})
        if not counts:
            raise ValueError("player_counts must name at least one player count")
        if selfplay.get("obs", "box") != "box":
            raise ValueError("MultiCountSelfPlayEnv gives the padded observation array only (obs='box')")
        self.pads = {n: padding_for(env_id, n) for n in counts}
        self.envs = {n: SelfPlayEnv(env_id, n, game_config, **selfplay) for n in counts}
        self.counts = counts
        first = self.pads[counts[0]]
        high = max(float(e.observation_space.high.max()) for e in self.envs.values())
        self.observation_space = spaces.Box(0.0, high, shape=(first.obs_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(first.num_actions)
        self.env_id = env_id
        self.num_players = counts[0]
        self.current = self.envs[counts[0]]

    @property
    def game(self):
        return self.current.game

    def set_snapshots(self, policies: list) -> int:
        for n, env in self.envs.items():
            env.set_snapshots([PaddedPolicy(p, self.pads[n]) for p in policies])
        return len(policies)

    def set_weights(self, weights: dict) -> dict:
        out = {}
        for env in self.envs.values():
            out = env.set_weights(weights)
        return out

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.num_players = self.counts[int(self.np_random.integers(len(self.counts)))]
        self.current = self.envs[self.num_players]
        obs, info = self.current.reset(seed=int(self.np_random.integers(2**62)), options=options)
        return self.pads[self.num_players].observation(obs), dict(info, num_players=self.num_players)

    def step(self, action):
        pad = self.pads[self.num_players]
        env = self.current
        if env.state is None or env.state.is_terminal():
            return env.step(action)                 # SelfPlayEnv's own error: a finished episode
        obs, reward, terminated, truncated, info = env.step(pad.action(action, env.state.phase(), env.learner))
        if terminated or truncated:
            info = dict(info, num_players=self.num_players)
        return pad.observation(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.pads[self.num_players].mask(self.current.action_masks())

    def render(self):
        return self.current.render()
