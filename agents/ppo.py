"""`ppo:<path.zip>`: a MaskablePPO model (sb3-contrib) as an agent for tournaments and `play`.

    agent = agents.make("ppo:builtin", game)                                 # the shipped model of the game
    agent = agents.make("ppo:models/virus_cards_v0/ppo.zip", game)           # a file; greedy (masked argmax)
    agent = agents.make("ppo:models/virus_cards_v0/ppo.zip?deterministic=false", game)   # samples
    agent = agents.make("ppo:runs/old/final.zip?trusted=true", game)         # your own SB3 zip: unpickled

`ppo:builtin` is the model shipped for the game and its player count (`virus_envs.models`); a
game without one gets a ValueError naming what is shipped. `ppo:builtin_prev` is the model it
replaced, kept as `models/<env_id>/ppo_prev.zip` (beside a per-count file: `ppo_4p_prev.zip`), at its player count.

The agent reads only its own seat's `decision.observation` and `decision.action_mask`: the
network's logits of illegal actions are set to -inf before the argmax (or the draw), so it never
answers an illegal move. Inference does not go through SB3's `predict` (too slow for
tournaments of thousands of games): the actor's weights are copied once into numpy arrays
(`NumpyPolicy`) and the forward pass is a few matrix products; `test_ppo_agent.py` checks that it
answers exactly what `MaskablePPO.predict(..., action_masks=...)` answers.

Every model file is loaded by `load_model` (and, for `init_from`'s whole state dict,
`policy_state_dict`), once per process (cached by path and modification time), so tournaments that
build a fresh agent per game stay cheap. Loading reads
tensors and JSON only, never a pickle (`agents/model_file.py`): the network is built from the
file's `virus_model.json` and its weights read with `torch.load(..., weights_only=True)`, so a
model file from someone else cannot run code. A zip without that entry is refused in one line;
`ppo:<path>?trusted=true` (or `--trust-model` on the command line, `trust_models()` in code) lets
such a file of your own load through SB3, which unpickles it. Models saved by
`experiments/train.py` carry a `virus_meta` dict (env id, player count, game config, observation
shape, the command that made them); a model is refused (ValueError, one line) for another game, for a
player count it was not trained for (`check_fits`: even where the shapes agree), or for a game whose
observation or action shape differs.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, NamedTuple

import numpy as np

from .base import Agent, Decision

__all__ = ["PPOAgent", "NumpyPolicy", "check_fits", "trained_counts", "counts_text", "LoadedModel", "load_model", "policy_state_dict", "model_meta", "resolve",
           "SnapshotAgent", "PARAMS", "trust_models", "trusting"]

#: the `ppo:` spec's parameters (besides `seed`) and their defaults
PARAMS = {"deterministic": True, "trusted": False}

_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}
_CACHE: dict = {}


class NumpyPolicy:
    """The actor of a MaskablePPO MLP policy as plain numpy: obs -> action logits.

    Picklable and small, so frozen snapshots of the learner can be shipped to env workers. Kept
    because it is faster than torch at batch 1, the case of every tournament decision: one greedy
    decision from the first position of each shipped model (best of 5 x 500 calls, one thread each,
    OPENBLAS_NUM_THREADS=1, a shared 2-core machine, 2026-12-01) took 45-117 us here against
    150-238 us for the same forward pass in torch (the actor's layers called directly under
    `no_grad`) and 435-565 us through SB3's masked distribution (what `predict` does); for the
    lab's 8,267-input network 552 us against 749 and 1,215 us. With OpenBLAS's default threads on
    a loaded machine the lab's first layer is slower (3.1 ms): run its tournaments with
    OPENBLAS_NUM_THREADS=1.
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


def resolve(path: str, game) -> str:
    """The model file a `ppo:` spec names: `builtin` is the shipped model of game's env id and player count,
    `builtin_prev` the kept model `ppo_prev.zip` beside it."""
    if path == "builtin" or path.startswith("builtin_"):
        from virus_envs import models
        return models.path(game.env_id, game.num_players, tag=path[len("builtin_"):])
    return path


