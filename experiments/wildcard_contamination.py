"""How often do the Roll & Write policies spend a wildcard on a die they then contaminate?

The audit's question (issue 18): a wildcard may turn a 6 into a 1 before the die goes to the
contaminated samples card, for a net gain of 2 points (penalty 1 instead of 6, minus the wildcard's
3 end-game points). The rules doc decides that the rulebook allows it (config
`wildcard_then_contaminate`, default True). This counts, in self-play, how often each policy does it.

    python -m virus_envs.experiments.wildcard_contamination --games 500 --seed 18 --out results.json

One game = every seat played by the same spec; games seeded seed*100000 + k. Per policy and player
count: games, wildcards spent, how many of those dice went to the contaminated samples card (and
which x -> y), games with at least one, and 95% Wilson intervals.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter

import virus_envs
from virus_envs import agents
from virus_envs.experiments.arena import play_game, wilson

POLICIES = ("heuristic", "heuristic:cautious", "heuristic?contaminate_below=3", "heuristic?save_wildcard=2",
            "heuristic:spoiler", "contam?contaminate_below=3&wild_min=1")


def count(game, spec: str, games: int, seed: int) -> dict:
    """Self-play games of `spec`; wildcard uses and those followed by contaminating the changed die."""
    line = [agents.make(spec, game, seed=seed + p) for p in range(game.num_players)]
    wild, to_contam, games_with, pairs = 0, 0, 0, Counter()
    for k in range(games):
        _, actions = play_game(game, line, seed=seed * 100000 + k, record=True)
        used = 0
        for a, b in zip(actions, actions[1:]):
            name = game.action_to_string(a)
            if name.startswith("wildcard"):
                wild += 1
                if game.action_to_string(b).endswith("on contaminated samples"):
                    to_contam += 1
                    used += 1
                    pairs[name.split()[1]] += 1
        games_with += used > 0
    return {"spec": spec, "players": game.num_players, "games": games, "seed": seed,
            "wildcards_spent": wild, "then_contaminated": to_contam,
            "share_of_wildcards": to_contam / wild if wild else 0.0,
            "share_ci95": wilson(to_contam, wild) if wild else (0.0, 1.0),
            "per_game": to_contam / games, "games_with": games_with,
            "games_with_ci95": wilson(games_with, games), "pairs": dict(pairs.most_common())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--policy", action="append", help="agent spec (repeatable; default: the heuristic family)")
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    rows = []
    for n in a.players or [2, 3, 4]:
        g = virus_envs.game("roll_write_v0", num_players=n)
        for spec in a.policy or POLICIES:
            r = count(g, spec, a.games, a.seed)
            rows.append(r)
            lo, hi = r["share_ci95"]
            glo, ghi = r["games_with_ci95"]
            print(f"{n}p {spec:40s} wildcards {r['wildcards_spent']:5d}  then contaminated {r['then_contaminated']:4d} "
                  f"({r['share_of_wildcards']:.3f} [{lo:.3f}, {hi:.3f}])  games with >=1: {r['games_with']}/{a.games} "
                  f"[{glo:.3f}, {ghi:.3f}]  {r['pairs']}", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
