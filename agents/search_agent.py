"""What the search agents (`ismcts`, `pimc`) share: their parameters, per-game defaults, and the start of a decision.

Parameters, defaults and their meaning: docs/agents/search.md. A parameter given in the
spec wins; else the game's default (`GAME_DEFAULTS`, chosen by the tuning runs there); else the
general one (`DEFAULTS`). A bad value is a one-line ValueError naming the parameter.
"""
from __future__ import annotations

import random

from virus_envs.agents.base import ParamAgent
from virus_envs.agents.playouts import HeuristicHint, make_playout

__all__ = ["SearchAgent", "DEFAULTS", "GAME_DEFAULTS", "check_search_params"]

#: defaults for every game
DEFAULTS = {"iters": 1000, "time": 0.0, "c": 1.0, "rollout": "random", "depth": 10, "tree": "infoset", "prior": 0.0}
#: per env id, the defaults that differ (measured: docs/agents/search.md, "Tuning")
GAME_DEFAULTS: dict = {
    # random placements ruin a sheet (with random playouts the search scored 12 points a game, the
    # heuristic 30): score the leaf at once (smoothed points) and let the heuristic's move lead the search
    "roll_write_v0": {"depth": 0, "prior": 1.0},
    # random play never progresses (random teams win 0 of 1000): the heuristic plays out and leads;
    # a heuristic playout costs ~10 random ones, so the default budget is 200 iterations (about 1 s)
    "virus_lab_v0": {"rollout": "heuristic", "prior": 1.0, "iters": 200},
}


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


class SearchAgent(ParamAgent):
    """A search agent: takes `decision.handle`, resolves its parameters, builds its playout and prior."""

    needs_handle = True
    NAME = ""               # the spec name, for messages

    def __init__(self, game, seed: int | None = None, variant: str | None = None, **params):
        if variant is not None:
            raise ValueError(f"{self.NAME} has no variants (got {variant!r}); use parameters, e.g. {self.NAME}?iters=200")
        super().__init__(game, seed=seed, **params)
        given = set(params)
        p = {**self.params, **{k: v for k, v in GAME_DEFAULTS.get(game.env_id, {}).items()
                                if k in self.PARAMS and k not in given}}
        self.params = p = check_search_params(self.NAME, p)
        if "time" in given and "iters" not in given:
            p["iters"] = None                           # a time budget alone: as many iterations as fit
        self.playout = make_playout(game, p["rollout"], None if p["depth"] == "end" else p["depth"])
        self.hint = HeuristicHint(game) if p["prior"] > 0 else None
        self.last = None                                # the last decision's search(es), for tests and studies
        self.last_policy = None                         # legal action -> share of the root's visits (last decision)

    def _start(self, decision):
        """(legal actions, the search's random.Random), or (the only legal action, None)."""
        legal = decision.legal_actions.tolist()
        if len(legal) == 1:
            self.last_policy = {int(legal[0]): 1.0}
            return int(legal[0]), None
        if decision.handle is None:
            raise ValueError(f"{self.NAME} needs the decision's search handle (runners give it to agents with needs_handle)")
        return legal, random.Random(int(self.rng.integers(0, 2**63 - 1)))
