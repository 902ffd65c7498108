"""Which actions a board-game team takes against those its masks offered (virus_lab_v0): per action kind, the
decisions where the kind was legal and the times it was chosen, over seeded deals.

    python tools/vl_action_counts.py --agent heuristic --heroes 1 --difficulty 1 --games 50 --seed 5000

A kind offered often and never taken is a rule the team leaves unused (docs/agents/lab_teams.md).
Buying is split by item; `shields` by whether any Shield was spent; the Breaches on the board at the end are
counted too (a Breach placed while exploring has no action of its own).
"""
from __future__ import annotations

import argparse
import collections
import sys
import time


def kind(a: int) -> str:
    from virus_envs.virus_lab.actions import TABLE

    p = TABLE.payloads[a]
    if p[0] == "buy":
        return "buy " + TABLE.names[a][4:]
    if p[0] == "shields":
        return "shields>0" if p[1] > 0 else "shields 0"
    return p[0]


def count(spec: str, heroes: int, difficulty: int, games: int, seed: int) -> dict:
    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from

    taken, offered = collections.Counter(), collections.Counter()
    wins = breaches = 0
    for k in range(games):
        game = virus_envs.game("virus_lab_v0", heroes, difficulty=difficulty)
        st = game.new_initial_state(seed=seed + k)
        line = [agents.make(spec, game) for _ in range(game.num_players)]
        for i, ag in enumerate(line):
            ag.reset(seed=seed * 31 + k * 7 + i)
            inner = ag.act

            def act(d, inner=inner):
                a = inner(d)
                taken[kind(a)] += 1
                for x in {kind(int(i)) for i in d.action_mask.nonzero()[0]}:
                    offered[x] += 1
                return a
            ag.act = act
        end = play_from(st, line)[0]
        breaches += sum(end.breach)
        wins += int(end.returns()[0] > 0 and not end.is_truncated())
    return {"agent": spec, "heroes": heroes, "difficulty": difficulty, "games": games, "seed": seed, "wins": wins,
            "breaches_on_board": breaches, "kinds": {x: [offered[x], taken[x]] for x in sorted(offered, key=lambda x: -offered[x])}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--heroes", type=int, default=1)
    ap.add_argument("--difficulty", type=int, default=1)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=5000)
    args = ap.parse_args(argv)
    t0 = time.process_time()
    r = count(args.agent, args.heroes, args.difficulty, args.games, args.seed)
    print(f"{r['agent']}: {r['heroes']} Hero(es), difficulty {r['difficulty']}, {r['games']} deals from seed "
          f"{r['seed']}: {r['wins']} won; Breaches on the board at the end: {r['breaches_on_board']}; "
          f"{time.process_time() - t0:.1f} s CPU")
    print(f"  {'kind':28s} {'offered':>8s} {'taken':>7s}")
    for x, (o, t) in r["kinds"].items():
        print(f"  {x:28s} {o:8d} {t:7d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
