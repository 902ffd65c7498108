"""Several training seeds of one config, reported on their test deals; the median run by validation (issue 17).

    python -m virus_envs.experiments.seed_report RUN_DIR RUN_DIR RUN_DIR [--choose-by heuristic]
                                                 [--rename ppo:builtin=ppo:builtin_prev] [--label candidate]
                                                 [--json OUT]

Issue 17: "Train each shipped configuration with at least 3 training seeds and report the mean and
spread, not the best run. Ship the median run, or say which one you ship and why." Each RUN_DIR is a
finished `virus-arena train` run (`summary.json`); its figures are `summary.json["test"]` (best.zip on
the test deals) plus any `RUN_DIR/*/eval.json` written by
`virus-arena train --evaluate RUN_DIR/best.zip --opponent SPEC --seed <test_seed> --out RUN_DIR/<name>`
(more test opponents on the same deals, e.g. IS-MCTS; a file of another model or other deals is refused).
Prints three Markdown tables: every run's test figures per opponent and seat (95% Wilson intervals), the
mean and spread over the runs per opponent, and the choice: the run whose **validation** win rate against
`--choose-by` (at its chosen checkpoint) is the median. Test figures never enter the choice. With fewer than
MIN_RUNS (3) runs no run is chosen (the issue's "at least 3 training seeds"): the figures are reported, the
choice says none, and the JSON's `shipped_seed` is null.
`--rename OLD=NEW` relabels an opponent (a run's `ppo:builtin` is the model shipped when it ran).
The JSON holds what the tables need (`runs_from_json` reads it back: the docs' tables are printed from the stored
file by `python -m virus_envs.experiments.agents_tables`).
"""
from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def _seats(row: dict) -> dict:
    return {str(s): v for s, v in row["by_seat"].items()}


def load_run(run: str | Path) -> dict:
    """One run: seed, chosen checkpoint, its validation rows, test rows (summary's and the extra eval.json)."""
    run = Path(run)
    path = run / "summary.json"
    try:
        s = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{path}: not found (is {run} a finished `virus-arena train` run?)") from None
    split = s.get("split") or {}
    for key in ("train_seed", "test_seed", "val_seed"):
        if key not in split:
            raise ValueError(f"{path}: field 'split.{key}' is missing (a run from before issue 17's split)")
    if not s.get("test"):
        raise ValueError(f"{path}: field 'test' is empty (the run was made with test_games 0)")
    chosen = next((e for e in s["evals"] if e["checkpoint"] == s["best_checkpoint"]), None)
    if chosen is None:
        raise ValueError(f"{path}: field 'best_checkpoint' names no evaluation of 'evals'")
    test = {r["opponent"]: r for r in s["test"]}
    for extra in sorted(run.glob("*/eval.json")):
        e = json.loads(extra.read_text())
        if e.get("seed") != split["test_seed"]:
            raise ValueError(f"{extra}: field 'seed' is {e.get('seed')}, not the run's test_seed {split['test_seed']}")
        if Path(e.get("model", "")).resolve() != (run / "best.zip").resolve():
            raise ValueError(f"{extra}: field 'model' is {e.get('model')!r}, not {run / 'best.zip'}")
        for r in e["rows"]:
            test.setdefault(r["opponent"], r)
    return {"dir": str(run), "seed": split["train_seed"], "steps": s["steps"], "minutes": s["minutes"],
            "checkpoint": Path(s["best_checkpoint"]).stem, "val": {r["opponent"]: r for r in chosen["rows"]},
            "val_games": split.get("val_games"), "test": test, "num_players": s["num_players"], "env_id": s["env_id"]}


#: the fewest runs from which a run is chosen to ship (issue 17: "at least 3 training seeds")
MIN_RUNS = 3


