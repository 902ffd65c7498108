"""The cross-play matrix of a tournament (issue 17): each agent's win share against each other, with games and intervals.

    virus-arena tournament --game roll_write_v0 --players 2 --agents A B C ... --games 1400 --seed S --out runs/x
    python -m virus_envs.experiments.crossplay runs/x/games.jsonl [--order A,B,...]

A cell is the row agent's win share in the games where it met the column agent at one table
(`arena.win_shares`: a sole win 1, a k-way shared win 1/k, a truncated game 0; the games of a deal in
every seat rotation, so both sit in every seat on the same cards), with its 95% Wilson interval and
the number of such seat-games. In two-player games the two cells of a pair add up to 1 but for shared
wins and truncations. Unlike the "head to head" of `report.md` (who finished ahead, score breaking
ties), this is the win rate the docs' tables use. The records are read, nothing is replayed.

With more than two players a tournament seats every agent of a small field at one table, so its pairwise cells
say little. `one-vs-rest` plays the matrix instead, one `virus-arena eval` per ordered pair:

    python -m virus_envs.experiments.crossplay one-vs-rest --game virus_co_v0 --players 4 --agents A,B,C \
        --games 200 --seed S [--games-with "ismcts?iters=20=40"] --json docs/results/x.json

A cell is the **row** agent in one seat against the **column** agent in every other seat, the row agent in each
seat of every deal in turn (duplicate seating, `arena.head_to_head`, the same deals in every cell: the games of
`virus-arena eval --agent ROW --opponent COL --games N --seed S`); its win rate, 95% Wilson interval, seats and CPU
seconds. `--games-with SPEC=N` plays N games in the cells where SPEC sits (a slow search agent); the JSON is written
after every cell and a cut run resumes from it.

At two players the cell (COL, ROW) is the same games as (ROW, COL) seen from the other seat (the deals are the
same and an agent is seeded by its seat, `arena.play_game`), so each pair is played once and its transposed cell
is read from those games (`"mirror_of"` names the cell played, whose CPU and seconds count them; the mirror's are 0).
A cut run's file also holds, as `"pending_mirrors"`, the transposed cells of the pairs it played that were not listed
yet, so that resuming plays no pair twice; the finished file has none and equals an uncut run's but for the timings.
"""
from __future__ import annotations

import argparse
import json
import sys

from virus_envs.experiments.arena import wilson, win_shares
from virus_envs.experiments.studies.contamination_v2 import holm_adjusted

__all__ = ["crossplay", "markdown", "one_vs_rest", "one_vs_rest_markdown", "cell_text", "against_parity",
           "against_parity_markdown", "holm_adjusted", "p_text", "transitivity", "by_seat_markdown"]


def crossplay(records) -> dict:
    """{(row, col): [wins, seat-games]} over the records (dicts of games.jsonl) for every pair at one table."""
    cells: dict = {}
    for rec in records:
        seats = rec["seats"]
        shares = win_shares(rec["returns"], rec.get("truncated", False), rec.get("sides"))
        for i, a in enumerate(seats):
            for b in sorted(set(seats) - {a}):
                cell = cells.setdefault((a, b), [0.0, 0])
                cell[0] += shares[i]
                cell[1] += 1
    return cells


