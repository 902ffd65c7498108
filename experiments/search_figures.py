"""The search agents' strength figures in docs/agents/strength.md: budget curves (win rate against iterations) and the table.

Every point is one `virus-arena eval` run (the search agent in one seat, the opponent in every other
seat, each deal replayed with the search agent in every seat; 95% Wilson intervals), written with
`--out`. This module gathers those JSON rows into one file and draws one plot per game:

    .venv/bin/python -m virus_envs.experiments.search_figures RUNS_DIR docs/results/search_strength.json docs/img

RUNS_DIR holds the rows as `<name>.json` and, optionally, `times.txt` (lines `<name> <seconds>s ...`,
the wall-clock time of each run). RUNS_DIR may also be a gathered file itself (the JSON list this
module writes): the figures are then redrawn from it, and it is written back unchanged. Rows whose
agent is `ismcts?iters=N` (nothing else in the spec) make the curves: one plot per env id
(`search_budget_<env_id>.png`), one line per player count and opponent, with the 1/N share dashed;
a row that names the row replacing it (`superseded_by`, a larger sample of the same command) is kept
for the record but not drawn, and so is a row of the seed parameters were chosen on (`"role": "validation"`). A row with `"kind": "bench"` (no win rate: `game`, `players` and
`iterations_per_cpu_second`, the IS-MCTS rate `virus-arena bench` measured) marks on that game's plot
the budget of 1 s of CPU per decision at that player count (a dotted vertical line), and
`seconds(rows)` turns every curve point's iterations into seconds per decision at that rate.
"""
from __future__ import annotations

import glob
import json
import os
import re
import sys

_ITERS = re.compile(r"^ismcts\?iters=(\d+)$")
_NAMES = {"virus_cards_v0": "VIRUS!", "roll_write_v0": "Roll & Write", "virus_co_v0": "Virus & Co",
          "virus_lab_v0": "Virus (board game)"}


def gather(runs_dir: str) -> list[dict]:
    """The eval rows of runs_dir (`<name>.json`), each with its `name` and, where times.txt says, `seconds`."""
    if os.path.isfile(runs_dir):                # a gathered file: its rows as they are
        return json.load(open(runs_dir))
    times = {}
    path = os.path.join(runs_dir, "times.txt")
    if os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if len(parts) >= 2 and parts[1].endswith("s"):
                times[parts[0]] = int(parts[1][:-1])
    rows = []
    for f in sorted(glob.glob(os.path.join(runs_dir, "*.json"))):
        name = os.path.basename(f)[:-5]
        row = json.load(open(f))
        if not isinstance(row, dict) or "win_rate" not in row:
            continue
        row = {"name": name, **row}
        if name in times:
            row["seconds"] = times[name]
        rows.append(row)
    return rows


def curves(rows: list[dict]) -> dict:
    """env id -> {(players, opponent): [(iterations, win rate, low, high, games)] sorted by iterations}."""
    out: dict = {}
    for r in rows:
        m = _ITERS.match(r.get("agent") or "")
        if not m or r.get("cooperative") or r.get("superseded_by") or r.get("role") == "validation":
            continue
        line = out.setdefault(r["game"], {}).setdefault((r["players"], r["opponent"]), [])
        line.append((int(m.group(1)), r["win_rate"], r["ci95"][0], r["ci95"][1], r["games"]))
    for lines in out.values():
        for pts in lines.values():
            pts.sort()
    return out


def rates(rows: list[dict]) -> dict:
    """(env id, players) -> IS-MCTS iterations per CPU second, from the bench rows (`"kind": "bench"`)."""
    return {(r["game"], r["players"]): float(r["iterations_per_cpu_second"]) for r in rows if r.get("kind") == "bench"}


def seconds(rows: list[dict]) -> dict:
    """(env id, players, iterations) -> CPU seconds per decision at the bench rate, for every curve point with one."""
    rate = rates(rows)
    out = {}
    for env_id, lines in curves(rows).items():
        for (n, _), pts in lines.items():
            if (env_id, n) in rate:
                for p in pts:
                    out[(env_id, n, p[0])] = p[0] / rate[(env_id, n)]
    return out


def plot(env_id: str, lines: dict, path: str, rate: dict | None = None) -> None:
    """One game's budget curves: win rate (95% interval as error bars) against iterations per decision, log scale;
    `rate` (players -> iterations per CPU second) adds a dotted line at 1 s of CPU per decision."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=110)
    for k, ((n, opp), pts) in enumerate(sorted(lines.items())):
        x = [p[0] for p in pts]
        y = [p[1] for p in pts]
        err = [[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]]
        colour = f"C{k}"
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, color=colour,
                    label=f"{n} players, vs {opp} ({pts[0][4]}-{pts[-1][4]} games a point)")
        ax.axhline(1 / n, color=colour, linestyle="--", linewidth=0.8)
    for n, r in sorted((rate or {}).items()):
        if any(k[0] == n for k in lines):
            ax.axvline(r, color="grey", linestyle=":", linewidth=1)
            ax.text(r, 0.02, f" 1 s ({n}p)", fontsize=7, color="grey", rotation=90, va="bottom")
    ax.set_xscale("log")
    ax.set_xlabel("IS-MCTS iterations per decision")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{_NAMES.get(env_id, env_id)}: ismcts win rate by budget (dashed: 1/N"
                 + ("; dotted: 1 s of CPU a decision)" if rate else ")"), fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv) -> None:
    runs_dir, out_json, img_dir = argv
    rows = gather(runs_dir)
    with open(out_json, "w") as f:
        json.dump(rows, f, indent=1)
    rate = rates(rows)
    for env_id, lines in curves(rows).items():
        path = os.path.join(img_dir, f"search_budget_{env_id}.png")
        plot(env_id, lines, path, {n: r for (g, n), r in rate.items() if g == env_id})
        print(f"wrote {path}")
    print(f"wrote {out_json} ({len(rows)} rows)")


if __name__ == "__main__":
    main(sys.argv[1:])
