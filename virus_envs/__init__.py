"""virus_envs: rules engines and PettingZoo environments for the Virus family of games.

    import virus_envs
    g = virus_envs.game("virus_cards_v0", num_players=4)     # the engine (OpenSpiel-like)
    e = virus_envs.env("virus_cards_v0", num_players=4)      # a wrapped PettingZoo AECEnv
    e = pettingzoo.make("aec", "virus/virus_cards-v0", num_players=4)   # the same
    g1 = virus_envs.gym_env("virus_cards_v0", opponents=["heuristic"])  # one seat as a Gymnasium env
"""
from __future__ import annotations

import importlib

from .core import IllegalActionError
from .core.aec import raw_env as _raw_env, wrapped_env as _wrapped_env

# env id -> "module:GameClass"; a game appears here once it is implemented
_GAMES = {
    "virus_co_v0": "virus_envs.virus_co.game:VirusCoGame",
    "virus_cards_v0": "virus_envs.virus_cards.game:VirusCardsGame",
    "roll_write_v0": "virus_envs.roll_write.game:RollWriteGame",
    "virus_lab_v0": "virus_envs.virus_lab.game:VirusLabGame",
}
ENV_IDS: tuple[str, ...] = tuple(_GAMES)

__all__ = ["ENV_IDS", "game", "env", "raw_env", "gym_env", "IllegalActionError", "game_class"]


def game_class(env_id: str):
    """The Game subclass of an env id."""
    try:
        target = _GAMES[env_id]
    except KeyError:
        raise ValueError(f"unknown env id {env_id!r}; known: {list(ENV_IDS)}") from None
    mod, cls = target.split(":")
    return getattr(importlib.import_module(mod), cls)


def game(env_id: str, num_players: int | None = None, **config):
    """The rules engine of env_id; a bad config raises ValueError naming the key."""
    return game_class(env_id)(num_players=num_players, **config)


def raw_env(env_id: str, num_players: int | None = None, render_mode: str | None = None, **config):
    """Unwrapped AECEnv: an illegal action raises IllegalActionError."""
    return _raw_env(game(env_id, num_players, **config), render_mode=render_mode)


def env(env_id: str, num_players: int | None = None, render_mode: str | None = None, **config):
    """Wrapped AECEnv (PettingZoo conventions: an illegal action ends the game with -1 to the offender)."""
    return _wrapped_env(game(env_id, num_players, **config), render_mode=render_mode)


def gym_env(env_id: str, num_players: int | None = None, opponents=("random",), learner_seat: int | None = None,
            illegal: str = "penalty", obs: str = "dict", **kwargs):
    """One seat of env_id as a single-agent Gymnasium env; the other seats are played by `opponents`.

    opponents: agent specs (a list: equal weights; a dict spec -> weight; "snapshot" = frozen copies of the
    learner set with `set_snapshots`), drawn per episode. learner_seat: fixed seat, or None for a seat drawn
    per episode. obs="dict": `{"observation", "action_mask"}`; "box": the observation only (the mask from
    `action_masks()`, as sb3-contrib's MaskablePPO reads it). illegal="penalty": an illegal action ends the
    episode with reward -1 (`illegal_reward=`), so that plain PPO/DQN and `check_env` work; "raise":
    IllegalActionError. Other keywords: `game_config` (dict), `same_opponent`, `shaping`, `gamma`,
    `potential`, `render_mode` (see `virus_envs.agents.sb3_env`, docs/agents/ppo.md "A Gymnasium face").
    The reward is the learner's return when the game ends, 0 before.
    """
    from .agents.sb3_env import SelfPlayEnv

    return SelfPlayEnv(env_id, num_players, opponents=opponents, learner_seat=learner_seat, illegal=illegal,
                       obs=obs, **kwargs)


def _register():
    """Register every env id with pettingzoo.make as 'virus/<name>-v<k>'."""
    import functools

    import pettingzoo

    for env_id in ENV_IDS:
        name, ver = env_id.rsplit("_v", 1)
        reg_id = f"virus/{name}-v{ver}"
        if reg_id in pettingzoo.aec_registry:
            continue
        pettingzoo.register("aec", reg_id, entry_point=functools.partial(env, env_id))


_register()
