"""Our agents as pyspiel Bots, so that OpenSpiel's `evaluate_bots` and tools can seat them."""
from __future__ import annotations

import pyspiel

from ..agents.base import decision_for


class AgentBot(pyspiel.Bot):
    """A `virus_envs.agents` agent (any spec: heuristic, random, ismcts, ppo...) playing one seat.

    It is given exactly what the agent would get from our own runners: the Decision of the acting
    seat (view, observation, mask) and, for search agents, the handle that determinizes.
    """

    def __init__(self, game, player_id: int, spec_or_agent, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        from .. import agents
        self._player = player_id
        self._agent = (agents.make(spec_or_agent, game.engine, seed=seed)
                       if isinstance(spec_or_agent, str) else spec_or_agent)
        self._seed = seed

    def restart_at(self, state):
        self._agent.reset(self._seed)

    def step(self, state):
        s = state.engine_state()
        if s.current_player() != self._player:
            raise ValueError(f"AgentBot for seat {self._player} asked to act for seat {s.current_player()}")
        return int(self._agent.act(decision_for(s, with_handle=self._agent.needs_handle)))
