"""The shipped models (a model zoo, as in RLCard's): `virus_envs.models.load(env_id)` and `ppo:builtin`.

    from virus_envs import models
    models.available()                          # [ShippedModel(env_id='roll_write_v0', num_players=2, ...), ...]
    agent = models.load("virus_cards_v0")       # a PPOAgent for the game (and player count) it was trained on
    agent = models.load("virus_co_v0", num_players=4)
    agents.make("ppo:builtin", game)            # the same model as an agent spec, for any config of that game

The folder `models/` of the repository installs as the package `virus_envs.models`; its
`<env_id>/*.zip` files are package data, so they load from a wheel as from the checkout. What a
file was trained on (env id, player count, game config) is read from the metadata that
`virus-arena train` saves in it (`virus_meta`, in the JSON entry `virus_model.json`), without
loading any network. Loading the network itself goes through `virus_envs.agents.ppo.load_model`,
which reads tensors and JSON only, never a pickle (torch, which the `rl` extra brings; docs/agents.md).
"""
from __future__ import annotations

if __name__ == "models":  # imported from the checkout under its folder's name
    raise ImportError("import virus_envs.models, not models: the folder models/ installs as virus_envs.models "
                      "(see setup.py)")

import os
from dataclasses import dataclass

__all__ = ["ShippedModel", "available", "path", "load", "ROOT"]

#: the folder holding `<env_id>/*.zip`
ROOT = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class ShippedModel:
    """One shipped model file and what it was trained on."""

    env_id: str
    num_players: int
    game_config: dict
    path: str


def available() -> list[ShippedModel]:
    """Every shipped model, by env id then player count."""
    from virus_envs.agents.ppo import model_meta, trained_counts

    out = []
    for env_id in sorted(os.listdir(ROOT)):
        folder = os.path.join(ROOT, env_id)
        if not os.path.isdir(folder) or env_id.startswith(("_", ".")):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".zip"):
                full = os.path.join(folder, name)
                meta = model_meta(full)
                if meta.get("env_id") != env_id:
                    raise ValueError(f"{full}: field 'virus_meta.env_id' is {meta.get('env_id')!r}, "
                                     f"but the file lies in the folder of {env_id}")
                for n in trained_counts(meta) or [int(meta["num_players"])]:      # a multi-count model: each count
                    out.append(ShippedModel(env_id, n, dict(meta.get("game_config") or {}), full))
    return sorted(out, key=lambda m: (m.env_id, m.num_players))


def _find(env_id: str, num_players: int | None) -> ShippedModel:
    import virus_envs

    virus_envs.game_class(env_id)                 # ValueError naming an unknown env id
    mine = [m for m in available() if m.env_id == env_id]
    if not mine:
        raise ValueError(f"no shipped model for {env_id}; shipped: "
                         + (", ".join(f"{m.env_id} ({m.num_players}p)" for m in available()) or "none"))
    if num_players is None:
        return mine[0]
    for m in mine:
        if m.num_players == num_players:
            return m
    from virus_envs.agents.ppo import counts_text

    raise ValueError(f"no shipped model for {env_id} with {num_players} players; shipped for "
                     + counts_text(sorted({m.num_players for m in mine}))
                     + " (a model only fits the player count it was trained for)")


def path(env_id: str, num_players: int | None = None) -> str:
    """The file of the shipped model of env_id (for num_players, if given); ValueError if there is none."""
    return _find(env_id, num_players).path


def load(env_id: str, num_players: int | None = None, **params):
    """The shipped model of env_id as an agent (`PPOAgent`) for the game it was trained on.

    `agent.game` is that game (its player count and config); `params` are the `ppo:` agent's
    (`deterministic`, `seed`). For another config of the same game and player count, use
    `agents.make("ppo:builtin", game)`. ValueError when no model is shipped for that game or
    player count.
    """
    import virus_envs
    from virus_envs.agents.ppo import PPOAgent

    m = _find(env_id, num_players)
    game = virus_envs.game(env_id, m.num_players, **m.game_config)
    return PPOAgent(game, m.path, **params)
