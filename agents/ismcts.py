"""`ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

    ismcts?iters=N&time=S&c=C&rollout=random|heuristic&depth=D&tree=infoset|history&prior=W&seed=K

Each iteration draws a world from `decision.handle.determinize` (the agent never sees the true
state: only its Decision), then runs one UCT iteration on it (`agents/mcts.py`). The move played
is the root action with the most visits. Budget: `iters` iterations per decision (reproducible),
or `time` seconds per decision; with both, whichever ends first. Parameters and their defaults,
per game where they differ, are in `DEFAULTS` below and in docs/agents.md.
"""
from __future__ import annotations

import random

from virus_envs.agents.base import ParamAgent
from virus_envs.agents.mcts import search
from virus_envs.agents.playouts import HeuristicHint, make_playout

__all__ = ["ISMCTSAgent", "check_search_params", "resolve_params", "DEFAULTS", "GAME_DEFAULTS"]

#: defaults for every game; `GAME_DEFAULTS` overrides some per env id (measured choices: docs/agents.md)
DEFAULTS = {"iters": 1000, "time": 0.0, "c": 1.0, "rollout": "random", "depth": 10, "tree": "infoset", "prior": 0.0}
GAME_DEFAULTS: dict = {
    # random placements ruin a sheet (with random playouts the search scored 12 points a game, the
    # heuristic 30): score the leaf at once (smoothed points) and let the heuristic's move lead the search
    "roll_write_v0": {"depth": 0, "prior": 1.0},
    # random play never progresses (random teams win 0 of 1000): the heuristic plays out and leads;
    # a heuristic playout costs ~10 random ones, so the default budget is 200 iterations (about 1 s)
    "virus_lab_v0": {"rollout": "heuristic", "prior": 1.0, "iters": 200},
}


def resolve_params(owner: str, agent: ParamAgent, given: set, keys) -> dict:
    """The agent's parameters: those given in the spec, else the game's defaults, else the general ones; checked."""
    game_defaults = GAME_DEFAULTS.get(agent.game.env_id, {})
    p = {**agent.params, **{k: v for k, v in game_defaults.items() if k in keys and k not in given}}
    p = check_search_params(owner, p)
    if "time" in given and "iters" not in given:
        p["iters"] = None                           # a time budget alone: as many iterations as fit
    return p


def check_search_params(owner: str, p: dict) -> dict:
    """Check the search parameters of a spec (ValueError naming the parameter); returns them normalised."""
    out = dict(p)

    def bad(name, why):
        raise ValueError(f"{owner}: parameter {name!r} {why}, got {p[name]!r}")

    for name in ("iters", "worlds"):
        if name in p and (isinstance(p[name], bool) or not isinstance(p[name], int) or p[name] < 1):
            bad(name, "must be a positive integer")
    if "time" in p:
        if isinstance(p["time"], bool) or not isinstance(p["time"], (int, float)) or p["time"] < 0:
            bad("time", "must be a number of seconds >= 0 (0: no time limit)")
        out["time"] = float(p["time"])
    for name in ("c", "prior"):
        if name in p:
            if isinstance(p[name], bool) or not isinstance(p[name], (int, float)) or p[name] < 0:
                bad(name, "must be a number >= 0")
            out[name] = float(p[name])
    if "rollout" in p and p["rollout"] not in ("random", "heuristic"):
        bad("rollout", "must be 'random' or 'heuristic'")
    if "depth" in p and p["depth"] != "end" and (isinstance(p["depth"], bool) or not isinstance(p["depth"], int)
                                                 or p["depth"] < 0):
        bad("depth", "must be a number of playout decisions >= 0, or 'end'")
    if "tree" in p and p["tree"] not in ("infoset", "history"):
        bad("tree", "must be 'infoset' or 'history'")
    return out


class ISMCTSAgent(ParamAgent):
    """Single-observer IS-MCTS on worlds sampled from the decision's search handle."""

    needs_handle = True
    PARAMS = dict(DEFAULTS)

    def __init__(self, game, seed: int | None = None, variant: str | None = None, **params):
        if variant is not None:
            raise ValueError(f"ismcts has no variants (got {variant!r}); use parameters, e.g. ismcts?iters=200")
        super().__init__(game, seed=seed, **params)
        self.params = p = resolve_params("ismcts", self, set(params), self.PARAMS)
        self.playout = make_playout(game, p["rollout"], None if p["depth"] == "end" else p["depth"])
        self.hint = HeuristicHint(game) if p["prior"] > 0 else None
        self.last = None                            # the last decision's SearchResult (for tests and studies)

    def act(self, decision) -> int:
        legal = decision.legal_actions.tolist()
        if len(legal) == 1:
            return int(legal[0])
        if decision.handle is None:
            raise ValueError("ismcts needs the decision's search handle (runners give it to agents with needs_handle)")
        handle, rng = decision.handle, self.rng
        rnd = random.Random(int(rng.integers(0, 2**63 - 1)))
        p = self.params
        self.last = search(lambda: handle.determinize(rng), decision.seat, self.playout, p["c"], rnd,
                           iters=p["iters"], seconds=p["time"] or None, tree=p["tree"], hint=self.hint,
                           bias=p["prior"])
        return self.last.best(legal)
