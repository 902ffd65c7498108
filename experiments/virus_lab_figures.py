"""Team win rates of the virus_lab heuristic and random teams (same deals), 95% Wilson intervals: the table in
docs/rules/virus_lab.md "Figures". Reproduce (about 15 minutes on 2 idle cores; a second argument < 1 plays that
fraction of the deals, the first ones of the same seed):

    .venv/bin/python -m virus_envs.experiments.virus_lab_figures docs/results/virus_lab_heuristic.json [fraction]
"""
import json
import sys
import time
from multiprocessing import Pool

import virus_envs
from virus_envs.experiments.arena import head_to_head, wilson


def one(job):
    n, d, spec, games = job
    g = virus_envs.game("virus_lab_v0", num_players=n, difficulty=d)
    t = time.time()
    r = head_to_head(g, spec, "random", games, seed=2026)
    lo, hi = wilson(r.wins, r.games)
    return {"heroes": n, "difficulty": d, "agent": spec, "games": r.games, "wins": r.wins,
            "win_rate": round(r.wins / r.games, 4), "ci95": [round(lo, 4), round(hi, 4)], "seconds": round(time.time() - t, 1)}


if __name__ == "__main__":
    # python -m ... <out.json> [fraction]: a fraction < 1 plays the first deals only (the same seed), for a busy
    # machine; results are written as each job ends
    frac = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    jobs = []
    for spec in ("heuristic", "random"):
        for n, games in ((1, 2000), (2, 1000), (3, 500), (4, 500)):
            for d in (1, 2, 3):
                jobs.append((n, d, spec, max(1, round(frac * (games if spec == "heuristic" else min(games, 1000))))))
    out = []
    with Pool(2) as p:
        for r in p.imap(one, jobs, chunksize=1):
            out.append(r)
            json.dump(out, open(sys.argv[1], "w"), indent=1)
            print(r, flush=True)
