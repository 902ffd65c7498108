"""Our IS-MCTS against OpenSpiel's `ISMCTSBot` at equal iterations, both through the OpenSpiel adapter.

    python -m virus_envs.experiments.openspiel_crosscheck --game python_virus_cards --players 2 \
        --iters 100 --games 100 --out docs/results/openspiel_crosscheck_virus_cards_2p.json

Both searches get the same budget (iterations per decision), the same exploration constant and
the same kind of playout (uniformly random moves to the end of the game, one per iteration). Ours
is `ismcts?iters=N&c=C&rollout=random&depth=end&prior=0` seated as an `AgentBot`; OpenSpiel's is
`ISMCTSBot(..., RandomRolloutEvaluator(n_rollouts=1), use_observation_string=True)` with its
default final policy (most visits). Seats rotate: in game i our agent sits in seat i mod n, every
other seat is OpenSpiel's bot. Chance outcomes are drawn by the driver from seed `seed + i`.

Score of a game for our seat: its share of the win (1 sole winner, 1/k among k tied winners,
1/n each in a game without a winner, e.g. truncated); parity is 1/n. The 95% interval is the
normal one over the per-game scores. The output file is rewritten after every full rotation of
seats, so a run stopped early keeps its games.
"""
from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np


def score_of(returns, seat: int) -> float:
    """The seat's share of the win (1/n each when nobody won)."""
    r = list(returns)
    best = max(r)
    winners = [q for q, x in enumerate(r) if x == best]
    if best <= 0 and len(winners) == len(r):
        return 1.0 / len(r)
    return 1.0 / len(winners) if seat in winners else 0.0


def play_one(game, seat: int, iters: int, c: float, seed: int) -> dict:
    """One game: our IS-MCTS in `seat`, OpenSpiel's ISMCTSBot elsewhere. Returns scores and seconds per decision."""
    from open_spiel.python.algorithms import ismcts, mcts

    from virus_envs.openspiel import AgentBot

    n = game.num_players()
    spec = f"ismcts?iters={iters}&c={c}&rollout=random&depth=end&prior=0"
    bots = []
    for p in range(n):
        if p == seat:
            bots.append(AgentBot(game, p, spec, seed=seed))
        else:
            rs = np.random.RandomState(seed * 7 + p)
            bots.append(ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=c,
                                         max_simulations=iters, random_state=rs, use_observation_string=True))
    chance = np.random.RandomState(seed)
    spent = {"ours": [0.0, 0], "openspiel": [0.0, 0]}
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        p = s.current_player()
        who = "ours" if p == seat else "openspiel"
        t0 = time.perf_counter()
        a = bots[p].step(s)
        if len(s.legal_actions()) > 1:
            spent[who][0] += time.perf_counter() - t0
            spent[who][1] += 1
        s.apply_action(int(a))
    r = s.returns()
    return {"seed": seed, "seat": seat, "returns": r, "score": score_of(r, seat),
            "seconds_per_decision": {k: (t / m if m else None) for k, (t, m) in spent.items()}}


def summarise(rows, n: int) -> dict:
    x = np.array([r["score"] for r in rows])
    mean = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    per = {k: float(np.mean([r["seconds_per_decision"][k] for r in rows if r["seconds_per_decision"][k]]))
           for k in ("ours", "openspiel")}
    return {"games": len(x), "our_score": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "parity": round(1.0 / n, 3), "our_wins": int(sum(1 for r in rows if r["score"] == 1.0)),
            "seconds_per_decision": {k: round(v, 4) for k, v in per.items()}}


def main(argv=None):
    import pyspiel

    import virus_envs.openspiel  # noqa: F401  (registers the games)

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="python_virus_cards")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--params", default="", help="more game parameters, e.g. rounds=1")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    game = pyspiel.load_game(f"{a.game}(players={a.players}{',' + a.params if a.params else ''})")
    rows = []
    t0 = time.time()
    for i in range(a.games):
        rows.append(play_one(game, i % a.players, a.iters, a.c, a.seed + i))
        out = {"game": str(game), "players": a.players, "iters": a.iters, "c": a.c,
               "seeds": [a.seed, a.seed + i], "wall_seconds": round(time.time() - t0),
               **summarise(rows, a.players), "rows": rows}
        if (i + 1) % a.players == 0:      # a full rotation of seats: report and save (a run may be stopped)
            print(json.dumps({k: v for k, v in out.items() if k != "rows"}), flush=True)
            if a.out:
                with open(a.out, "w") as f:
                    json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