def markdown(cells: dict, order: list[str] | None = None) -> str:
    """The matrix as a Markdown table: 'rate [lo, hi] n' per cell, rows and columns in `order` (default: sorted)."""
    names = order or sorted({a for a, _ in cells} | {b for _, b in cells})
    lines = ["| row vs column | " + " | ".join(f"`{b}`" for b in names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        row = []
        for b in names:
            if a == b:
                row.append("—")
                continue
            w, n = cells.get((a, b), (0.0, 0))
            lo, hi = wilson(w, n)
            row.append(f"{w / n:.2f} [{lo:.2f}, {hi:.2f}] {n}" if n else "n/a")
        lines.append(f"| `{a}` | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def cell_games(row: str, col: str, games: int, games_with: dict) -> int:
    """The games of the cell (row, col): the fewest that `games_with` sets for either of them, else `games`."""
    own = [games_with[a] for a in (row, col) if a in games_with]
    return min(own) if own else games


def one_vs_rest(game, specs: list[str], games: int, seed: int, games_with: dict | None = None, out=None,
                echo=print) -> dict:
    """Every ordered pair of specs: the row agent in one seat, the column agent in the others, seats rotated on the
    same deals; {"cells": [...]} (also written to `out` after every cell; its cells of the same games and seed are
    kept, so a cut run resumes)."""
    import os
    import time

    from virus_envs.experiments.arena import head_to_head

    n = game.num_players
    games_with = dict(games_with or {})
    if len(set(specs)) != len(specs) or len(specs) < 2:
        raise ValueError(f"--agents: need at least two different agent specs, got {specs}")
    for spec in games_with:
        if spec not in specs:
            raise ValueError(f"--games-with: {spec!r} is not one of --agents")
    for k, v in [("--games", games)] + [(f"--games-with {s}", g) for s, g in games_with.items()]:
        if v < n or v % n:
            raise ValueError(f"{k}: {v} games is not a positive multiple of {n} players (each deal seats the row "
                             f"agent in every seat)")
    data = {"game": game.env_id, "players": n, "seed": seed, "agents": list(specs), "games": games,
            "games_with": games_with, "cells": []}
    done = {}
    mirrors: dict = {}          # two players: (col, row) -> the cell read from the games of (row, col), not yet listed
    if out and os.path.exists(out):
        with open(out) as f:
            old = json.load(f)
        same = old.get("game") == game.env_id and old.get("players") == n
        done = {(c["row"], c["col"]): c for c in old.get("cells", []) if c.get("seed") == seed and same}
        # a cut two-player run: the transposed cells of the pairs it played, read from their games, not listed yet
        mirrors = {(c["row"], c["col"]): c for c in old.get("pending_mirrors", []) if c.get("seed") == seed and same}
    for row in specs:
        for col in specs:
            if row == col:
                continue
            k = cell_games(row, col, games, games_with)
            cell = done.get((row, col))
            if (not cell or cell["games"] != k) and mirrors.get((row, col), {}).get("games") == k:
                cell = mirrors[(row, col)]
            elif not cell or cell["games"] != k:
                t0, c0 = time.time(), time.process_time()
                res = head_to_head(game, row, col, k, seed=seed)
                lo, hi = res.interval()
                cell = {"row": row, "col": col, "games": res.games, "wins": res.wins, "win_rate": res.rate,
                        "ci95": [lo, hi], "baseline": 1.0 / n, "seed": seed,
                        "by_seat": {str(s): {"games": g, "wins": w} for s, (g, w) in sorted(res.by_seat.items())},
                        "seconds": round(time.time() - t0, 1), "cpu_seconds": round(time.process_time() - c0, 1),
                        "command": _eval_command(game, n, row, col, k, seed)}
                if n == 2:
                    mirrors[(col, row)] = _mirror(cell, res, game)
                echo(f"{row} vs 3 x {col}: {cell['wins']:g}/{k} = {cell['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] "
                     f"({cell['cpu_seconds']} s CPU)" if n == 4 else
                     f"{row} vs {col}: {cell['wins']:g}/{k} = {cell['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]")
            data["cells"].append(cell)
            mirrors.pop((row, col), None)
            if out:
                # the transposed cells of pairs already played are kept until their turn, so that a run cut between
                # a pair's two cells resumes without playing its games again (the finished file has none left)
                pending = [m for m in mirrors.values() if m.get("games") == cell_games(m["row"], m["col"], games,
                                                                                      games_with)]
                with open(out, "w") as f:
                    json.dump(dict(data, pending_mirrors=pending) if pending else data, f, indent=1)
    return data


def _eval_command(game, n: int, row: str, col: str, k: int, seed: int) -> str:
    return (f"virus-arena eval --game {game.env_id} --players {n} --agent \"{row}\" --opponent \"{col}\" "
            f"--games {k} --seed {seed}")


def _mirror(cell: dict, res, game) -> dict:
    """The two-player cell (col, row) read from the games of `cell` (row, col): the column agent's wins, by its seat."""
    row, col, k = cell["row"], cell["col"], cell["games"]
    wins = sum(w for _, w in res.rest_by_seat.values())
    lo, hi = wilson(wins, k)
    return {"row": col, "col": row, "games": k, "wins": wins, "win_rate": wins / k, "ci95": [lo, hi],
            "baseline": 0.5, "seed": cell["seed"],
            "by_seat": {str(1 - s): {"games": g, "wins": w} for s, (g, w) in sorted(res.rest_by_seat.items(),
                                                                                   reverse=True)},
            "seconds": 0.0, "cpu_seconds": 0.0, "mirror_of": f"{row} vs {col}",
            "command": _eval_command(game, 2, col, row, k, cell["seed"])}


def cell_text(c: dict) -> str:
    """One cell of a one-vs-rest matrix: 'wins/games = rate [lo, hi]'."""
    return f"{c['wins']:g}/{c['games']} = {c['win_rate']:.2f} [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}]"


def one_vs_rest_markdown(data: dict) -> str:
    """The one-vs-rest matrix: 'wins/games = rate [lo, hi]' per cell, rows and columns in the order of the agents
    (at two players the other seats are one seat: the corner says 'row vs column')."""
    cells = {(c["row"], c["col"]): c for c in data["cells"]}
    names = data["agents"]
    corner = "row vs column" if data.get("players") == 2 else "row (one seat) vs column (the other seats)"
    lines = [f"| {corner} | " + " | ".join(f"`{b}`" for b in names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        row = []
        for b in names:
            c = cells.get((a, b))
            row.append("—" if a == b else "n/a" if c is None else cell_text(c))
        lines.append(f"| `{a}` | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def against_parity(data: dict, row: str, alpha: float = 0.05) -> list[dict]:
    """The cells of one row against 1/N: a two-sided exact binomial test of each (shared wins rounded to whole
    games), Holm's correction over the row's cells; [{col, win_rate, p, holm_reject, above}]."""
    from scipy.stats import binomtest

    from virus_envs.experiments.studies.design import holm

    cells = [c for c in data["cells"] if c["row"] == row]
    ps = [binomtest(int(round(c["wins"])), c["games"], c["baseline"]).pvalue for c in cells]
    return [{"col": c["col"], "win_rate": c["win_rate"], "p": p, "p_holm": q, "holm_reject": bool(r),
             "above": c["win_rate"] > c["baseline"]} for c, p, q, r in zip(cells, ps, holm_adjusted(ps),
                                                                            holm(ps, alpha))]


def p_text(p: float) -> str:
    """A p-value as the docs' tables give it: two significant digits, one under 0.001, '< 1e-300' below that."""
    if p < 1e-300:
        return "< 1e-300"
    if p < 0.001:
        return f"{p:.0e}".replace("e-0", "e-")
    return f"{p:.2g}"


def against_parity_markdown(data: dict, row: str, readings: dict, alpha: float = 0.05, rate=None,
                            adjusted: bool = False) -> str:
    """`against_parity` of one row as a table: per column the win rate (with its games where they differ from the
    matrix's `games`), p, Holm's decision (the first cell Holm stops at, though under alpha, says so) and the
    hypothesis it answers (`readings`: column -> the registered hypothesis and its reading, written by hand; the
    rows in its order). `rate` formats a win rate (default three decimals); `adjusted` adds Holm's adjusted p."""
    rate = rate or (lambda x: f"{x:.3f}")
    tests = sorted(against_parity(data, row, alpha), key=lambda t: list(readings).index(t["col"]))
    games = {c["col"]: c["games"] for c in data["cells"] if c["row"] == row}
    base = next(c["baseline"] for c in data["cells"] if c["row"] == row)
    parity = f"1/{round(1 / base)}"
    order = sorted(range(len(tests)), key=lambda i: tests[i]["p"])
    stop = next((k for k, i in enumerate(order) if not tests[i]["holm_reject"]), None)
    lines = (["| column | win rate | p | Holm-adjusted p | Holm | hypothesis |", "|---|---:|---:|---:|---|---|"]
             if adjusted else ["| column | win rate | p | Holm | hypothesis |", "|---|---:|---:|---|---|"])
    for i, t in enumerate(tests):
        n = games[t["col"]]
        holm = f"rejects {parity}" if t["holm_reject"] else "does not reject"
        if stop is not None and i == order[stop] and t["p"] < alpha:
            holm += f" ({p_text(t['p'])} > {alpha:g}/{len(tests) - stop})"
        lines.append(f"| `{t['col']}` | {rate(t['win_rate'])}" + (f" ({n} games)" if n != data["games"] else "")
                     + f" | {p_text(t['p'])}" + (f" | {p_text(t['p_holm'])}" if adjusted else "")
                     + f" | {holm} | {readings[t['col']]} |")
    return "\n".join(lines) + "\n"


def by_seat_markdown(data: dict, row: str, rate=None) -> str:
    """One row of a two-player matrix by the row agent's seat (seat 0 moves first): per column its wins / games =
    rate [95% Wilson interval] in each seat. `rate` formats a rate and a bound (default two decimals)."""
    rate = rate or (lambda x: f"{x:.2f}")
    seats = sorted({s for c in data["cells"] if c["row"] == row for s in c["by_seat"]}, key=int)
    names = {"0": "seat 0 (first player)", "1": "seat 1 (second player)"}
    lines = ["| column | " + " | ".join(names.get(s, f"seat {s}") for s in seats) + " |",
             "|---|" + "---|" * len(seats)]
    for c in data["cells"]:
        if c["row"] != row:
            continue
        parts = []
        for s in seats:
            v = c["by_seat"][s]
            lo, hi = wilson(v["wins"], v["games"])
            parts.append(f"{v['wins']:g}/{v['games']} = {rate(v['wins'] / v['games'])} [{rate(lo)}, {rate(hi)}]")
        lines.append(f"| `{c['col']}` | " + " | ".join(parts) + " |")
    return "\n".join(lines) + "\n"


def transitivity(data: dict) -> dict:
    """Is the matrix an order? `beats` are the cells whose 95% interval lies wholly above parity (row beats column);
    `order` ranks the agents by their mean win rate over their row; `against` lists the beats that go against that
    order (a lower-ranked row beating a higher-ranked column) and `cycles` every a > b > c > a among the beats."""
    from itertools import permutations

    agents = data["agents"]
    mean = {a: sum(c["win_rate"] for c in data["cells"] if c["row"] == a) / (len(agents) - 1) for a in agents}
    order = sorted(agents, key=lambda a: -mean[a])
    beats = {(c["row"], c["col"]) for c in data["cells"] if c["ci95"][0] > c["baseline"]}
    rank = {a: i for i, a in enumerate(order)}
    against = sorted((a, b) for a, b in beats if rank[a] > rank[b])
    cycles = [(a, b, c) for a, b, c in permutations(agents, 3) if a == min(a, b, c, key=rank.get)
              and {(a, b), (b, c), (c, a)} <= beats]
    return {"order": order, "mean": mean, "beats": sorted(beats), "against": against, "cycles": cycles}


def _games_with(items: list[str]) -> dict:
    out = {}
    for item in items:
        spec, _, k = item.rpartition("=")
        if not spec or not k.isdigit():
            raise ValueError(f"--games-with: {item!r} is not SPEC=N")
        out[spec] = int(k)
    return out


def _one_vs_rest_main(argv) -> int:
    import virus_envs

    ap = argparse.ArgumentParser(prog="python -m virus_envs.experiments.crossplay one-vs-rest",
                                 description="cross-play matrix of one agent against copies of another, every "
                                             "ordered pair, duplicate seating")
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--agents", required=True, help="comma-separated agent specs")
    ap.add_argument("--games", type=int, required=True, help="games per cell")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--games-with", action="append", default=[], metavar="SPEC=N",
                    help="N games in the cells where SPEC sits (repeatable)")
    ap.add_argument("--json", default=None, help="write (and resume from) this file")
    args = ap.parse_args(argv)
    try:
        game = virus_envs.game(args.game, args.players)
        specs = [a.strip() for a in args.agents.split(",") if a.strip()]
        from virus_envs import agents
        for spec in specs:                      # a bad spec is named before any game is played
            agents.make(spec, game)
        data = one_vs_rest(game, specs, args.games, args.seed, _games_with(args.games_with), out=args.json,
                           echo=lambda m: print(m, file=sys.stderr))
    except (ValueError, OSError) as e:
        raise SystemExit(f"crossplay one-vs-rest: {e}") from None
    sys.stdout.write(one_vs_rest_markdown(data))
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["one-vs-rest"]:
        return _one_vs_rest_main(argv[1:])
    ap = argparse.ArgumentParser(prog="python -m virus_envs.experiments.crossplay",
                                 description="cross-play matrix (win share, 95% Wilson interval, seat-games) of a "
                                             "tournament's games.jsonl")
    ap.add_argument("games", help="a tournament's games.jsonl")
    ap.add_argument("--order", default=None, help="comma-separated agent specs: the rows' and columns' order")
    args = ap.parse_args(argv)
    try:
        with open(args.games) as f:
            records = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        raise SystemExit(f"crossplay: {args.games}: {e}") from None
    sys.stdout.write(markdown(crossplay(records), args.order.split(",") if args.order else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
