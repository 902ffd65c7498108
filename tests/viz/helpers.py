"""Positions to draw: seeded heuristic play (every game has a heuristic)."""
from __future__ import annotations

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import decision_for

PLAYERS = {"virus_cards_v0": 3, "roll_write_v0": 3, "virus_co_v0": 4, "virus_lab_v0": 2}


def played(env_id: str, steps: int, seed: int = 0, players: int | None = None):
    """The state after `steps` decisions of heuristic play (or the end of the game)."""
    g = virus_envs.game(env_id, num_players=players or PLAYERS[env_id])
    s = g.new_initial_state(seed=seed)
    bots = [agents.make("heuristic", g, seed=seed * 7 + p) for p in range(g.num_players)]
    for _ in range(steps):
        if s.is_terminal():
            break
        p = s.current_player()
        s.apply_action(bots[p].act(decision_for(s, with_handle=bots[p].needs_handle)))
    return s
