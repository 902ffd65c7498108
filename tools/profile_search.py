"""Iterations per CPU second of a search agent, and where they go (docs/agents/search.md, "Speed").

    .venv/bin/python tools/profile_search.py ENV_ID PLAYERS [SPEC] [--profile]

The agent (default `ismcts?iters=300`, the game's other defaults) decides at 8 positions of
random games (seed 7: the same positions on every run), timed in CPU seconds of this process
(`time.process_time`: one core, whatever else the machine runs). `--profile` prints cProfile's
25 most expensive functions by own time (cProfile roughly doubles the time spent).
"""
from __future__ import annotations

import cProfile
import pstats
import sys
import time

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import decision_for
from virus_envs.core.positions import choice_positions


def positions(game, count: int, seed: int) -> list:
    """States with a choice to make, from random games."""
    return choice_positions(game, count, seed, keep=0.2)


def main(argv) -> None:
    profile = "--profile" in argv
    args = [a for a in argv if a != "--profile"]
    if len(args) < 2 or not args[1].isdigit() or "--help" in args or "-h" in args:
        raise SystemExit("usage: tools/profile_search.py ENV_ID PLAYERS [SPEC] [--profile]")
    env_id, n = args[0], int(args[1])
    spec = args[2] if len(args) > 2 else "ismcts?iters=300"
    game = virus_envs.game(env_id, num_players=n, **({"difficulty": 1} if env_id == "virus_lab_v0" else {}))
    agent = agents.make(spec, game, seed=1)
    states = positions(game, 8, 7)
    prof = cProfile.Profile() if profile else None
    iters = 0
    t0 = time.process_time()
    if prof:
        prof.enable()
    for s in states:
        agent.act(decision_for(s, with_handle=True))
        iters += agent.last.iterations
    if prof:
        prof.disable()
    cpu = time.process_time() - t0
    print(f"{env_id} {n}p {spec}: {iters} iterations in {cpu:.2f} CPU s = {iters / cpu:.0f} per CPU second")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main(sys.argv[1:])
