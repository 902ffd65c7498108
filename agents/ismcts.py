"""`ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

    ismcts?iters=N&time=S&c=C&rollout=random|heuristic&depth=D&tree=infoset|history&prior=W&seed=K

Each iteration draws a world from `decision.handle.determinize` (the agent never sees the true
state: only its Decision), then runs one UCT iteration on it (`agents/mcts.py`). The move played
is the root action with the most visits; `last_policy` holds the root's visit shares over the legal
actions (the policy target of expert iteration, `bc_targets: visits`). Budget: `iters` iterations per decision (reproducible),
or `time` seconds per decision; with both, whichever ends first. Parameters and their defaults:
`agents/search_agent.py` and docs/agents/search.md.
"""
from __future__ import annotations

from virus_envs.agents.mcts import search
from virus_envs.agents.search_agent import DEFAULTS, SearchAgent

__all__ = ["ISMCTSAgent"]


class ISMCTSAgent(SearchAgent):
    """Single-observer IS-MCTS on worlds sampled from the decision's search handle."""

    NAME = "ismcts"
    PARAMS = dict(DEFAULTS)

    def act(self, decision) -> int:
        legal, rnd = self._start(decision)
        if rnd is None:
            return legal
        handle, rng, p = decision.handle, self.rng, self.params
        self.last = search(lambda: handle.determinize(rng), decision.seat, self.playout, p["c"], rnd,
                           iters=p["iters"], seconds=p["time"] or None, tree=p["tree"], hint=self.hint,
                           bias=p["prior"])
        self.last_policy = self.last.visit_shares(legal)
        return self.last.best(legal)
