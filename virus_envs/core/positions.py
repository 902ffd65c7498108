"""Positions reached by random legal play: what tests, benchmarks and profilers sample states from."""
from __future__ import annotations

import numpy as np


def random_position(game, seed: int, steps: int):
    """The state of a game dealt with `seed` after `steps` random legal actions (fewer if it ends first);
    the actions are drawn from a Generator seeded with `seed` too."""
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.integers(len(legal)))])
    return s


def choice_positions(game, count: int, seed: int, keep: float = 0.3) -> list:
    """`count` copies of states with more than one legal action, each kept with probability `keep` along
    random games dealt with seeds seed*100, seed*100+1, ... (as many games as it takes)."""
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while len(out) < count:
        s = game.new_initial_state(seed=seed * 100 + k)
        k += 1
        while not s.is_terminal() and len(out) < count:
            legal = s.legal_actions()
            if len(legal) > 1 and rng.random() < keep:
                out.append(s.clone())
            s.apply_action(legal[rng.integers(len(legal))])
    return out
