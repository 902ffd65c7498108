"""Agents: `agents.make(spec, game)` builds a policy from a string spec.

Specs: `random`, `heuristic`, `heuristic:<variant>?k=v&k2=v2`, `ppo:<path.zip>`, `ppo:builtin` (the
shipped model of the game and player count), `ismcts?iters=200`,
`pimc?worlds=10&iters=100` (search agents: docs/agents/search.md), `cmd:<command line>` (a bot in any
language, a subprocess speaking JSON lines: docs/bots.md). Every agent takes `seed=<int>`.
A heuristic reads only its own `view`; it never sees hidden information;
a search agent samples hidden information only through `decision.handle`.
"""

from __future__ import annotations

if __name__ in ("agents", "experiments"):  # imported from the checkout under its folder's name
    raise ImportError(f"import virus_envs.{__name__}, not {__name__}: the folder {__name__}/ installs as "
                      f"virus_envs.{__name__} (see setup.py); two names would load two copies of every module")

import importlib
import numbers

from .base import Agent, Decision, Forfeit, ParamAgent, RandomAgent, SearchHandle, decision_for

__all__ = ["make", "parse_spec", "Agent", "ParamAgent", "Decision", "Forfeit", "RandomAgent", "SearchHandle",
           "decision_for", "HEURISTICS", "SEARCH"]

#: env id -> "module:Class" of that game's heuristic (variants are the class's `VARIANTS`)
HEURISTICS = {
    "virus_co_v0": "virus_envs.agents.virus_co_heuristic:VirusCoHeuristic",
    "virus_cards_v0": "virus_envs.agents.virus_cards_heuristic:VirusCardsHeuristic",
    "roll_write_v0": "virus_envs.agents.roll_write_heuristic:RollWriteHeuristic",
    "virus_lab_v0": "virus_envs.agents.virus_lab_heuristic:VirusLabHeuristic",
}


#: search agents: spec name -> "module:Class" (they play every game; `needs_handle`)
SEARCH = {
    "ismcts": "virus_envs.agents.ismcts:ISMCTSAgent",
    "pimc": "virus_envs.agents.pimc:PIMCAgent",
}


#: other named agent families: spec name -> "module:Class" (the class's GAMES lists the env ids it plays)
FAMILIES = {
    "contam": "virus_envs.agents.roll_write_heuristic:ContaminationPolicy",
    "expectimax": "virus_envs.agents.expectimax:ExpectimaxAgent",
    "rule": "virus_envs.agents.contamination_rule:ContaminationRule",
}


def _value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, str | None, dict]:
    """'heuristic:aggressive?k=1&x=a' -> ('heuristic', 'aggressive', {'k': 1, 'x': 'a'})."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}")
    base, _, query = spec.strip().partition("?")
    name, _, variant = base.partition(":")
    params = {}
    if query:
        for part in query.split("&"):
            if not part:
                continue
            k, eq, v = part.partition("=")
            if not eq or not k:
                raise ValueError(f"agent spec {spec!r}: parameter {part!r} is not key=value")
            params[k] = _value(v)
    return name, (variant or None), params


def make(spec: str, game, seed: int | None = None) -> Agent:
    """Build an agent for `game` (a core.Game) from its spec string."""
    if isinstance(spec, str) and spec.strip().startswith("cmd:"):
        return _make_cmd(spec, game, seed)
    name, variant, params = parse_spec(spec)
    seed = params.pop("seed", seed)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ValueError(f"agent spec {spec!r}: parameter 'seed' must be a non-negative integer, got {seed!r}")
    if name == "random":
        if variant or params:
            raise ValueError(f"agent spec {spec!r}: 'random' takes no variant or parameters (except seed)")
        return RandomAgent(game, seed=seed)
    if name == "heuristic":
        target = HEURISTICS.get(game.env_id)
        if target is None:
            raise ValueError(f"agent spec {spec!r}: no heuristic for {game.env_id} yet")
        mod, cls = target.split(":")
        klass = getattr(importlib.import_module(mod), cls)
        return klass(game, seed=seed, variant=variant, **params)
    if name in SEARCH:
        mod, cls = SEARCH[name].split(":")
        return getattr(importlib.import_module(mod), cls)(game, seed=seed, variant=variant, **params)
    if name in FAMILIES:
        mod, cls = FAMILIES[name].split(":")
        klass = getattr(importlib.import_module(mod), cls)
        if game.env_id not in klass.GAMES:
            raise ValueError(f"agent spec {spec!r}: {name!r} plays {', '.join(klass.GAMES)} only, not {game.env_id}")
        return klass(game, seed=seed, variant=variant, **params)
    if name == "ppo":
        if not variant:
            raise ValueError(f"agent spec {spec!r}: expected ppo:<path.zip> or ppo:builtin")
        mod = importlib.import_module("virus_envs.agents.ppo")
        for k in params:
            if k not in mod.PARAMS:
                raise ValueError(f"agent spec {spec!r}: unknown parameter {k!r} of ppo; known: "
                                 f"{sorted([*mod.PARAMS, 'seed'])}")
        try:
            return mod.PPOAgent(game, variant, seed=seed, **params)
        except ValueError as e:
            raise ValueError(f"agent spec {spec!r}: {e}") from None
    raise ValueError(f"unknown agent {name!r} in spec {spec!r}; known: random, heuristic, ppo:<path>, "
                     "cmd:<command line>, " + ", ".join(sorted({**SEARCH, **FAMILIES})))


def _make_cmd(spec: str, game, seed):
    """`cmd:<command line>[?seed=N]`: an outside bot (agents/cmd.py, docs/bots.md)."""
    from .cmd import CmdAgent, split_spec

    command, query = split_spec(spec.strip()[len("cmd:"):])
    params = parse_spec("x?" + query)[2] if query else {}
    seed = params.pop("seed", seed)
    if params:
        raise ValueError(f"agent spec {spec!r}: unknown parameter {sorted(params)[0]!r} of cmd; known: seed "
                         f"(time limits are the tournament's)")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ValueError(f"agent spec {spec!r}: parameter 'seed' must be a non-negative integer, got {seed!r}")
    try:
        return CmdAgent(game, command.strip(), seed=seed)
    except ValueError as e:
        raise ValueError(f"agent spec {spec!r}: {e}") from None
