"""`pimc`: perfect-information Monte Carlo (determinized UCT; Ginsberg's GIB, Long et al. 2010).

    pimc?worlds=K&iters=N&time=S&c=C&rollout=random|heuristic&depth=D&prior=W&seed=K

K worlds are drawn from `decision.handle.determinize`; each is searched with plain UCT as if it
were the true state (`agents/mcts.py`, tree keyed by action history: in one fixed world a history
is one state, the world's future chance included, since every iteration replays a copy of it).
Each world votes for its most visited root action; the most votes wins, ties by total visits over
all worlds, then the lowest id; `last_policy` holds the legal root actions' shares of the visits summed
over the worlds (a policy target, as for `ismcts`). `iters` is per world; `time` is the whole decision's budget,
shared equally between the worlds. `c`, `rollout`, `depth` and `prior` mean what they mean for
`ismcts`, with the same per-game defaults. The classic alternative to IS-MCTS, and a check on it:
PIMC suffers strategy fusion (it assumes it will know the hidden cards after this move).
"""
from __future__ import annotations

from virus_envs.agents.mcts import search
from virus_envs.agents.search_agent import DEFAULTS, SearchAgent

__all__ = ["PIMCAgent"]


class PIMCAgent(SearchAgent):
    """Votes of plain UCT searches on K determinized worlds."""

    NAME = "pimc"
    PARAMS = {"worlds": 10, "iters": 100, **{k: DEFAULTS[k] for k in ("time", "c", "rollout", "depth", "prior")}}

    def act(self, decision) -> int:
        legal, rnd = self._start(decision)
        if rnd is None:
            return legal
        p, rng = self.params, self.rng
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
        total = sum(visits.get(a, 0) for a in legal)
        self.last_policy = {int(a): (visits.get(a, 0) / total if total else 1.0 / len(legal)) for a in legal}
        return int(max(legal, key=lambda a: (votes.get(a, 0), visits.get(a, 0), -a)))
