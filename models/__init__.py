"""The shipped models (a model zoo, as in RLCard's): `virus_envs.models.load(env_id)` and `ppo:builtin`.

    from virus_envs import models
    models.available()                          # [ShippedModel(env_id='roll_write_v0', num_players=2, ...), ...]
    agent = models.load("virus_cards_v0")       # a PPOAgent for the game (and player count) it was trained on
    agent = models.load("virus_co_v0", num_players=4)
    agents.make("ppo:builtin", game)            # the same model as an agent spec, for any config of that game
    agents.make("ppo:builtin_prev", game)       # a model kept from an earlier release: <env_id>/ppo_prev.zip

The shipped model of a game is `<env_id>/ppo.zip`. When a retrained model replaces it, the one it
replaces stays as `<env_id>/ppo_prev.zip` (tag `prev`; beside a per-count file such as VIRUS!'s `ppo_4p.zip`,
as `ppo_4p_prev.zip`), so that the new one can be measured against it
(issue 17: "the previous shipped model" is a held-out opponent); `ppo:builtin_prev` names it. Any other
zip of the folder (VIRUS!'s `ppo_4p.zip`) is a shipped model; `ppo:builtin_prev` finds the kept model of the
game's player count, as `ppo:builtin` finds the shipped one.

The folder `models/` of the repository installs as the package `virus_envs.models`; its
`<env_id>/*.zip` files are package data, so they load from a wheel as from the checkout. What a
file was trained on (env id, player count, game config) is read from the metadata that
`virus-arena train` saves in it (`virus_meta`, in the JSON entry `virus_model.json`), without
loading any network. Loading the network itself goes through `virus_envs.agents.ppo.load_model`,
which reads tensors and JSON only, never a pickle (torch, which the `rl` extra brings; docs/agents/ppo.md).
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
    tag: str = ""        #: "" for a shipped model (`ppo.zip`, `ppo_4p.zip`), "prev" for a kept one (`ppo_prev.zip`, `ppo_4p_prev.zip`)


def _tag(name: str) -> str:
    """'prev' for a kept model (ppo_prev*.zip, or ppo_<count>p_prev.zip beside the shipped ppo_<count>p.zip), ''
    for a shipped one (ppo.zip, ppo_4p.zip, ...)."""
    stem = name[:-len(".zip")]
    if stem.startswith("ppo_prev"):
        return stem.removeprefix("ppo_")
    return "prev" if stem.endswith("_prev") else ""


def available() -> list[ShippedModel]:
    """Every model file of the folder (the shipped ones and the kept ones), by env id, player count, tag; a model
    trained for several counts is listed at each."""
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
                    out.append(ShippedModel(env_id, n, dict(meta.get("game_config") or {}), full, _tag(name)))
    return sorted(out, key=lambda m: (m.env_id, m.num_players, m.tag))


def _find(env_id: str, num_players: int | None, tag: str = "") -> ShippedModel:
    import virus_envs

    virus_envs.game_class(env_id)                 # ValueError naming an unknown env id
    everything = available()
    mine = [m for m in everything if m.env_id == env_id and m.tag == tag]
    if tag and not mine:
        raise ValueError(f"no kept model ppo_{tag}.zip for {env_id}; kept: "
                         + (", ".join(f"{m.env_id}/{os.path.basename(m.path)}" for m in everything if m.tag) or "none"))
    if not mine:
        raise ValueError(f"no shipped model for {env_id}; shipped: "
                         + (", ".join(f"{m.env_id} ({m.num_players}p)" for m in available()) or "none"))
    if num_players is None:
        return mine[0]
    for m in mine:
        if m.num_players == num_players:
            return m
    from virus_envs.agents.ppo import counts_text

    which = f"kept model ppo_{tag}" if tag else "shipped model"
    raise ValueError(f"no {which} for {env_id} with {num_players} players; {which.split()[0]} for "
                     + counts_text(sorted({m.num_players for m in mine}))
                     + " (a model only fits the player count it was trained for)")


def path(env_id: str, num_players: int | None = None, tag: str = "") -> str:
    """The file of the shipped model of env_id (for num_players, if given; the kept `ppo_<tag>.zip`, i.e. `ppo_prev.zip`, if tag is
    given); ValueError if there is none."""
    return _find(env_id, num_players, tag).path


def load(env_id: str, num_players: int | None = None, tag: str = "", **params):
    """The shipped model of env_id as an agent (`PPOAgent`) for the game it was trained on.

    `agent.game` is that game (its player count and config); `params` are the `ppo:` agent's
    (`deterministic`, `seed`). For another config of the same game and player count, use
    `agents.make("ppo:builtin", game)`. ValueError when no model is shipped for that game or
    player count.
    """
    import virus_envs
    from virus_envs.agents.ppo import PPOAgent

    m = _find(env_id, num_players, tag)
    game = virus_envs.game(env_id, m.num_players, **m.game_config)
    return PPOAgent(game, m.path, **params)
