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

With three or more sensitivity seeds (configs/studies/contamination_v3_sheets3.yaml), the replication rule:

- `sheet_findings`: per alternative sheet, a hypothesis is a *sheet finding* only when it is Holm-rejected (per
  sheet and seed) on every sensitivity seed with one sign (at least three seeds, each finished); a rejection on
  fewer seeds is a lead;
- a *direction* survives every sheet when, on every alternative sheet, the estimate pooled over that sheet's
  seeds (`pooled_by_sheet`; unit: the game) has the stated sign and no seed of any sheet rejects the opposite
  sign (with one seed the pooled estimate is that seed's: the rule of the one-seed run);
- the average over sheets is *replicated* when rejected on every seed with one sign.
A sheet or seed not finished (a stopped run) is named as such and never counted as keeping a direction.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from virus_envs.experiments.studies.contamination_v2 import _fmt, effects, forest, holm, in_cell, t_test


def _sign(x: float | None) -> int:
    return 0 if x is None or x == 0 else int(np.sign(x))


def _label(sheet: str, seeds) -> str:
    """'<sheet>/<seed>' for one seed, '<sheet>/<seed>+<seed>+...' for an estimate pooled over several."""
    return f"{sheet}/" + "+".join(str(s) for s in seeds)


def finished_seeds(cfg, finished: set[str] | None, tasks: list[str] | None) -> dict:
    """{alternative sheet: [its sensitivity seeds whose every task is finished]}; without the run's task keys,
    every seed counts as finished."""
    out = {}
    for sheet in cfg.sheets[1:]:
        if finished is None or tasks is None:
            out[sheet.id] = list(cfg.sensitivity_seeds)
            continue
        out[sheet.id] = [s for s in cfg.sensitivity_seeds
                         if all(k in finished for k in tasks if k.startswith(f"{sheet.id}/") and k.split("/")[2] == str(s))]
    return out


def pooled_by_sheet(rows: list[dict], cfg) -> dict:
    """{sheet: [per hypothesis: the win-share and points estimates pooled over the sheet's sensitivity seeds
    (unit: the game, t-interval), the seeds that gave rows]}: the first sheet too (over those of its seeds)."""
    out = {}
    for sheet in cfg.sheets:
        srows = [r for r in rows if r["sheet"] == sheet.id and r["seed"] in cfg.sensitivity_seeds]
        seeds = sorted({r["seed"] for r in srows})
        tests = []
        for h in cfg.hypotheses:
            cell = [r for r in srows if in_cell(r, h)]
            tests.append({"id": h.id, "contrast": h.contrast, "seeds": seeds,
                          "win": t_test(effects(cell, h.contrast, "win")),
                          "points": t_test(effects(cell, h.contrast, "margin"))})
        out[sheet.id] = tests
    return out


def sheet_findings(res: dict, cfg, done: dict) -> dict:
    """{alternative sheet: {hypothesis id: sign}}: Holm-rejected on every sensitivity seed of the sheet with one
    sign; only with at least three seeds, every one finished (`done`: finished_seeds)."""
    seeds = [str(s) for s in cfg.sensitivity_seeds]
    out = {}
    for sheet, d in res["sensitivity"].items():
        out[sheet] = {}
        if len(seeds) < 3 or len(done.get(sheet, [])) < len(seeds):
            continue
        for i, h in enumerate(cfg.hypotheses):
            signs = {d[s][i]["sign"] for s in seeds}
            if len(signs) == 1 and 0 not in signs:
                out[sheet][h.id] = signs.pop()
    return out


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
            t["sign"] = _sign(t["win"]["mean"]) if rej else 0
        out += tests
    return out


def averaged_replicated(tests: list[dict], cfg) -> dict:
    """{hypothesis id: sign} of the averages over sheets rejected on every sensitivity seed with one sign (at
    least three seeds)."""
    seeds = list(cfg.sensitivity_seeds)
    if len(seeds) < 3:
        return {}
    out = {}
    for hid in dict.fromkeys(t["id"] for t in tests):
        signs = {t.get("sign", 0) for t in tests if t["id"] == hid and t["seed"] in seeds}
        if len([t for t in tests if t["id"] == hid]) == len(seeds) and len(signs) == 1 and 0 not in signs:
            out[hid] = signs.pop()
    return out


def survival(rows: list[dict], res: dict, cfg, ids: list[str], done: dict | None = None) -> list[dict]:
    """The pre-registered verdict per hypothesis (module docstring). `done`: finished_seeds (default: every
    seed of every sheet finished)."""
    first = cfg.sheets[0].id
    done = done if done is not None else {sh.id: list(cfg.sensitivity_seeds) for sh in cfg.sheets[1:]}
    main = [r for r in rows if r["sheet"] == first and r["seed"] in cfg.seeds]
    pooled_sheets = pooled_by_sheet(rows, cfg)
    findings = sheet_findings(res, cfg, done)
    n_seeds = len(cfg.sensitivity_seeds)
    lead = "one seed: a lead" if n_seeds == 1 else "not on every seed of its sheet: a lead"
    complete = [sh for sh in res["sensitivity"] if len(done.get(sh, [])) == n_seeds]
    cut = [sh for sh in res["sensitivity"] if done.get(sh) and sh not in complete]
    not_run = [sh for sh in res["sensitivity"] if not done.get(sh)]
    out = []
    for i, h in enumerate(cfg.hypotheses):
        pooled = t_test(effects([r for r in main if in_cell(r, h)], h.contrast, "win"))
        finding = h.id in res["replicated"]
        ref = (res["by_seed"][str(cfg.seeds[0])][i]["sign"] if finding else _sign(pooled["mean"]))
        est, rejected, pooled_signs, pooled_est = {}, {}, {}, {}
        for sheet, d in res["sensitivity"].items():
            for s, tests in d.items():
                t = tests[i]
                if int(s) not in done.get(sheet, []):
                    continue
                est[f"{sheet}/{s}"] = _sign(t["win"]["mean"])
                if t["rejected"]:
                    rejected[f"{sheet}/{s}"] = t["sign"]
            if sheet in not_run:
                continue
            p = pooled_sheets[sheet][i]
            key = _label(sheet, done[sheet])
            pooled_signs[key] = _sign(p["win"]["mean"])
            pooled_est[key] = p["win"]
        opposite = [k for k, sg in rejected.items() if ref and sg == -ref]
        checked = h.id in ids or finding
        kept_run = bool(ref) and all(sg == ref for sg in pooled_signs.values()) and not opposite
        kept = kept_run and not cut and not not_run
        not_kept = [k for k, sg in pooled_signs.items() if sg != ref] if checked else []
        sf = {sh: f[h.id] for sh, f in findings.items() if h.id in f}
        v = {"id": h.id, "finding_on_first_sheet": finding, "first_sheet_pooled": pooled, "reference_sign": ref,
             "signs": est, "pooled_signs": pooled_signs, "pooled_on_sheet": pooled_est, "rejected_on": rejected,
             "sheet_findings": sf, "opposite_rejections": opposite, "direction_checked": checked,
             "direction_kept_on_every_sheet": kept if checked else None,
             "direction_kept_on_every_sheet_run": kept_run if checked else None,
             "not_kept_on": not_kept, "sheets_cut_short": cut, "sheets_not_run": not_run}
        partial = (("; cut short: " + ", ".join(cut) if cut else "") + ("; not run: " + ", ".join(not_run)
                                                                         if not_run else ""))
        if finding:
            v["verdict"] = ("finding survives every sheet" if kept else "finding kept on every sheet run, not on every sheet"
                            if kept_run else "finding does not survive every sheet") + partial
        else:
            leads = [k for k in rejected if k.split("/")[0] not in sf]
            parts = [f"a sheet finding on {sh} ({'+' if sg > 0 else '-'}, rejected on its {n_seeds} seeds)"
                     for sh, sg in sf.items()]
            if leads:
                parts.append("rejected on " + ", ".join(leads) + f" ({lead})")
            v["verdict"] = "no finding; " + ("; ".join(parts) if parts else "no sheet rejects it")
            if h.id in ids:
                if kept:
                    v["verdict"] += "; direction kept on every sheet"
                elif kept_run:
                    v["verdict"] += "; direction kept on every sheet run, not on every sheet"
                else:
                    v["verdict"] += "; direction not kept on " + (", ".join(not_kept + opposite) or "-")
            v["verdict"] += partial
        out.append(v)
    return out


def analyse_sheets(rows: list[dict], res: dict, cfg, finished: set[str] | None = None,
                   tasks: list[str] | None = None) -> dict:
    """What a `report: sensitivity` run adds to the results (`finished`, `tasks`: the keys of the run's finished
    tasks and of all its tasks, to name a stopped run's unfinished sheets and seeds)."""
    ids = list(cfg.sensitivity_directions)
    done = finished_seeds(cfg, finished, tasks)
    avg = averaged_over_sheets(rows, cfg, ids)
    return {"sheet_tests_first": {str(s): res["by_seed"][str(s)] for s in cfg.sensitivity_seeds
                                  if str(s) in res["by_seed"]},
            "holm_over_table": holm_over_table(res, cfg.alpha),
            "averaged_over_sheets": avg, "averaged_replicated": averaged_replicated(avg, cfg),
            "pooled_by_sheet": pooled_by_sheet(rows, cfg),
            "sheet_findings": sheet_findings(res, cfg, done), "finished_seeds": done,
            "sensitivity_seeds": list(cfg.sensitivity_seeds),
            "survival": survival(rows, res, cfg, ids, done), "directions": ids,
            "points_by_sheet": {sh: {s: len([r for r in rows if r["sheet"] == sh and r["seed"] == int(s)])
                                     for s in d} for sh, d in res["sensitivity"].items()}}


def _mark(t: dict, table_rej: bool | None) -> str:
    return _fmt(t["win"]) + (" **rejected**" if t["rejected"] else "") + (" (whole table too)" if table_rej else "")


def _sign_txt(sg: int) -> str:
    return {1: "+", -1: "-", 0: "0"}[sg]


def sheets_markdown_seeds(res: dict) -> str:
    """The sensitivity tables of a run with several sensitivity seeds: per sheet and hypothesis each seed's test,
    the estimate pooled over the sheet's seeds and whether it is a sheet finding; the averages over sheets; the
    verdicts of the three-seed rule."""
    c, sh = res["config"], res["sheets"]
    first = c["sheets"][0]
    seeds = [str(s) for s in sh["sensitivity_seeds"]]
    table = sh["holm_over_table"]
    done = sh["finished_seeds"]
    hyps = [t for t in res["by_seed"][seeds[0]]] if seeds[0] in res["by_seed"] else sh["pooled_by_sheet"][first]
    cut = {k: v for k, v in done.items() if len(v) < len(seeds)}
    lines = [f"Continuation `{c['continuation']}` x {c['rollouts']} rollouts per arm on common random numbers; "
             f"{c['sensitivity_games']} uniform-draw games and the stratum's games per player count on each "
             f"alternative sheet and seed (seeds {', '.join(seeds)}); the {first} sheet's rows are the main run's "
             f"({res.get('games')} uniform-draw games per seed and player count). Holm at family-wise {c['alpha']} over "
             "the hypotheses of each sheet and seed (**rejected**); 'whole table too': also rejected by Holm over every "
             "alternative sheet x seed x hypothesis. 'Pooled': the sheet's games of all its seeds (unit: the game, "
             "t-interval), descriptive. Sheet finding: rejected on all three seeds with one sign."
             + ("" if not cut else " Not finished: " + "; ".join(
                 f"{k} (seeds done: {', '.join(map(str, v)) or 'none'})" for k, v in cut.items()) + "."), "",
             "#### Win share (primary): effect of arm A - arm B, per sheet and seed", "",
             "| sheet | hypothesis | " + " | ".join(f"seed {s}" for s in seeds) + " | pooled over the seeds | sheet finding |",
             "|---|---|" + "---|" * len(seeds) + "---|---|"]
    for k in c["sheets"]:
        per = ({s: res["by_seed"][s] for s in seeds if s in res["by_seed"]} if k == first
               else res["sensitivity"].get(k, {}))
        for i, h in enumerate(hyps):
            cells = []
            for s in seeds:
                if k != first and int(s) not in done.get(k, []):
                    cells.append("not run")
                    continue
                t = per[s][i]
                cells.append(_mark(t, table.get(k, {}).get(s, [None] * len(hyps))[i] if k != first else None))
            pooled = sh["pooled_by_sheet"][k][i]["win"]
            if k == first:
                found = "yes (main run)" if h["id"] in res["replicated"] else "no (main run)"
            else:
                sg = sh["sheet_findings"].get(k, {}).get(h["id"])
                found = f"**yes ({_sign_txt(sg)})**" if sg else ("no" if len(done.get(k, [])) == len(seeds)
                                                                 else "no (not every seed run)")
            lines.append(f"| {k} | {h['id']} ({h['contrast']}) | " + " | ".join(cells) + f" | {_fmt(pooled)} | {found} |")
    lines += ["", "#### Points (secondary, not corrected): own final score minus the best rival's", "",
              "| sheet | hypothesis | " + " | ".join(f"seed {s}" for s in seeds) + " | pooled over the seeds |",
              "|---|---|" + "---|" * len(seeds) + "---|"]
    for k in c["sheets"]:
        per = ({s: res["by_seed"][s] for s in seeds if s in res["by_seed"]} if k == first
               else res["sensitivity"].get(k, {}))
        for i, h in enumerate(hyps):
            cells = [("not run" if k != first and int(s) not in done.get(k, []) else _fmt(per[s][i]["points"]))
                     for s in seeds]
            lines.append(f"| {k} | {h['id']} | " + " | ".join(cells) + f" | {_fmt(sh['pooled_by_sheet'][k][i]['points'])} |")
    rep = sh.get("averaged_replicated", {})
    lines += ["", "#### Averaged over every sheet (the same deals; unit: the game; Holm over these hypotheses per seed)", "",
              "| hypothesis | seed | sheets per game | win share | Holm | points |", "|---|---:|---:|---|---|---|"]
    for t in sh["averaged_over_sheets"]:
        lines.append(f"| {t['id']} | {t['seed']} | {t['sheets_per_game']} | {_fmt(t['win'])} | "
                     f"{'**rejected**' if t['rejected'] else 'not rejected'} | {_fmt(t['points'])} |")
    lines += ["", "Replicated (rejected on all three seeds with one sign): "
              + (", ".join(f"{k} ({_sign_txt(v)})" for k, v in rep.items()) or "none") + "."]
    lines += ["", "#### Which conclusions survive every sheet (the pre-registered three-seed rule)", "",
              "| hypothesis | on the first sheet (3 seeds, win share pooled) | direction | sign pooled on each "
              "alternative sheet | verdict |", "|---|---|---|---|---|"]
    for v in sh["survival"]:
        signs = ", ".join(f"{k.split('/')[0]} {_sign_txt(sg)}" for k, sg in v.get("pooled_signs", {}).items())
        lines.append(f"| {v['id']} | {'finding' if v['finding_on_first_sheet'] else 'no finding'}; "
                     f"{_fmt(v['first_sheet_pooled'])} | "
                     f"{_sign_txt(v['reference_sign']) if v['direction_checked'] else 'not checked'} | {signs} | "
                     f"{v['verdict']} |")
    return "\n".join(lines)


def sheets_markdown(res: dict) -> str:
    """The page's sensitivity tables of a `report: sensitivity` run."""
    if len(res["sheets"].get("sensitivity_seeds", [])) > 1:
        return sheets_markdown_seeds(res)
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
    filled: rejected after Holm on that sheet. With several sensitivity seeds: each sheet's estimate pooled over
    its seeds; filled: a sheet finding (the first sheet: a finding of the main run)."""
    first = res["config"]["sheets"][0]
    sh = res["sheets"]
    if len(sh.get("sensitivity_seeds", [])) > 1:
        cols = []
        for k in res["config"]["sheets"]:
            done = sh["finished_seeds"].get(k, sh["sensitivity_seeds"]) if k != first else sh["sensitivity_seeds"]
            if not done:
                continue
            found = set(res["replicated"]) if k == first else set(sh["sheet_findings"].get(k, {}))
            cols.append((f"{k} (seeds {'+'.join(map(str, done))})",
                         [dict(t, rejected=t["id"] in found) for t in sh["pooled_by_sheet"][k]]))
        return forest(cols, path, "effect on win share, per sheet pooled over its seeds (filled: a sheet finding)",
                      xlim=(-1.05, 1.05))
    cols = [(f"{first} (seed {s})", t) for s, t in res["sheets"]["sheet_tests_first"].items()]
    cols += [(f"{k} (seed {s})", t) for k, d in res["sensitivity"].items() for s, t in d.items()]
    return forest(cols, path, "effect on win share, per sheet (filled: rejected after Holm on that sheet)",
                  xlim=(-1.05, 1.05))
