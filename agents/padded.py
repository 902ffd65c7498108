"""One model for several player counts: the padded encodings (`virus_envs/core/padding.py`) as seen by agents.

    from virus_envs.agents.padded import padding_for, PaddedPolicy
    pad = padding_for("virus_cards_v0", 3)          # the 3-player encoding inside the 6-player one
    policy3 = PaddedPolicy(policy, pad)             # a padded network that answers 3-player observations

A model trained on padded observations carries `virus_meta["padding"]` (`{"max_players": 6}`) and
`virus_meta["player_counts"]`; the `ppo:` agent wraps its network in `PaddedPolicy` for the table's count
(`check_fits`), and the multi-count training env (`agents/multicount_env.py`) does the same for the
learner's frozen snapshots. Games with a padded encoding are listed in `PADDINGS`.
"""
from __future__ import annotations

import importlib

import numpy as np

from .ppo import NumpyPolicy

__all__ = ["PADDINGS", "padding_for", "PaddedPolicy", "padding_meta"]

#: env id -> "module:function" (num_players -> Padding)
PADDINGS = {"virus_cards_v0": "virus_envs.virus_cards.padding:padding"}


def padding_for(env_id: str, num_players: int):
    """The Padding of env_id at num_players; ValueError (one line) when the game or the count has none."""
    target = PADDINGS.get(env_id)
    if target is None:
        raise ValueError(f"{env_id} has no padded multi-count encoding (games with one: {sorted(PADDINGS)})")
    mod, fn = target.split(":")
    return getattr(importlib.import_module(mod), fn)(num_players)


def padding_meta(env_id: str, counts) -> dict:
    """What a multi-count model records in virus_meta (besides its env id)."""
    pads = [padding_for(env_id, n) for n in counts]
    return {"player_counts": sorted(int(n) for n in counts), "padding": {"max_players": pads[0].max_players},
            "observation_shape": [pads[0].obs_size], "num_actions": pads[0].num_actions}


class PaddedPolicy(NumpyPolicy):
    """A network of the padded encoding answering n-player observations: the observation is padded, the
    logits of the n-player actions are read at their padded ids (so the masked argmax or draw is over the
    same moves as the padded network's over the padded mask)."""

    def __init__(self, inner: NumpyPolicy, padding):
        if inner.obs_size != padding.obs_size or inner.num_actions != padding.num_actions:
            raise ValueError(f"a network of observation ({inner.obs_size},) and {inner.num_actions} actions does "
                             f"not fit the padded {padding.env_id} encoding (({padding.obs_size},), "
                             f"{padding.num_actions} actions)")
        self.inner, self.padding = inner, padding
        self.layers, self.activation = inner.layers, inner.activation
        self.obs_size = len(padding.obs_index)
        self.num_actions = len(padding.action_index)

    def __getstate__(self):
        return {"inner": self.inner, "padding": (self.padding.env_id, self.padding.num_players)}

    def __setstate__(self, d):
        self.__init__(d["inner"], padding_for(*d["padding"]))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return self.inner.logits(self.padding.observation(obs))[..., self.padding.action_index]
