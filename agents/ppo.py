"""`ppo:<path.zip>`: a MaskablePPO model (sb3-contrib) as an agent for tournaments and `play`.

    agent = agents.make("ppo:models/virus_cards_v0/ppo.zip", game)              # greedy (masked argmax)
    agent = agents.make("ppo:models/virus_cards_v0/ppo.zip?deterministic=false", game)   # samples

The agent reads only its own seat's `decision.observation` and `decision.action_mask`: the
network's logits of illegal actions are set to -inf before the argmax (or the draw), so it never
answers an illegal move. Inference does not go through SB3's `predict` (too slow for
tournaments of thousands of games): the actor's weights are copied once into numpy arrays
(`NumpyPolicy`) and the forward pass is a few matrix products; `test_ppo_agent.py` checks that it
answers exactly what `MaskablePPO.predict(..., action_masks=...)` answers.

A model file is loaded once per process (cached by path and modification time), so tournaments
that build a fresh agent per game stay cheap. Models saved by `experiments/train.py` carry a
`virus_meta` dict (env id, player count, game config, observation shape, the command that made
them); a model is refused (ValueError) for a game whose observation or action shape differs.
"""
from __future__ import annotations

import os

import numpy as np

from .base import Agent, Decision

__all__ = ["PPOAgent", "NumpyPolicy", "load_model", "SnapshotAgent"]

_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}
_CACHE: dict = {}


class NumpyPolicy:
    """The actor of a MaskablePPO MLP policy as plain numpy: obs -> action logits.

    Picklable and small, so frozen snapshots of the learner can be shipped to env workers.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str):
        if activation not in _ACTIVATIONS:
            raise ValueError(f"unsupported activation {activation!r}; known: {sorted(_ACTIVATIONS)}")
        self.layers = [(np.ascontiguousarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                       for w, b in layers]
        self.activation = activation
        self._act = _ACTIVATIONS[activation]
        self.obs_size = self.layers[0][0].shape[0]
        self.num_actions = self.layers[-1][0].shape[1]

    def __getstate__(self):
        return {"layers": self.layers, "activation": self.activation}

    def __setstate__(self, d):
        self.__init__(d["layers"], d["activation"])

    @classmethod
    def from_sb3(cls, policy) -> "NumpyPolicy":
        """Copy the actor (policy_net hidden layers + action_net) of an SB3 ActorCriticPolicy."""
        import torch.nn as nn

        ext = policy.features_extractor
        if type(ext).__name__ != "FlattenExtractor":
            raise ValueError(f"only the MLP policy with a flatten extractor is supported, got {type(ext).__name__}")
        linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
        linears.append(policy.action_net)
        layers = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy()) for m in linears]
        return cls(layers, policy.activation_fn.__name__)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits (float32) of one observation or a batch."""
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = self._act(x)
        return x

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """Masked argmax (rng None) or a draw from the masked softmax."""
        z = self.logits(obs).astype(np.float64)
        z = np.where(mask, z, -np.inf)
        if rng is None:
            return int(np.argmax(z))
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        return int(rng.choice(p.shape[0], p=p))


def load_model(path: str):
    """(MaskablePPO model, NumpyPolicy, meta) for a .zip, cached per process by path and mtime."""
    full = os.path.abspath(os.fspath(path))
    if not os.path.isfile(full):
        raise ValueError(f"ppo model file not found: {path}")
    key = (full, os.path.getmtime(full))
    hit = _CACHE.get(full)
    if hit is not None and hit[0] == key:
        return hit[1]
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(full, device="cpu", custom_objects={
            "learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0})
    except Exception as e:  # a corrupt or foreign zip: one-line message, not a traceback
        raise ValueError(f"cannot load MaskablePPO model {path}: {type(e).__name__}: {e}") from None
    entry = (model, NumpyPolicy.from_sb3(model.policy), dict(getattr(model, "virus_meta", None) or {}))
    _CACHE[full] = (key, entry)
    return entry


class PPOAgent(Agent):
    """A trained MaskablePPO policy; greedy over the legal actions unless deterministic=False."""

    def __init__(self, game, path: str, seed: int | None = None, deterministic: bool = True):
        super().__init__(game, seed=seed)
        if not isinstance(deterministic, bool):
            raise ValueError(f"ppo parameter 'deterministic' must be true or false, got {deterministic!r}")
        self.path = path
        self.deterministic = deterministic
        self.model, self.policy, self.meta = load_model(path)
        obs_shape = tuple(self.model.observation_space.shape)
        if obs_shape != tuple(game.observation_shape) or self.model.action_space.n != game.num_actions:
            trained = self.meta.get("env_id", "?"), self.meta.get("num_players", "?")
            raise ValueError(
                f"ppo model {path} (trained on {trained[0]} with {trained[1]} players: observation {obs_shape}, "
                f"{self.model.action_space.n} actions) does not fit {game.env_id} with {game.num_players} players "
                f"(observation {tuple(game.observation_shape)}, {game.num_actions} actions)")
        if self.meta.get("env_id") not in (None, game.env_id):
            raise ValueError(f"ppo model {path} was trained on {self.meta['env_id']}, not {game.env_id}")

    def act(self, decision: Decision) -> int:
        return self.policy.act(decision.observation, decision.action_mask,
                               None if self.deterministic else self.rng)


class SnapshotAgent(Agent):
    """A frozen copy of the learner (a NumpyPolicy) as an opponent during self-play; samples its moves."""

    def __init__(self, game, policy: NumpyPolicy, seed: int | None = None, deterministic: bool = False):
        super().__init__(game, seed=seed)
        self.policy = policy
        self.deterministic = deterministic

    def act(self, decision: Decision) -> int:
        return self.policy.act(decision.observation, decision.action_mask,
                               None if self.deterministic else self.rng)