def model_meta(path: str) -> dict:
    """The `virus_meta` dict a model file carries (env id, player count, game config, the command), read from
    the zip's JSON (`virus_model.json`, else SB3's `data`) without loading any network; {} for a model saved
    without it. Only JSON is parsed: nothing is unpickled."""
    import json
    import zipfile

    from .model_file import ENTRY, read_entry

    try:
        with zipfile.ZipFile(path) as z:
            if ENTRY in z.namelist():
                return dict(read_entry(path).virus_meta)
            data = json.loads(z.read("data"))
    except FileNotFoundError:
        raise ValueError(f"ppo model file not found: {path}") from None
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:
        if isinstance(e, ValueError) and str(e).startswith(str(path)):
            raise
        raise ValueError(f"{path}: not a MaskablePPO model file ({type(e).__name__}: {e})") from None
    meta = data.get("virus_meta") if isinstance(data, dict) else None
    return dict(meta) if isinstance(meta, dict) and ":serialized:" not in meta else {}


# -- trust ------------------------------------------------------------------------------------
_TRUST = [False]


@contextlib.contextmanager
def trust_models(on: bool = True):
    """Within the block, every `ppo:` model file may load through SB3's full (unpickling) load when it has no
    `virus_model.json`, as if each spec said `?trusted=true`: what `--trust-model` does for one command."""
    before = _TRUST[0]
    _TRUST[0] = bool(on) or before
    try:
        yield
    finally:
        _TRUST[0] = before


def trusting() -> bool:
    """True inside `trust_models()` (the command line's --trust-model)."""
    return _TRUST[0]


class LoadedModel(NamedTuple):
    """What `load_model` gives: the SB3 model (None unless the file was loaded through SB3, trusted), the actor
    as numpy, and the file's `virus_meta`."""

    model: Any
    policy: NumpyPolicy
    meta: dict


def load_model(path: str, trusted: bool | None = None) -> LoadedModel:
    """(SB3 model or None, NumpyPolicy, meta) of a model zip, cached per process by path and mtime.

    The one place where model files are loaded (agents, `train --evaluate`, `init_from`). Only tensors and
    JSON are read (`model_file`: `virus_model.json`, and `policy.pth` with torch's weights-only
    unpickler); the SB3 model is None. A file without `virus_model.json` is refused
    (`model_file.UnsafeModelFile`), unless `trusted` (or `trust_models()`) allows SB3's own load, which
    unpickles the file: for your own files only."""
    from . import model_file

    trusted = trusting() if trusted is None else bool(trusted) or trusting()
    full = os.path.abspath(os.fspath(path))
    if not os.path.isfile(full):
        raise ValueError(f"ppo model file not found: {path}")
    stamp = (os.path.getmtime(full), os.path.getsize(full))
    for key in ((full, False), (full, True)) if trusted else ((full, False),):
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    try:
        entry = model_file.read_entry(str(path))
    except model_file.UnsafeModelFile:
        if not trusted:
            raise
        loaded = _load_sb3(full, str(path))
        _CACHE[(full, True)] = (stamp, loaded)
        return loaded
    sd = model_file.read_weights(str(path), entry)
    policy = NumpyPolicy(model_file.actor_layers(str(path), entry, sd), entry.network.activation)
    loaded = LoadedModel(None, policy, dict(entry.virus_meta))
    _CACHE[(full, False)] = (stamp, loaded)
    return loaded


def policy_state_dict(path: str, trusted: bool | None = None) -> dict:
    """The whole policy's state dict (actor and critic tensors) of a model file, for `init_from`: read safely
    from `policy.pth`, or through SB3 for a trusted file without `virus_model.json`."""
    from . import model_file

    trusted = trusting() if trusted is None else bool(trusted) or trusting()
    try:
        entry = model_file.read_entry(str(path))
    except model_file.UnsafeModelFile:
        if not trusted:
            raise
        return load_model(path, trusted=True).model.policy.state_dict()
    return model_file.read_weights(str(path), entry)


