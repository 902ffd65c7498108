"""Two models on the same test deals: per opponent, the difference of win rates, its interval, Holm (issue 17).

    virus-arena train --game G --evaluate A.zip --opponent X --opponent Y --games N --seed S --out /tmp/a
    virus-arena train --game G --evaluate B.zip --opponent X --opponent Y --games N --seed S --out /tmp/b
    python -m virus_envs.experiments.model_compare --a /tmp/a/eval.json [RUN/summary.json ...] --b /tmp/b/eval.json [--json FILE]

Each side is one or more eval.json files or a train run's summary.json (its test rows: best.zip on the test
deals), merged. Both sides must come from the same game, player count and `--seed` (the same deals, seats rotated the same
way) and name the same games per opponent; otherwise the comparison is refused with one line saying why.
For every opponent both played: each model's win rate with its 95% Wilson interval, the difference A - B with
Newcombe's 95% interval (statsmodels `confint_proportions_2indep(method="newcomb")`), the two-sided p-value of
the score test of equal proportions (`test_proportions_2indep(method="score")`) and whether it stands after
Holm's step-down over the opponents (family-wise 0.05). The two models' games on one deal are not paired
move by move (the opponents' choices differ), so the test treats the two samples as independent: conservative
when the two models' results on a deal are positively correlated, as same-deal results tend to be.
"""
from __future__ import annotations

import argparse
import json
import sys

__all__ = ["compare", "merge", "markdown"]


def _load(path: str) -> dict:
    """An eval.json of `virus-arena train --evaluate`, or a train run's summary.json (its test rows: best.zip on
    the test deals, seed split.test_seed)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror})") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path}: not JSON (expected an eval.json of `virus-arena train --evaluate` or a run's "
                         f"summary.json)") from None
    if isinstance(data, dict) and "test" in data and "split" in data:          # a train run's summary.json
        data = {"env_id": data.get("env_id"), "num_players": data.get("num_players"), "model": data.get("best"),
                "seed": data["split"].get("test_seed"), "rows": data["test"]}
    for key in ("env_id", "num_players", "model", "seed", "rows"):
        if not isinstance(data, dict) or key not in data:
            raise ValueError(f"{path}: field {key!r} missing (expected an eval.json of `virus-arena train --evaluate` "
                             f"or a run's summary.json)")
    return data


def merge(parts: list[dict]) -> dict:
    """Several evaluations of one model on one seed (e.g. 400 games against heuristics, 40 against a search) as one."""
    first = parts[0]
    for p in parts[1:]:
        for key in ("env_id", "num_players", "model", "seed"):
            if p[key] != first[key]:
                raise ValueError(f"field {key!r} differs within one side ({first[key]!r} vs {p[key]!r})")
    rows = [r for p in parts for r in p["rows"]]
    seen = [r["opponent"] for r in rows]
    dup = sorted({o for o in seen if seen.count(o) > 1})
    if dup:
        raise ValueError(f"opponent {dup[0]!r} appears in two files of one side")
    return dict(first, rows=rows)


def compare(a: dict, b: dict, alpha: float = 0.05) -> dict:
    """Per shared opponent: both win rates, the difference a - b, its Newcombe interval, p, Holm (see the module)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    from virus_envs.experiments.arena import wilson
    from virus_envs.experiments.studies.design import holm

    for key in ("env_id", "num_players", "seed"):
        if a[key] != b[key]:
            raise ValueError(f"field {key!r} differs ({a[key]!r} vs {b[key]!r}): not the same deals")
    rows_b = {r["opponent"]: r for r in b["rows"]}
    shared = [r for r in a["rows"] if r["opponent"] in rows_b]
    if not shared:
        raise ValueError("the two files share no opponent")
    out = []
    for ra in shared:
        rb = rows_b[ra["opponent"]]
        if ra["games"] != rb["games"]:
            raise ValueError(f"opponent {ra['opponent']!r}: {ra['games']} games vs {rb['games']}: not the same deals")
        n, ka, kb = ra["games"], float(ra["wins"]), float(rb["wins"])
        lo, hi = confint_proportions_2indep(ka, n, kb, n, method="newcomb", compare="diff")
        if ka == kb:
            p = 1.0
        else:
            p = float(test_proportions_2indep(ka, n, kb, n, method="score", compare="diff").pvalue)
        out.append({"opponent": ra["opponent"], "games": n,
                    "a": {"wins": ka, "win_rate": ka / n, "ci95": list(wilson(ka, n))},
                    "b": {"wins": kb, "win_rate": kb / n, "ci95": list(wilson(kb, n))},
                    "diff": (ka - kb) / n, "diff_ci95": [float(lo), float(hi)], "p": p})
    for r, rej in zip(out, holm([r["p"] for r in out], alpha)):
        r["holm_significant"] = rej
        r["verdict"] = ("a stronger" if r["diff"] > 0 else "a weaker") if rej else "no difference shown"
    return {"env_id": a["env_id"], "num_players": a["num_players"], "seed": a["seed"], "a": a["model"],
            "b": b["model"], "alpha": alpha, "rows": out,
            "a_not_weaker": not any(r["holm_significant"] and r["diff"] < 0 for r in out)}


def markdown(res: dict, a: str = "a", b: str = "b") -> str:
    """The comparison as a line naming the two models and a table; `a` and `b` name them in the table's headers
    and verdicts (e.g. "league", "`ppo:builtin`")."""
    lines = [f"a = {res['a']}, b = {res['b']} ({res['env_id']}, {res['num_players']} players, seed {res['seed']})", "",
             f"| opponent | games | {a} [95% CI] | {b} [95% CI] | {a} - {b} [95% CI] | p | Holm |",
             "|---|---:|---|---|---|---:|---|"]
    for r in res["rows"]:
        ra, rb, (lo, hi) = r["a"], r["b"], r["diff_ci95"]
        verdict = a + r["verdict"][1:] if r["verdict"].startswith("a ") else r["verdict"]
        lines.append(f"| {r['opponent']} | {r['games']} | {ra['win_rate']:.3f} [{ra['ci95'][0]:.3f}, "
                     f"{ra['ci95'][1]:.3f}] | {rb['win_rate']:.3f} [{rb['ci95'][0]:.3f}, {rb['ci95'][1]:.3f}] | "
                     f"{r['diff']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {r['p']:.3g} | {verdict} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m virus_envs.experiments.model_compare", description=__doc__.split("\n")[0])
    p.add_argument("--a", nargs="+", required=True, metavar="FILE",
                   help="model a: eval.json files of `virus-arena train --evaluate` and/or a run's summary.json")
    p.add_argument("--b", nargs="+", required=True, metavar="FILE", help="model b: the same, same game and seed")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--json", default=None, help="write the comparison here")
    args = p.parse_args(argv)
    try:
        res = compare(merge([_load(f) for f in args.a]), merge([_load(f) for f in args.b]), args.alpha)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(markdown(res))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
