"""The cross-play matrix of a tournament (issue 17): each agent's win share against each other, with games and intervals.

    virus-arena tournament --game roll_write_v0 --players 2 --agents A B C ... --games 1400 --seed S --out runs/x
    python -m virus_envs.experiments.crossplay runs/x/games.jsonl [--order A,B,...]

A cell is the row agent's win share in the games where it met the column agent at one table
(`arena.win_shares`: a sole win 1, a k-way shared win 1/k, a truncated game 0; the games of a deal in
every seat rotation, so both sit in every seat on the same cards), with its 95% Wilson interval and
the number of such seat-games. In two-player games the two cells of a pair add up to 1 but for shared
wins and truncations. Unlike the "head to head" of `report.md` (who finished ahead, score breaking
ties), this is the win rate the docs' tables use. The records are read, nothing is replayed.
"""
from __future__ import annotations

import argparse
import json
import sys

from virus_envs.experiments.arena import wilson, win_shares

__all__ = ["crossplay", "markdown"]


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


def main(argv=None) -> int:
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
