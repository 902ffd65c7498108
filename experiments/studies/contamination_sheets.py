"""Contamination study (issue 18), sensitivity to the designed score sheet: which conclusions survive every sheet.

A run of `contamination_v2.py` whose config sets `report: sensitivity` (configs/studies/contamination_v3_sheets.yaml)
plays the pre-registered hypotheses again on each alternative sheet (its `sensitivity_seeds`); its first sheet is
the main run's (the same tasks, so a copy of the main run's interventions.jsonl and `--resume` re-use them). This
module reads such a run's rows and says, by the rules the config pre-registered:

- per sheet and hypothesis: the effect on win share (primary) and points (secondary), 95% t-intervals, Holm over
  the hypotheses of that sheet and seed (the main run's family), and Holm over the whole table of alternative
  sheets x hypotheses (stricter, reported beside it);
- per hypothesis, the verdict (`survival`):
  * a *finding* (rejected on every seed of the first sheet with one sign: the main run's headline rule) survives
    every sheet when on every alternative sheet its estimate has that sign and no sheet rejects the opposite sign;
  * a hypothesis without a finding keeps its "no finding" on every sheet unless a sheet rejects it (one seed of
    one sheet: a lead to replicate, not a finding);
  * for the hypotheses of `sensitivity_directions`, the *direction* (the sign of the first sheet's estimate pooled
    over its seeds) is kept on every sheet when every alternative sheet's estimate has that sign (a zero does
    not keep it) and none rejects the opposite sign: descriptive, not a test;
- per direction hypothesis, the effect averaged over every sheet (the first one's sensitivity seed included):
  the unit is the game (seed, players, stratum, game index: the same deal on every sheet), its effect the mean
  over the sheets where that game gave a point of the cell; t-test, Holm over these hypotheses.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from virus_envs.experiments.studies.contamination_v2 import _fmt, effects, forest, holm, in_cell, t_test


def _sign(x: float | None) -> int:
    return 0 if x is None or x == 0 else int(np.sign(x))


def sheet_tests(res: dict, cfg) -> dict:
    """{sheet: {seed: [the hypotheses' tests]}}: the first sheet's sensitivity seeds (from the main analysis),
    then every alternative sheet's."""
    first = cfg.sheets[0].id
    out = {first: {str(s): res["by_seed"][str(s)] for s in cfg.sensitivity_seeds if str(s) in res["by_seed"]}}
    out.update(res["sensitivity"])
    return out


def holm_over_table(res: dict, alpha: float) -> dict:
    """Holm over every alternative sheet x seed x hypothesis of the sensitivity table: {sheet: {seed: [bool]}}."""
    keys = [(sh, s, i) for sh, d in res["sensitivity"].items() for s, tests in d.items() for i in range(len(tests))]
    rej = holm([res["sensitivity"][sh][s][i]["win"]["p"] for sh, s, i in keys], alpha)
    out: dict = defaultdict(lambda: defaultdict(list))
    for (sh, s, _), r in zip(keys, rej):
        out[sh][s].append(r)
    return {sh: dict(d) for sh, d in out.items()}


def averaged_over_sheets(rows: list[dict], cfg, ids: list[str]) -> list[dict]:
    """Each direction hypothesis's effect averaged over every sheet, per game (the same deal on every sheet),
    on each sensitivity seed; Holm over the hypotheses of one seed."""
    hyps = [h for h in cfg.hypotheses if h.id in ids]
    out = []
    for seed in cfg.sensitivity_seeds:
        tests = []
        for h in hyps:
            units: dict = defaultdict(lambda: {"win": [], "margin": []})
            for r in rows:
                if r["seed"] != seed or not in_cell(r, h):
                    continue
                for outcome in ("win", "margin"):
                    e = effects([r], h.contrast, outcome)
                    if len(e):
                        units[(r["players"], r.get("stratum", ""), r["game"])][outcome].append(float(e[0]))
            win = np.array([np.mean(u["win"]) for u in units.values() if u["win"]])
            pts = np.array([np.mean(u["margin"]) for u in units.values() if u["margin"]])
            sheets_per_unit = [len(u["win"]) for u in units.values() if u["win"]]
            tests.append({"id": h.id, "seed": seed, "win": t_test(win), "points": t_test(pts),
                          "sheets_per_game": round(float(np.mean(sheets_per_unit)), 2) if sheets_per_unit else None})
        for t, rej in zip(tests, holm([t["win"]["p"] for t in tests], cfg.alpha)):
            t["rejected"] = rej
        out += tests
    return out


def survival(rows: list[dict], res: dict, cfg, ids: list[str]) -> list[dict]:
    """The pre-registered verdict per hypothesis (module docstring)."""
    first = cfg.sheets[0].id
    main = [r for r in rows if r["sheet"] == first and r["seed"] in cfg.seeds]
    out = []
    for i, h in enumerate(cfg.hypotheses):
        pooled = t_test(effects([r for r in main if in_cell(r, h)], h.contrast, "win"))
        finding = h.id in res["replicated"]
        ref = (res["by_seed"][str(cfg.seeds[0])][i]["sign"] if finding else _sign(pooled["mean"]))
        est, rejected = {}, {}
        for sheet, d in res["sensitivity"].items():
            for s, tests in d.items():
                t = tests[i]
                est[f"{sheet}/{s}"] = _sign(t["win"]["mean"])
                if t["rejected"]:
                    rejected[f"{sheet}/{s}"] = t["sign"]
        opposite = [k for k, sg in rejected.items() if ref and sg == -ref]
        kept = bool(ref) and all(sg == ref for sg in est.values()) and not opposite
        v = {"id": h.id, "finding_on_first_sheet": finding, "first_sheet_pooled": pooled, "reference_sign": ref,
             "signs": est, "rejected_on": rejected, "direction_checked": h.id in ids or finding,
             "direction_kept_on_every_sheet": kept if (h.id in ids or finding) else None,
             "not_kept_on": [k for k, sg in est.items() if sg != ref] if (h.id in ids or finding) else []}
        if finding:
            v["verdict"] = "finding survives every sheet" if kept else "finding does not survive every sheet"
        else:
            v["verdict"] = "no finding; " + ("no sheet rejects it" if not rejected
                                              else "rejected on " + ", ".join(rejected) + " (one seed: a lead)")
            if h.id in ids:
                v["verdict"] += ("; direction kept on every sheet" if kept
                                 else "; direction not kept on " + (", ".join(v["not_kept_on"]) or "-"))
        out.append(v)
    return out


def analyse_sheets(rows: list[dict], res: dict, cfg) -> dict:
    """What a `report: sensitivity` run adds to the results."""
    ids = list(cfg.sensitivity_directions)
    return {"sheet_tests_first": {str(s): res["by_seed"][str(s)] for s in cfg.sensitivity_seeds
                                  if str(s) in res["by_seed"]},
            "holm_over_table": holm_over_table(res, cfg.alpha),
            "averaged_over_sheets": averaged_over_sheets(rows, cfg, ids),
            "survival": survival(rows, res, cfg, ids), "directions": ids,
            "points_by_sheet": {sh: {s: len([r for r in rows if r["sheet"] == sh and r["seed"] == int(s)])
                                     for s in d} for sh, d in res["sensitivity"].items()}}


def _mark(t: dict, table_rej: bool | None) -> str:
    return _fmt(t["win"]) + (" **rejected**" if t["rejected"] else "") + (" (whole table too)" if table_rej else "")


def sheets_markdown(res: dict) -> str:
    """The page's sensitivity tables of a `report: sensitivity` run."""
    c, sh = res["config"], res["sheets"]
    first = c["sheets"][0]
    cols = [(first, s, tests) for s, tests in sh["sheet_tests_first"].items()]
    cols += [(k, s, tests) for k, d in res["sensitivity"].items() for s, tests in d.items()]
    head = [f"{k} (seed {s})" for k, s, _ in cols]
    lines = [f"Continuation `{c['continuation']}` x {c['rollouts']} rollouts per arm on common random numbers; "
             f"{c['sensitivity_games']} uniform-draw games per player count on each alternative sheet, the stratum's "
             f"as configured; the first column is the main run's seed {', '.join(sh['sheet_tests_first'])} on the "
             f"{first} sheet. Holm at family-wise {c['alpha']} over the hypotheses of each column (**rejected**); "
             "'whole table too': also rejected by Holm over every alternative sheet x hypothesis.", "",
             "#### Win share (primary): effect of arm A - arm B per sheet", "",
             "| hypothesis | " + " | ".join(head) + " |", "|---|" + "---|" * len(cols)]
    hyps = cols[0][2]
    table = sh["holm_over_table"]
    for i, h in enumerate(hyps):
        cells = [_mark(tests[i], table.get(k, {}).get(s, [None] * len(hyps))[i] if k != first else None)
                 for k, s, tests in cols]
        lines.append(f"| {h['id']} ({h['contrast']}) | " + " | ".join(cells) + " |")
    lines += ["", "#### Points (secondary, not corrected): own final score minus the best rival's", "",
              "| hypothesis | " + " | ".join(head) + " |", "|---|" + "---|" * len(cols)]
    for i, h in enumerate(hyps):
        lines.append(f"| {h['id']} | " + " | ".join(_fmt(tests[i]["points"]) for _, _, tests in cols) + " |")
    lines += ["", "#### Averaged over every sheet (the same deals; unit: the game; Holm over these hypotheses)", "",
              "| hypothesis | seed | sheets per game | win share | Holm | points |", "|---|---:|---:|---|---|---|"]
    for t in sh["averaged_over_sheets"]:
        lines.append(f"| {t['id']} | {t['seed']} | {t['sheets_per_game']} | {_fmt(t['win'])} | "
                     f"{'**rejected**' if t['rejected'] else 'not rejected'} | {_fmt(t['points'])} |")
    lines += ["", "#### Which conclusions survive every sheet (the pre-registered rule)", "",
              "| hypothesis | on the first sheet (3 seeds, win share pooled) | direction | verdict |", "|---|---|---|---|"]
    for v in sh["survival"]:
        ref = {1: "+", -1: "-", 0: "0"}[v["reference_sign"]]
        lines.append(f"| {v['id']} | {'finding' if v['finding_on_first_sheet'] else 'no finding'}; "
                     f"{_fmt(v['first_sheet_pooled'])} | {ref if v['direction_checked'] else 'not checked'} | "
                     f"{v['verdict']} |")
    return "\n".join(lines)


def plot_sheets(res: dict, path: str) -> str:
    """Forest plot: each hypothesis, each sheet's effect on win share (the sensitivity seed) with its 95% interval;
    filled: rejected after Holm on that sheet."""
    first = res["config"]["sheets"][0]
    cols = [(f"{first} (seed {s})", t) for s, t in res["sheets"]["sheet_tests_first"].items()]
    cols += [(f"{k} (seed {s})", t) for k, d in res["sensitivity"].items() for s, t in d.items()]
    return forest(cols, path, "effect on win share, per sheet (filled: rejected after Holm on that sheet)",
                  xlim=(-1.05, 1.05))
