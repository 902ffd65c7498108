"""`virus-arena bench` rows through OpenSpiel (when `pyspiel` is importable): our games via the adapter
(`virus_envs.openspiel`) beside OpenSpiel's C++ `hearts` and `gin_rummy`, random simulation in all.

A step is one `apply_action` of a pyspiel state, chance outcomes included (as OpenSpiel counts a
game's history): chance outcomes are drawn by their probabilities, decisions uniformly among the
legal actions. Our games: the player counts given to the bench, else each game's default count.
"""
from __future__ import annotations

import time

import numpy as np

#: OpenSpiel's C++ card games shown beside ours
REFERENCE_GAMES = ("hearts", "gin_rummy")


def openspiel_targets(env_ids, players=None) -> list:
    """(name, "openspiel", pyspiel game) per row; [] when pyspiel is not installed."""
    try:
        import pyspiel

        import virus_envs
        from virus_envs.openspiel import SPECS
    except ImportError:
        return []
    targets = [(f"{name} (OpenSpiel C++)", "openspiel", pyspiel.load_game(name)) for name in REFERENCE_GAMES]
    for env_id in env_ids:
        cls = virus_envs.game_class(env_id)
        for n in players or [cls.default_players]:
            if cls.min_players <= n <= cls.max_players:
                game = pyspiel.load_game(SPECS[env_id].short_name, {"players": n})
                targets.append((f"{env_id} {n}p (OpenSpiel adapter)", "openspiel", game))
    return targets


def openspiel_round(game, rng, seconds, tally):
    """Random simulations of a pyspiel game for about `seconds` (whole games), counted into `tally`."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(outcomes[int(np.searchsorted(np.cumsum(probs), rng.random() * sum(probs)))])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        tally.steps += steps
        tally.games += 1
        tally.lengths.append(steps)
    tally.seconds += time.perf_counter() - t0
