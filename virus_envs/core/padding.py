"""One network for several player counts: an n-player observation and action set embedded in a larger layout.

A `Padding` says where each index of the n-player observation lies in the padded vector (`obs_index`),
which padded entries are the `present` flags of the seats at the table, and which padded action id each
n-player action id is (`action_index`, matched by payload: the same move has an id in both tables).
Entries of absent seats stay 0. Games build theirs (`virus_envs/virus_cards/padding.py`); the `ppo:`
agent and the multi-count training env use them (`virus_envs/agents/padded.py`).
"""
from __future__ import annotations

import numpy as np

from .errors import IllegalActionError

__all__ = ["Padding"]


class Padding:
    """Index maps from one player count's encoding into a padded one (see the module docstring)."""

    def __init__(self, env_id: str, num_players: int, max_players: int, obs_index, obs_size: int, present,
                 action_index, num_actions: int):
        self.env_id, self.num_players, self.max_players = env_id, int(num_players), int(max_players)
        self.obs_index = np.asarray(obs_index, dtype=np.intp)
        self.obs_size = int(obs_size)
        self.present = np.asarray(present, dtype=np.intp)
        self.action_index = np.asarray(action_index, dtype=np.intp)
        self.num_actions = int(num_actions)
        taken = np.concatenate([self.obs_index, self.present])
        if len(np.unique(taken)) != len(taken) or taken.min() < 0 or taken.max() >= self.obs_size:
            raise ValueError(f"{env_id} padding for {num_players} players: observation indices overlap or leave "
                             f"the padded size {self.obs_size}")
        if len(np.unique(self.action_index)) != len(self.action_index) or self.action_index.max() >= num_actions:
            raise ValueError(f"{env_id} padding for {num_players} players: two actions share a padded id")
        self.back = np.full(self.num_actions, -1, dtype=np.intp)     # padded id -> n-player id (-1: none)
        self.back[self.action_index] = np.arange(len(self.action_index))

    def observation(self, obs) -> np.ndarray:
        """The padded observation (float32) of one n-player observation or a batch of them."""
        obs = np.asarray(obs, dtype=np.float32)
        out = np.zeros(obs.shape[:-1] + (self.obs_size,), dtype=np.float32)
        out[..., self.obs_index] = obs
        out[..., self.present] = 1.0
        return out

    def mask(self, mask) -> np.ndarray:
        """The padded action mask (bool): the n-player mask at the mapped ids, False elsewhere."""
        out = np.zeros(self.num_actions, dtype=bool)
        out[self.action_index] = np.asarray(mask, dtype=bool)
        return out

    def action(self, padded: int, phase: str = "", player: int = -1) -> int:
        """The n-player action id of a padded one; IllegalActionError (naming the phase and seat given) for an
        id with no move at this count."""
        a = int(padded)
        if not 0 <= a < self.num_actions or self.back[a] < 0:
            raise IllegalActionError(a, phase, player, f"padded action {a} names no move of the "
                                                       f"{self.num_players}-player {self.env_id} table")
        return int(self.back[a])
