"""The lab's reference teams on the validation and test deals: the figures the lab's split and goal are judged by.

Issue 17's goal for the co-operative game: "a learned team at least matches the heuristic team at 1 Hero,
difficulty 1, on the same deals". The trainer chooses a lab checkpoint on val_seed 7000003 and reports it on
test_seed 9000011 (`configs/train/virus_lab.yaml`); this plays the teacher (the team heuristic) and the shipped
model as whole teams on the same deals, greedy, with head_to_head's team deals (the deals `train --evaluate` and
the trainer's evaluations play):

    OPENBLAS_NUM_THREADS=1 python -m virus_envs.experiments.lab_reference \
        [--games 3000] [--team heuristic --team ppo:models/virus_lab_v0/ppo.zip --team random] [--workers 2] \
        [--out docs/results/virus_lab_reference.json]

One row per (team, split): wins, win rate, 95% Wilson interval. The stored file is what
docs/agents/virus_lab.md's reference table and the lab model's recorded split
(docs/results/splits_recorded_after_training.json) cite.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor

SPLITS = {"validation": 7000003, "test": 9000011}
GAME_CONFIG = {"difficulty": 1, "auto_display_choices": True}
DEFAULT_TEAMS = ["heuristic", "ppo:models/virus_lab_v0/ppo.zip", "random"]


def _one(args) -> dict:
    team, split, seed, games = args
    import virus_envs
    from virus_envs.experiments.arena import head_to_head

    game = virus_envs.game("virus_lab_v0", 1, **GAME_CONFIG)
    t0 = time.time()
    res = head_to_head(game, team, team, games, seed=seed)
    lo, hi = res.interval()
    return {"team": team, "split": split, "seed": seed, "games": res.games, "wins": res.wins,
            "win_rate": res.rate, "ci95": [lo, hi], "seconds": round(time.time() - t0, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="lab_reference", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--team", action="append", help="a team spec (every seat); repeatable")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="docs/results/virus_lab_reference.json")
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error(f"--games must be at least 1, got {a.games}")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    teams = a.team or DEFAULT_TEAMS
    import virus_envs
    from virus_envs import agents

    game = virus_envs.game("virus_lab_v0", 1, **GAME_CONFIG)
    for t in teams:
        try:
            agents.make(t, game)                       # a bad spec fails here, not in a worker
        except (ValueError, KeyError, FileNotFoundError) as e:
            ap.error(f"--team {t}: {e}")
    jobs = [(t, s, seed, a.games) for t in teams for s, seed in SPLITS.items()]
    with ProcessPoolExecutor(max_workers=max(1, a.workers)) as pool:
        rows = []
        for r in pool.map(_one, jobs):
            rows.append(r)
            print(f"{r['team']} on {r['split']} ({r['seed']}): {r['wins']:g}/{r['games']} = {r['win_rate']:.3f} "
                  f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] ({r['seconds']:.0f} s)", flush=True)
    doc = {"about": "virus_lab_v0, 1 Hero, difficulty 1, auto_display_choices: whole teams of each spec on the same "
                    "deals (head_to_head's team mode), greedy; 95% Wilson intervals; the figures do not depend on --workers",
           "command": "python -m virus_envs.experiments.lab_reference " + " ".join(argv or []),
           "game_config": GAME_CONFIG, "val_seed": SPLITS["validation"], "test_seed": SPLITS["test"], "rows": rows}
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"written to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
