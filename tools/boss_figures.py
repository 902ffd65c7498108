"""Play as Boss figures (docs/rules/virus_lab.md, "Figures"): which side wins when every seat is the heuristic, and
when the Boss player is random instead.

Usage: python tools/boss_figures.py GAMES   (seeds 20000 .. 20000 + GAMES - 1; about 3 s a game on the shared machine)
"""
from __future__ import annotations

import collections
import sys
import time

from statsmodels.stats.proportion import proportion_confint

import virus_envs
from virus_envs.agents.base import RandomAgent
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.experiments.arena import play_game

# (label, seats, Boss players, config, the Boss players' agent)
RUNS = [("1 Hero + 1 Boss player, difficulty 1", 2, 1, {"difficulty": 1}, "heuristic"),
        ("the same, the Boss player random", 2, 1, {"difficulty": 1}, "random"),
        ("2 Heroes + 1 Boss player", 3, 1, {}, "heuristic"),
        ("the same, the Boss player random", 3, 1, {}, "random"),
        ("4 Heroes + 1 Boss player", 5, 1, {}, "heuristic"),
        ("4 Heroes + 2 Boss players", 6, 2, {}, "heuristic")]


def side_won(state):
    """The winning side ("heroes", "boss": either Boss player) or "nobody"."""
    sides, ret = state.sides(), state.returns()
    return next((sides[q].split()[0] for q in range(len(sides)) if ret[q] > 0), "nobody")


def main(games: int) -> None:
    for label, n, b, cfg, boss in RUNS:
        g = virus_envs.game("virus_lab_v0", n, boss_players=b, **cfg)
        t0, won = time.time(), collections.Counter()
        for k in range(games):
            agents = [VirusLabHeuristic(g) if q < n - b or boss == "heuristic" else RandomAgent(g, seed=k)
                      for q in range(n)]
            won[side_won(play_game(g, agents, seed=20000 + k)[0])] += 1
        cells = {side: f"{x} [{100 * lo:.1f}, {100 * hi:.1f}]" for side, x in won.items()
                 for lo, hi in [proportion_confint(x, games, method="wilson")]}
        print(f"{label}: {cells} ({time.time() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: python tools/boss_figures.py GAMES")
    main(int(sys.argv[1]))