def choose(runs: list[dict], by: str) -> dict | None:
    """The run whose validation win rate against `by` is the median (the lower middle for an even count);
    None with fewer than MIN_RUNS runs."""
    for r in runs:
        if by not in r["val"]:
            raise ValueError(f"{r['dir']}: no validation figure against {by!r} (validated against "
                             f"{', '.join(r['val'])})")
    if len(runs) < MIN_RUNS:
        return None
    ranked = sorted(runs, key=lambda r: (r["val"][by]["win_rate"], r["seed"]))
    return ranked[(len(ranked) - 1) // 2]


def cell(r: dict, bold: bool = False) -> str:
    """A win rate with its 95% interval, 'rate [lo, hi]' (the rate in bold if asked)."""
    rate = f"**{r['win_rate']:.3f}**" if bold else f"{r['win_rate']:.3f}"
    return f"{rate} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"


def report(runs: list[dict], by: str = "heuristic", rename: dict | None = None,
           label: str = "shipped") -> tuple[str, dict]:
    """The Markdown tables and a JSON-safe summary of them. `label` names the median run in the tables: "shipped",
    or e.g. "candidate" for a median run that then lost the choice against the shipped model."""
    rename = rename or {}
    name = lambda o: rename.get(o, o)  # noqa: E731
    shipped = choose(runs, by)
    n = runs[0]["num_players"]
    opponents = list(dict.fromkeys(o for r in runs for o in r["test"]))
    seats = [str(s) for s in range(n)]
    seeds = ", ".join(f"seed {r['seed']}" for r in runs)
    choice = (f"{label}: seed {shipped['seed']} (the median by validation against `{by}`)" if shipped else
              f"{label}: none ({len(runs)} run{'s' * (len(runs) != 1)}; a run is chosen from at least {MIN_RUNS})")
    team = "team" in opponents           # a co-operative game's runs: a team's win rate, no 1/N to compare with
    base = "a co-operative game: the team's win rate, no 1/N" if team else f"1/N = {1 / n:.3f}"
    out = [f"Test deals, best.zip of each run, {seeds}; {base}; {choice}.", ""]
    out.append("| opponent | training seed | games | win rate [95% CI] | " + " | ".join(f"seat {s}" for s in seats) + " |")
    out.append("|---|---:|---:|---|" + "---|" * n)
    for o in opponents:
        for r in runs:
            t = r["test"].get(o)
            if t is None:
                continue
            by_seat = _seats(t)
            cells = [cell(by_seat[s]) if s in by_seat else "—" for s in seats]
            mark = f" ({label})" if r is shipped else ""
            out.append(f"| `{name(o)}` | {r['seed']}{mark} | {t['games']} | {cell(t)} | " + " | ".join(cells) + " |")
    out += ["", f"| opponent | runs | mean | standard deviation | min | max | {label} run |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    spread = {}
    for o in opponents:
        xs = [r["test"][o]["win_rate"] for r in runs if o in r["test"]]
        sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
        mine = shipped["test"].get(o) if shipped else None
        spread[name(o)] = {"runs": len(xs), "mean": statistics.fmean(xs), "sd": sd, "min": min(xs), "max": max(xs),
                           "shipped": mine["win_rate"] if mine else None}
        v = spread[name(o)]
        out.append(f"| `{name(o)}` | {len(xs)} | {v['mean']:.3f} | {sd:.3f} | {v['min']:.3f} | {v['max']:.3f} | "
                   + (f"{v['shipped']:.3f}" if mine else "—") + " |")
    val_ops = list(dict.fromkeys(o for r in runs for o in r["val"]))
    out += ["", "| training seed | steps | training minutes | chosen checkpoint | "
            + " | ".join(f"validation vs `{o}`" for o in val_ops) + f" | {label} |",
            "|---:|---:|---:|---|" + "---|" * len(val_ops) + "---|"]
    for r in sorted(runs, key=lambda r: r["seed"]):
        out.append(f"| {r['seed']} | {r['steps']:,} | {r['minutes']} | `{r['checkpoint']}` | "
                   + " | ".join(cell(r["val"][o]) if o in r["val"] else "—" for o in val_ops)
                   + f" | {('**yes** (median)' if label == 'shipped' else '**yes** (median; not shipped)') if r is shipped else 'no'} |")
    data = {"env_id": runs[0]["env_id"], "num_players": n, "choose_by": by,
            "shipped_seed": shipped["seed"] if shipped else None, "shipped_dir": shipped["dir"] if shipped else None,
            "spread": spread,
            "runs": [{"seed": r["seed"], "dir": r["dir"], "checkpoint": r["checkpoint"], "steps": r["steps"],
                      "minutes": r["minutes"], "val_games": r["val_games"],
                      "validation": {o: v["win_rate"] for o, v in r["val"].items()},
                      "test": {name(o): {"games": t["games"], "win_rate": t["win_rate"], "ci95": t["ci95"],
                                         "by_seat": _seats(t)} for o, t in r["test"].items()}} for r in runs]}
    return "\n".join(out), data


def runs_from_json(data: dict) -> list[dict]:
    """The runs of a JSON written by `--json`, as `load_run` gives them (opponents already renamed), so that `report`
    prints its tables again from the stored file; a validation interval comes from the win rate and `val_games`."""
    from virus_envs.experiments.arena import wilson

    runs = []
    for r in data["runs"]:
        n = r["val_games"]
        val = {o: {"win_rate": w, "ci95": list(wilson(w * n, n))} for o, w in r["validation"].items()}
        runs.append({"dir": r["dir"], "seed": r["seed"], "steps": r["steps"], "minutes": r["minutes"],
                     "checkpoint": r["checkpoint"], "val": val, "val_games": n, "test": r["test"],
                     "num_players": data["num_players"], "env_id": data["env_id"]})
    return runs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="finished `virus-arena train` output folders")
    ap.add_argument("--choose-by", default="heuristic", help="the validation opponent whose median run is shipped")
    ap.add_argument("--rename", action="append", default=[], help="OLD=NEW: relabel a test opponent")
    ap.add_argument("--label", default="shipped",
                    help="what the tables call the median run (e.g. 'candidate' when it then lost the choice)")
    ap.add_argument("--json", default=None, help="also write the figures as JSON to this file")
    args = ap.parse_args(argv)
    try:
        rename = dict(kv.split("=", 1) for kv in args.rename)
    except ValueError:
        raise SystemExit(f"seed_report: --rename takes OLD=NEW, got {args.rename}") from None
    try:
        runs = [load_run(r) for r in args.runs]
        if len({(r["env_id"], r["num_players"]) for r in runs}) > 1:
            raise ValueError("the runs are of different games or player counts: "
                             + ", ".join(f"{r['dir']} ({r['env_id']} {r['num_players']}p)" for r in runs))
        text, data = report(runs, args.choose_by, rename, args.label)
    except ValueError as e:
        raise SystemExit(f"seed_report: {e}") from None
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
