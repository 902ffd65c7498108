"""`pimc`: perfect-information Monte Carlo (determinized UCT; Ginsberg's GIB, Long et al. 2010).

    pimc?worlds=K&iters=N&time=S&c=C&rollout=random|heuristic&depth=D&prior=W&seed=K

K worlds are drawn from `decision.handle.determinize`; each is searched with plain UCT as if it
were the true state (`agents/mcts.py`, tree keyed by action history: in one fixed world a history
is one state, the world's future chance included, since every iteration replays a copy of it).
Each world votes for its most visited root action; the most votes wins, ties by total visits over
all worlds, then the lowest id. `iters` is per world; `time` is the whole decision's budget,
shared equally between the worlds. `c`, `rollout`, `depth` and `prior` mean what they mean for
`ismcts`, with the same per-game defaults. The classic alternative to IS-MCTS, and a check on it:
PIMC suffers strategy fusion (it assumes it will know the hidden cards after this move).
"""
from __future__ import annotations

import random

from virus_envs.agents.base import ParamAgent
from virus_envs.agents.ismcts import DEFAULTS as ISMCTS_DEFAULTS, resolve_params
from virus_envs.agents.mcts import search
from virus_envs.agents.playouts import HeuristicHint, make_playout

__all__ = ["PIMCAgent"]


class PIMCAgent(ParamAgent):
    """Votes of plain UCT searches on K determinized worlds."""

    needs_handle = True
    PARAMS = {"worlds": 10, "iters": 100, **{k: ISMCTS_DEFAULTS[k] for k in ("time", "c", "rollout", "depth", "prior")}}

    def __init__(self, game, seed: int | None = None, variant: str | None = None, **params):
        if variant is not None:
            raise ValueError(f"pimc has no variants (got {variant!r}); use parameters, e.g. pimc?worlds=10&iters=100")
        super().__init__(game, seed=seed, **params)
        self.params = p = resolve_params("pimc", self, set(params), self.PARAMS)
        self.playout = make_playout(game, p["rollout"], None if p["depth"] == "end" else p["depth"])
        self.hint = HeuristicHint(game) if p["prior"] > 0 else None
        self.last = None        # the last decision's searches: one SearchResult per world

    def act(self, decision) -> int:
        legal = decision.legal_actions.tolist()
        if len(legal) == 1:
            return int(legal[0])
        if decision.handle is None:
            raise ValueError("pimc needs the decision's search handle (runners give it to agents with needs_handle)")
        p, rng = self.params, self.rng
        rnd = random.Random(int(rng.integers(0, 2**63 - 1)))
        seconds = p["time"] / p["worlds"] if p["time"] else None
        votes, visits, results = {}, {}, []
        for _ in range(p["worlds"]):
            world = decision.handle.determinize(rng)
            res = search(world.clone, decision.seat, self.playout, p["c"], rnd, iters=p["iters"], seconds=seconds,
                         tree="history", hint=self.hint, bias=p["prior"])
            a = res.best(legal)
            votes[a] = votes.get(a, 0) + 1
            for b, n in res.visits().items():
                visits[b] = visits.get(b, 0) + n
            results.append(res)
        self.last = results
        return int(max(legal, key=lambda a: (votes.get(a, 0), visits.get(a, 0), -a)))
