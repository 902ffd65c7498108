"""Policies inside the search agents: playouts that finish an iteration from a new leaf, and the prior.

A playout plays `depth` decisions (or to the end of the game when depth is None) and then scores
the position: `returns()` when the game is over, the game's leaf evaluation otherwise
(`agents/leaf_values.py`). The prior (`HeuristicHint`) names the heuristic's move at a tree node.
All of them see only the sampled world, never the true state, and give the game's heuristic only
the acting seat's own Decision.
"""
from __future__ import annotations

from virus_envs.agents.base import Decision
from virus_envs.agents.leaf_values import leaf_values

__all__ = ["RandomPlayout", "HeuristicPlayout", "HeuristicHint", "make_playout", "seat_decision"]


def seat_decision(s, game, observe: bool = True) -> Decision:
    """The decision of the seat acting in world s, as that seat sees it (its view, observation, mask; no handle).

    observe=False leaves the observation out (None) for a policy that never reads it (`reads_observation`)."""
    p = s.current_player()
    return Decision(p, s.phase(), s.view(p), s.observation(p) if observe else None, s.legal_action_mask(), game)


class RandomPlayout:
    """Uniform over the legal actions (Python's `random.Random` from the search: fast and seeded)."""

    def __init__(self, game, depth: int | None):
        self.depth = depth
        self.value = leaf_values(game)

    def __call__(self, s, rnd) -> list:
        k = self.depth if self.depth is not None else 1 << 62
        rand = rnd.random
        while k > 0:
            if s.is_terminal():
                return s.returns().tolist()
            legal = s.legal_action_mask().nonzero()[0]
            s.apply_action(legal[int(rand() * len(legal))])
            k -= 1
        if s.is_terminal():
            return s.returns().tolist()
        return self.value(s)


class HeuristicPlayout(RandomPlayout):
    """The game's heuristic (`agents.make("heuristic", game)`) for every seat.

    Each decision is given to it as that seat would see it in the sampled world: a Decision built
    from the seat's own view, observation and mask, and no search handle."""

    def __init__(self, game, depth: int | None):
        super().__init__(game, depth)
        from virus_envs import agents
        self.policy = agents.make("heuristic", game)
        self.game = game
        self._rnd = None

    def __call__(self, s, rnd) -> list:
        k = self.depth if self.depth is not None else 1 << 62
        pol, g = self.policy, self.game
        if rnd is not self._rnd:          # a new search: reseed the heuristic from it (once: a Generator is not cheap)
            pol.reset(seed=rnd.getrandbits(63))
            self._rnd = rnd
        while k > 0:
            if s.is_terminal():
                return s.returns().tolist()
            s.apply_action(pol.act(seat_decision(s, g, pol.reads_observation)))
            k -= 1
        if s.is_terminal():
            return s.returns().tolist()
        return self.value(s)


class HeuristicHint:
    """The prior: the heuristic's move for the seat acting at a node, in the world that first reached it.

    At the observer's own nodes every world gives the same answer (the seat's view is the same in all
    of them); at another seat's node it is that seat's move in one sampled world."""

    def __init__(self, game):
        from virus_envs import agents
        self.policy = agents.make("heuristic", game)
        self.game = game
        self._rnd = None

    def __call__(self, s, rnd) -> int:
        if rnd is not self._rnd:          # a new search: reseed the heuristic from it
            self.policy.reset(seed=rnd.getrandbits(63))
            self._rnd = rnd
        return int(self.policy.act(seat_decision(s, self.game, self.policy.reads_observation)))


def make_playout(game, kind: str, depth: int | None):
    """The playout named by an agent spec's `rollout` parameter."""
    return (HeuristicPlayout if kind == "heuristic" else RandomPlayout)(game, depth)