def _load_sb3(full: str, path: str) -> LoadedModel:
    """SB3's own load (unpickles the file's `data`): only for a file the user said to trust."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ValueError(f"loading the model {path} needs stable-baselines3 and sb3-contrib: "
                         f"pip install 'virus_envs[rl]'") from None
    try:
        model = MaskablePPO.load(full, device="cpu", custom_objects={
            "learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0})
    except Exception as e:  # a corrupt or foreign zip: one-line message, not a traceback
        raise ValueError(f"cannot load MaskablePPO model {path}: {type(e).__name__}: {e}") from None
    return LoadedModel(model, NumpyPolicy.from_sb3(model.policy), dict(getattr(model, "virus_meta", None) or {}))


def counts_text(counts) -> str:
    """'1 player', '2 players', '2 or 4 players', '2, 3 or 4 players'."""
    counts = [str(n) for n in counts]
    head = ", ".join(counts[:-1]) + " or " if len(counts) > 1 else ""
    return head + "".join(counts[-1:]) + (" player" if counts == ["1"] else " players")


def trained_counts(meta: dict) -> list[int]:
    """The player counts a model was trained for (`virus_meta`: `player_counts`, else `num_players`); [] if unknown."""
    counts = meta.get("player_counts") or ([meta["num_players"]] if meta.get("num_players") else [])
    return sorted(int(n) for n in counts)


def check_fits(path: str, meta: dict, policy: "NumpyPolicy", game) -> "NumpyPolicy":
    """ValueError (one line naming the model) unless the model was trained for game's env id and player count
    and its network fits the game's observation and actions. The player count is checked even where the
    shapes agree (the co-operative game's observation has one size for 1-4 Heroes): a model plays only the
    counts it was trained for. Returns the policy to play with: for a multi-count model (`virus_meta["padding"]`)
    the network wrapped to pad this count's observations (`agents/padded.py`), else policy itself."""
    env = meta.get("env_id")
    if env not in (None, game.env_id):
        raise ValueError(f"ppo model {path} was trained on {env}, not {game.env_id}")
    counts = trained_counts(meta)
    said = counts_text(counts)
    if counts and game.num_players not in counts:
        raise ValueError(f"ppo model {path} was trained for {game.env_id} with {said}, not "
                         f"{game.num_players} (a model plays only the player counts it was trained for; "
                         f"train one with --players {game.num_players})")
    if meta.get("padding"):
        from .padded import PaddedPolicy, padding_for
        try:
            return PaddedPolicy(policy, padding_for(game.env_id, game.num_players))
        except ValueError as e:
            raise ValueError(f"ppo model {path} (padded, for {said}): {e}") from None
    size, n_act = policy.obs_size, policy.num_actions
    if size != int(np.prod(game.observation_shape)) or n_act != game.num_actions:
        trained = env or "?", said if counts else "? players"
        raise ValueError(
            f"ppo model {path} (trained on {trained[0]} with {trained[1]}: observation ({size},), "
            f"{n_act} actions) does not fit {game.env_id} with {game.num_players} players "
            f"(observation {tuple(game.observation_shape)}, {game.num_actions} actions)")
    return policy


class PPOAgent(Agent):
    """A trained MaskablePPO policy; greedy over the legal actions unless deterministic=False."""

    def __init__(self, game, path: str, seed: int | None = None, deterministic: bool = True,
                 trusted: bool = False):
        super().__init__(game, seed=seed)
        for key, value in (("deterministic", deterministic), ("trusted", trusted)):
            if not isinstance(value, bool):
                raise ValueError(f"ppo parameter {key!r} must be true or false, got {value!r}")
        path = resolve(path, game)
        self.path = path
        self.deterministic = deterministic
        self.model, policy, self.meta = load_model(path, trusted=trusted or None)
        self.policy = check_fits(path, self.meta, policy, game)

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
