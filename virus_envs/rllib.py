"""RLlib (its new API stack: RLModule, Learner, EnvRunner) on the PettingZoo envs of this package.

    import ray
    from virus_envs.rllib import ppo_config

    ray.init()
    algo = ppo_config("roll_write_v0", num_players=2).build_algo()
    for _ in range(20):
        result = algo.train()
    module = algo.get_module("shared")          # play it: RLModuleAgent(game, module)

Needs `pip install 'virus_envs[rllib]'` (Ray's `[rllib]` extra; it pins gymnasium, see docs/scale.md).
The recipe, its figures and a runnable script: docs/scale.md "RLlib", `examples/rllib_ppo.py`.

- `VirusMultiAgentEnv`: RLlib's own `PettingZooEnv` wrapper around `virus_envs.raw_env(...)`, built
  from an `env_config` dict, so RLlib can construct it on every EnvRunner. Each agent observes the
  AEC env's `{"observation", "action_mask"}`; only the seat to move is in the observation dict of a
  step, and every seat gets its final return when the game ends. The env is the unwrapped one: an
  illegal action raises `IllegalActionError` instead of quietly ending the game with -1, so a
  masking mistake cannot hide in the training curves.
- `MaskedPPOTorchRLModule`: RLlib's default PPO module (MLP encoder, policy and value heads) built on
  the `observation` part only; the `action_mask` part replaces the logits of illegal actions by a
  large negative number before RLlib builds the action distribution, so sampling, greedy play,
  log-probabilities, the PPO ratio and the entropy all range over the legal actions only.
- `ppo_config(...)`: a `PPOConfig` with one module `"shared"` that plays every seat (self-play with
  parameter sharing: both sides' experience trains the same network).
"""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium as gym
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    import torch
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(f"virus_envs.rllib needs Ray's RLlib and torch: pip install 'virus_envs[rllib]' ({e})") from e

import virus_envs
from virus_envs.agents.base import Agent

#: what an illegal action's logit becomes (finite, so a row with no legal action, the final observation
#: of a seat that is not to move, still gives a finite uniform distribution instead of NaN)
MASKED_LOGIT = -1e9
SHARED = "shared"


class VirusMultiAgentEnv(PettingZooEnv):
    """A game of this package as an RLlib `MultiAgentEnv`.

    env_config: `env_id` (default "roll_write_v0"), `num_players`, and any other key is the game's config
    (e.g. `lab_cards="A2,D2"`), checked by the game: a bad key raises ValueError naming it."""

    def __init__(self, env_config: dict | None = None):
        cfg = dict(env_config or {})
        env_id = cfg.pop("env_id", "roll_write_v0")
        num_players = cfg.pop("num_players", None)
        super().__init__(virus_envs.raw_env(env_id, num_players, **cfg))


def _split(batch: dict) -> tuple[dict, Any]:
    """The batch with the `observation` part as its OBS column, and the action mask; the input is not changed
    (RLlib reuses the batch between the value pass and the training pass)."""
    obs = batch[Columns.OBS]
    out = dict(batch)
    out[Columns.OBS] = obs["observation"]
    return out, obs["action_mask"]


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over `Dict(observation=Box, action_mask=Box)` observations: the networks
    see `observation`; `action_mask` (1 = legal) masks the policy's logits."""

    def __init__(self, *, observation_space=None, **kwargs):
        if not (isinstance(observation_space, gym.spaces.Dict)
                and {"observation", "action_mask"} <= set(observation_space.spaces)):
            raise ValueError("MaskedPPOTorchRLModule: the observation space must be a Dict with keys "
                             f"'observation' and 'action_mask' (the virus_envs AEC env's), got {observation_space}")
        # the catalog builds the encoder for the observation part; the module keeps the full space
        super().__init__(observation_space=observation_space["observation"], **kwargs)
        self.observation_space = observation_space

    @staticmethod
    def _mask(out: dict, mask) -> dict:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask.bool(), logits, torch.full_like(logits, MASKED_LOGIT))
        return out

    def _forward(self, batch, **kwargs):
        inner, mask = _split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        inner, mask = _split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if isinstance(batch[Columns.OBS], dict):
            batch, _ = _split(batch)
        return super().compute_values(batch, embeddings)


def _to_shared(agent_id, episode, **kwargs):
    return SHARED


def ppo_config(env_id: str = "roll_write_v0", num_players: int | None = 2, game_config: dict | None = None, *,
               hidden: tuple = (256, 256), num_env_runners: int = 1, envs_per_runner: int = 1,
               train_batch_size: int = 4000, minibatch_size: int = 500, num_epochs: int = 4, lr: float = 3e-4,
               gamma: float = 1.0, entropy_coeff: float = 0.01, seed: int | None = 0) -> PPOConfig:
    """PPO on env_id with one masked module `"shared"` for every seat.

    The episode's reward is each seat's return at the end (0 before), so gamma defaults to 1. num_env_runners=0
    samples in the driver process (no Ray actor: the quickest start), >= 1 on Ray actors. One local learner
    (no learner actor). train_batch_size counts agent steps, i.e. decisions of all seats together."""
    env_config = {"env_id": env_id, "num_players": num_players, **(game_config or {})}
    VirusMultiAgentEnv(env_config).close()  # a bad env id or config fails here, not on a remote actor
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                          model_config={"fcnet_hiddens": list(hidden), "fcnet_activation": "tanh",
                                        "vf_share_layers": False})
    return (
        PPOConfig()
        # RLlib's env check steps the env with an unmasked random action, which the unwrapped env refuses
        # (IllegalActionError); the wrapper is RLlib's own PettingZooEnv, whose API the check is about
        .environment(VirusMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .multi_agent(policies={SHARED}, policy_mapping_fn=_to_shared)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED: module}))
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=envs_per_runner)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=lr, gamma=gamma, entropy_coeff=entropy_coeff)
        .debugging(seed=seed)
    )


class RLModuleAgent(Agent):
    """A trained RLModule as an agent of this package (`experiments.arena.play_match` plays it): the legal
    action of highest logit (greedy=True) or one drawn from the masked softmax."""

    def __init__(self, game, module, greedy: bool = True, seed: int | None = None):
        super().__init__(game, seed=seed)
        self.module = module
        self.greedy = greedy

    def act(self, decision) -> int:
        obs = {"observation": torch.tensor(decision.observation, dtype=torch.float32)[None],
               "action_mask": torch.tensor(decision.action_mask)[None]}
        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: obs})
        logits = out[Columns.ACTION_DIST_INPUTS][0].double().numpy()
        legal = np.flatnonzero(decision.action_mask)
        if self.greedy:
            return int(legal[np.argmax(logits[legal])])
        p = np.exp(logits[legal] - logits[legal].max())
        return int(self.rng.choice(legal, p=p / p.sum()))
