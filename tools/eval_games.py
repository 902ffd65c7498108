"""Play the games of one `virus-arena eval` command one by one, resumable, with progress and CPU per decision.

    .venv/bin/python tools/eval_games.py --name NAME --game roll_write_v0 --players 2 \\
        --agent "expectimax?depth=1" --opponent heuristic:spoiler --games 100 --seed 2026 --out DIR [--first K]

The games are those of `virus-arena eval` with the same arguments (`experiments.arena.head_to_head`: a
deal seed drawn from `default_rng(seed)` at every game whose index is a multiple of N, the agent in
seat `g % N`, the opponent in the others; a co-operative game: a team of `--agent` (or of `--opponent`
when given: the reference team on the same deals), one deal per game). Each finished game is appended
to `DIR/NAME.games.jsonl` (index, seat, share of the win, CPU seconds of the agent's decisions that had a
choice, how many), so a cut run resumes where it stopped; after every game `DIR/NAME.json` holds the
eval row of the games so far (`virus-arena eval --out`'s fields, plus `games_played`, `seconds`,
`cpu_seconds`, `agent_cpu_per_decision` and the command), which `experiments/search_figures.py`
gathers. `--first K` plays games K.. only (a disjoint range of the same command, for a second process).
Used for the search agents' strength figures (docs/agents/strength.md, docs/results/search_strength.json).
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def _timed(agent, log):
    """Wrap agent.act so that the CPU seconds of every decision with a choice go to log."""
    act = agent.act

    def timed(decision):
        if len(decision.legal_actions) < 2:
            return act(decision)
        t = time.process_time()
        a = act(decision)
        log.append(time.process_time() - t)
        return a

    agent.act = timed
    return agent


def main(argv=None) -> None:
    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_match, wilson, win_shares
    from virus_envs.experiments.tournament import _kv

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for k in ("name", "game", "agent", "out"):
        ap.add_argument(f"--{k}", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--opponent", default=None)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--game-config", action="append", default=[])
    ap.add_argument("--note", default=None)
    args = ap.parse_args(argv)

    config = _kv(args.game_config)
    game = virus_envs.game(args.game, num_players=args.players, **config)
    n, coop = game.num_players, bool(getattr(game, "cooperative", False))
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, f"{args.name}.games.jsonl")
    done = {}
    if os.path.exists(log_path):
        for line in open(log_path):
            if line.strip():
                rec = json.loads(line)
                done[rec["index"]] = rec
    rng = np.random.default_rng(args.seed)
    team = args.opponent if coop and args.opponent else args.agent
    cmd = (f"virus-arena eval --game {args.game} --players {n} --agent \"{team if coop else args.agent}\""
           + ("" if coop else f" --opponent {args.opponent}") + f" --games {args.games} --seed {args.seed}"
           + "".join(f" --game-config {kv}" for kv in args.game_config))
    wall0 = time.time()
    deal = None
    for g in range(args.games):
        seat = 0 if coop else g % n
        if coop or seat == 0:
            deal = int(rng.integers(0, 2**62))
        if g < args.first or g in done:
            continue
        log: list = []
        t0, c0 = time.time(), time.process_time()
        if coop:
            line = [_timed(agents.make(team, game), log) for _ in range(n)]
        else:
            line = [agents.make(args.opponent, game) for _ in range(n)]
            line[seat] = _timed(agents.make(args.agent, game), log)
        o = play_match(game, line, deal)
        shares = win_shares(o.returns, o.truncated, o.sides)
        w = float(max(shares) > 0) if coop else shares[seat]
        rec = {"index": g, "seat": seat, "deal": deal, "win": w, "scores": o.scores, "truncated": o.truncated,
               "wall": round(time.time() - t0, 2), "cpu": round(time.process_time() - c0, 3),
               "agent_cpu": round(sum(log), 3), "agent_decisions": len(log),
               "agent_cpu_max": round(max(log), 3) if log else 0.0}
        with open(log_path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        done[g] = rec
        _write_row(args, game, coop, team, cmd, done, wall0, wilson)
        wins = sum(r["win"] for r in done.values())
        print(f"{time.strftime('%H:%M:%S')} {args.name}: game {g} seat {seat} win {w:g} ({rec['wall']}s wall, "
              f"{rec['cpu']}s cpu) -> {wins:g}/{len(done)}", flush=True)
    _write_row(args, game, coop, team, cmd, done, wall0, wilson)


def _write_row(args, game, coop, team, cmd, done, wall0, wilson) -> None:
    n = game.num_players
    recs = [done[k] for k in sorted(done)]
    wins = sum(r["win"] for r in recs)
    lo, hi = wilson(wins, len(recs))
    by_seat: dict = {}
    for r in recs:
        s = by_seat.setdefault(str(r["seat"]), {"games": 0, "wins": 0.0})
        s["games"] += 1
        s["wins"] += r["win"]
    decisions = sum(r["agent_decisions"] for r in recs)
    idx = sorted(done)
    row = {"name": args.name, "game": args.game, "players": n, "agent": team if coop else args.agent,
           "opponent": None if coop else args.opponent, "partners": team if coop else None, "cooperative": coop,
           "games": len(recs), "wins": wins, "win_rate": round(wins / len(recs), 4) if recs else 0.0,
           "ci95": [round(lo, 4), round(hi, 4)], "baseline": None if coop else round(1 / n, 4),
           "by_seat": by_seat, "seed": args.seed, "config": {},
           "seconds": int(sum(r["wall"] for r in recs)), "cpu_seconds": int(sum(r["cpu"] for r in recs)),
           "agent_cpu_per_decision": {"mean": round(sum(r["agent_cpu"] for r in recs) / decisions, 4) if decisions
                                      else None, "max": max((r["agent_cpu_max"] for r in recs), default=None),
                                      "decisions": decisions},
           "command": cmd,
           "games_played": (f"games {idx[0]}-{idx[-1]} of the command (0-based), {len(recs)} games, played by "
                            f"tools/eval_games.py (the same games as the command)") if idx else "none"}
    if args.game_config:
        from virus_envs.experiments.tournament import _kv
        row["config"] = _kv(args.game_config)
    if args.note:
        row["note"] = args.note
    with open(os.path.join(args.out, f"{args.name}.json"), "w") as f:
        json.dump(row, f, indent=1)


if __name__ == "__main__":
    main()
