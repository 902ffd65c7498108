"""What an agent sees and answers: the decision object of docs/contract.md."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


class SearchHandle:
    """Given to search agents only: samples full states consistent with the seat's view."""

    def __init__(self, state, seat: int):
        self._state = state
        self._seat = seat

    def determinize(self, rng: np.random.Generator):
        """A full state consistent with view(seat), hidden cards resampled."""
        return self._state.determinize(self._seat, rng)


@dataclass
class Decision:
    """One decision of one seat: what the rules let that seat know, and what it may do."""

    seat: int
    phase: str
    view: dict
    observation: np.ndarray
    action_mask: np.ndarray
    game: Any
    handle: SearchHandle | None = field(default=None, repr=False)

    @property
    def legal_actions(self) -> np.ndarray:
        """Legal action ids (from the mask)."""
        return np.flatnonzero(self.action_mask)


def decision_for(state, with_handle: bool = False) -> Decision:
    """The decision facing state's current player."""
    p = state.current_player()
    return Decision(
        seat=p,
        phase=state.phase(),
        view=state.view(p),
        observation=state.observation(p),
        action_mask=state.legal_action_mask(),
        game=state.game,
        handle=SearchHandle(state, p) if with_handle else None,
    )


class Forfeit(Exception):
    """Raised by an agent that forfeits the game it is playing: an outside bot (`cmd:`) that timed out,
    crashed, printed garbage or answered an illegal action. The runner (`experiments.arena.play_match`)
    ends the game there, scores it as that seat's loss and goes on with the next game.

    `kind` is one of `KINDS`; `reason` says what happened in one line. The runner fills in `seat` and
    `decision` (how many actions the game had when it was cut)."""

    KINDS = ("timeout", "crash", "garbage", "illegal")

    def __init__(self, kind: str, reason: str):
        if kind not in self.KINDS:
            raise ValueError(f"forfeit kind must be one of {self.KINDS}, got {kind!r}")
        super().__init__(f"{kind}: {reason}")
        self.kind, self.reason = kind, reason
        self.seat: int | None = None
        self.decision: int | None = None


class Agent:
    """A policy: `act(decision) -> action id`. Stateless between games unless `reset` says so."""

    #: True when the agent wants `decision.handle` (search agents); heuristics never see hidden state
    needs_handle: bool = False
    #: True when the agent only needs the mask (lets runners skip building view/observation)
    mask_only: bool = False
    #: False when the agent never reads `decision.observation` (the heuristics read the view): runners may pass None
    reads_observation: bool = True

    def __init__(self, game, seed: int | None = None):
        self.game = game
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called before each game; reseeds the agent's own randomness."""
        self.rng = np.random.default_rng(seed)

    def act(self, decision: Decision) -> int:
        """Choose a legal action."""
        raise TypeError(f"{type(self).__name__} must define act()")

    def game_over(self, seat: int, returns: list, scores: list, truncated: bool = False,
                  forfeit: dict | None = None) -> None:
        """Told once when a game this agent sat in ends (`play_match`), a forfeit included: the final returns
        and scores of every seat (public once the game is over). In-process agents ignore it; an outside bot
        is sent them."""

    def close(self) -> None:
        """Release what the agent holds (an outside bot's process); the agent may be used again after."""


class RandomAgent(Agent):
    """Uniform over legal actions."""

    mask_only = True

    def act(self, decision: Decision) -> int:
        legal = np.flatnonzero(decision.action_mask)
        return int(legal[self.rng.integers(len(legal))])


class ParamAgent(Agent):
    """An agent with named parameters (`heuristic?k=v`) and named variants (`heuristic:name`).

    Subclasses declare PARAMS (name -> default) and VARIANTS (name -> overrides); an unknown
    parameter or variant raises ValueError naming it.
    """

    PARAMS: dict = {}
    VARIANTS: dict = {}

    def __init__(self, game, seed: int | None = None, variant: str | None = None, **params):
        super().__init__(game, seed=seed)
        p = dict(self.PARAMS)
        if variant is not None:
            if variant not in self.VARIANTS:
                raise ValueError(f"unknown variant {variant!r} of {type(self).__name__}; known: {sorted(self.VARIANTS)}")
            p.update(self.VARIANTS[variant])
        for k, v in params.items():
            if k not in self.PARAMS:
                raise ValueError(f"unknown parameter {k!r} of {type(self).__name__}; known: {sorted(self.PARAMS)}")
            p[k] = v
        self.params = p
        self.variant = variant
