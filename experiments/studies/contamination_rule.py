"""A decision rule a player can use (issue 18): a depth-3 tree of "contaminate or not", fitted on the
measured effects of the designed contamination study (`contamination_v2`).

    virus-arena study contamination-rule --from runs/study-contamination-v2/interventions.jsonl \\
        --out agents/data/contamination_rule.json

Each intervention point of the study measured, for one die, the effect on the acting player's win share
of contaminating it rather than saving it: `contaminate - place` where the die could be placed as it was,
`contaminate - wildcard` where only a circled wildcard could make it placeable (the H3 stratum). The tree
predicts that effect from what a player sees at the table:

- `value`: the die's value (1-6);
- `players`: 2 or 4 (the study's player counts);
- `rounds_left`: rounds still to play after this one (0 in the last round);
- `placeable`: 1 if the die can be placed as it is, 0 if only a wildcard can save it;
- `wildcards`: circled, unused wildcards the player holds.

A regression tree (CART: each split the one that lowers the squared error most, at most `depth` levels,
at least `min_leaf` points per leaf) over the points of the shipped sheet, every seed and both draws. A
leaf says "contaminate" when its mean effect is positive. The agent `rule:contamination`
(`agents/contamination_rule.py`) plays that rule and the heuristic for everything else.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

FEATURES = ("value", "players", "rounds_left", "placeable", "wildcards")


def features(row: dict) -> list[float]:
    """The tree's inputs of one intervention line (contamination_v2's interventions.jsonl)."""
    return [float(row["value"]), float(row["players"]), float(row["rounds"] - row["round"]),
            1.0 if "place" in row["arms"] else 0.0, float(row["wildcards"])]


def effect(row: dict, outcome: str = "win") -> float | None:
    """Contaminate minus the way of saving the die the point measured (place, else wildcard), on win share
    (`win`) or on points (`margin`: own final score minus the best rival's)."""
    arms = row["arms"]
    other = "place" if "place" in arms else "wildcard" if "wildcard" in arms else None
    if "contaminate" not in arms or other is None:
        return None
    return float(arms["contaminate"][outcome] - arms[other][outcome])


def _leaf(y: np.ndarray) -> dict:
    n = len(y)
    m = float(y.mean())
    half = 1.96 * float(y.std(ddof=1)) / math.sqrt(n) if n > 1 else None
    return {"leaf": True, "n": n, "effect": round(m, 4),
            "ci95": None if half is None else [round(m - half, 4), round(m + half, 4)], "contaminate": m > 0}


def fit_tree(X: np.ndarray, y: np.ndarray, depth: int = 3, min_leaf: int = 20) -> dict:
    """CART regression tree: the split (feature <= threshold, thresholds halfway between observed values)
    that lowers the summed squared error most, recursively, while a node is shallower than `depth` and
    both children keep `min_leaf` points. A node no split improves is a leaf."""
    if depth == 0 or len(y) < 2 * min_leaf:
        return _leaf(y)
    best = None
    total = float(((y - y.mean()) ** 2).sum())
    for j in range(X.shape[1]):
        vals = np.unique(X[:, j])
        for lo, hi in zip(vals, vals[1:]):
            t = (lo + hi) / 2
            left = X[:, j] <= t
            nl = int(left.sum())
            if nl < min_leaf or len(y) - nl < min_leaf:
                continue
            yl, yr = y[left], y[~left]
            sse = float(((yl - yl.mean()) ** 2).sum() + ((yr - yr.mean()) ** 2).sum())
            if best is None or sse < best[0] - 1e-12:
                best = (sse, j, t, left)
    if best is None or best[0] >= total - 1e-12:
        return _leaf(y)
    _, j, t, left = best
    return {"feature": FEATURES[j], "threshold": t, "n": len(y), "effect": round(float(y.mean()), 4),
            "left": fit_tree(X[left], y[left], depth - 1, min_leaf),
            "right": fit_tree(X[~left], y[~left], depth - 1, min_leaf)}


def predict(node: dict, x: dict) -> dict:
    """The leaf of the tree that x (feature name -> value) falls in."""
    while not node.get("leaf"):
        node = node["left"] if x[node["feature"]] <= node["threshold"] else node["right"]
    return node


def describe(node: dict, indent: str = "") -> list[str]:
    """The tree as nested plain-language lines."""
    if node.get("leaf"):
        ci = node["ci95"]
        ci = f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else ""
        return [f"{indent}- **{'contaminate' if node['contaminate'] else 'save it'}** (effect of contaminating "
                f"{node['effect']:+.3f}{ci}, n={node['n']})"]
    f, t = node["feature"], node["threshold"]
    return ([f"{indent}- if {f} <= {t:g}:"] + describe(node["left"], indent + "  ")
            + [f"{indent}- if {f} > {t:g}:"] + describe(node["right"], indent + "  "))


def fit_from_rows(rows: list[dict], sheet: str = "shipped", depth: int = 3, min_leaf: int = 20,
                  outcome: str = "win", seeds: list[int] | None = None) -> dict:
    """The tree over the points of `sheet` (and of `seeds` only, if given: e.g. the whole seeds of a stopped run)."""
    rows = [r for r in rows if r.get("sheet") == sheet and not r.get("none") and effect(r) is not None
            and (seeds is None or r["seed"] in seeds)]
    if not rows:
        raise ValueError(f"no intervention line of sheet {sheet!r}{f' and seeds {seeds}' if seeds else ''} "
                         "with two arms to compare")
    X = np.array([features(r) for r in rows])
    y = np.array([effect(r, outcome) for r in rows])
    return {"features": list(FEATURES), "outcome": outcome, "depth": depth, "min_leaf": min_leaf, "points": len(rows),
            "sheet": sheet, "seeds": sorted({r["seed"] for r in rows}),
            "tree": fit_tree(X, y, depth, min_leaf)}


def _usable(rows: list[dict], sheet: str = "shipped") -> list[dict]:
    return [r for r in rows if r.get("sheet") == sheet and not r.get("none") and effect(r) is not None]


def score(rule: dict, rows: list[dict]) -> dict:
    """How a fitted rule does on points it may not have seen. `gain`: the mean, over the points, of the measured
    effect of contaminating where the rule says contaminate and 0 where it says save (win share per decision
    point, against "always save"), with its 95% t-interval; `gain_points`: the same on points; `r2`: 1 - the
    squared error of the leaves' effects over that of a constant (the rule's own root mean), out of sample."""
    from virus_envs.experiments.studies.contamination_v2 import t_test

    rows = _usable(rows)
    if not rows:
        raise ValueError("no intervention point to score the rule on")
    leaves = [predict(rule["tree"], dict(zip(FEATURES, features(r)))) for r in rows]
    y = np.array([effect(r) for r in rows])
    c = np.array([lf["contaminate"] for lf in leaves])
    pred = np.array([lf["effect"] for lf in leaves])
    root = rule["tree"]["effect"]
    base = float(((y - root) ** 2).sum())
    gain, gain_pts = t_test(y * c), t_test(np.array([effect(r, "margin") for r in rows]) * c)
    seeds = np.array([r["seed"] for r in rows])
    by_seed = {str(s): t_test((y * c)[seeds == s]) for s in sorted(set(seeds.tolist()))}
    return {"points": len(rows), "seeds": sorted({r["seed"] for r in rows}), "contaminate": int(c.sum()),
            "effect_where_contaminate": float(y[c].mean()) if c.any() else None,
            "effect_where_save": float(y[~c].mean()) if (~c).any() else None,
            "gain": gain, "gain_points": gain_pts, "gain_by_seed": by_seed,
            "r2": None if base == 0 else 1 - float(((y - pred) ** 2).sum()) / base}


def unseen(rule: dict, rows: list[dict], src) -> list[dict]:
    """The points of `rows` (read from `src`) a rule was not fitted on: the other seeds' if it was fitted on
    `src`, else every point."""
    if Path(rule.get("source", "")).resolve() != Path(src).resolve():
        return rows
    return [r for r in rows if r["seed"] not in set(rule.get("seeds") or [])]


def leave_one_seed_out(rows: list[dict], depth: int = 3, min_leaf: int = 20, outcome: str = "win") -> list[dict]:
    """For each seed: the tree fitted on the other seeds' points, scored on that seed's (`score`)."""
    rows = _usable(rows)
    out = []
    for s in sorted({r["seed"] for r in rows}):
        rule = fit_from_rows([r for r in rows if r["seed"] != s], depth=depth, min_leaf=min_leaf, outcome=outcome)
        out.append({"held_out": s, "fitted_on": rule["seeds"], "rule": describe(rule["tree"]),
                    **score(rule, [r for r in rows if r["seed"] == s])})
    return out


# -- the command -------------------------------------------------------------------------------------
def add_args(p):
    p.add_argument("--from", dest="source", default="runs/study-contamination-v2/interventions.jsonl",
                   help="the study's interventions.jsonl")
    p.add_argument("--out", default="runs/study-contamination-v2/contamination_rule.json",
                   help="where the fitted rule goes (the agent's default is agents/data/contamination_rule.json)")
    p.add_argument("--seeds", type=int, nargs="+", default=None,
                   help="fit on these seeds' points only (default: every seed in the file)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--min-leaf", dest="min_leaf", type=int, default=20)
    p.add_argument("--outcome", choices=["win", "margin"], default="win",
                   help="the effect the tree predicts: win share (the study's primary outcome) or points")
    p.add_argument("--loso", default=None,
                   help="also write here (JSON) each seed's score by the tree fitted on the other seeds, and the "
                        "scores of --compare's rules on every point")
    p.add_argument("--compare", nargs="*", default=[],
                   help="rule files scored on every point of --from with --loso (e.g. rules fitted elsewhere)")
    p.set_defaults(func=cmd)


def cmd(args, echo=print) -> dict:
    from virus_envs.experiments.studies.contamination_v2 import read_rows

    src = Path(args.source)
    if not src.is_file():
        raise ValueError(f"--from {src}: no such file (run `virus-arena study contamination-v2` first)")
    if args.depth < 1 or args.min_leaf < 1:
        raise ValueError("--depth and --min-leaf must be at least 1")
    rule = fit_from_rows(read_rows(src)[0], depth=args.depth, min_leaf=args.min_leaf, outcome=args.outcome,
                         seeds=getattr(args, "seeds", None))
    rule["source"] = str(src)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rule, indent=1) + "\n")
    echo(f"rule fitted on {rule['points']} intervention points (seeds {rule['seeds']}; effect on {args.outcome}), "
         f"written to {args.out}:")
    for line in describe(rule["tree"]):
        echo(line)
    if getattr(args, "loso", None):
        rows = read_rows(src)[0]
        folds = leave_one_seed_out(rows, depth=args.depth, min_leaf=args.min_leaf, outcome=args.outcome)
        from virus_envs.agents.contamination_rule import load_rule
        compare = {str(f): score(load_rule(f), unseen(load_rule(f), rows, src)) for f in args.compare}
        Path(args.loso).parent.mkdir(parents=True, exist_ok=True)
        Path(args.loso).write_text(json.dumps({"source": str(src), "depth": args.depth, "min_leaf": args.min_leaf,
                                               "outcome": args.outcome, "leave_one_seed_out": folds,
                                               "fitted_in_sample": score(rule, rows),
                                               "compare": compare}, indent=1) + "\n")
        for f in folds:
            g = f["gain"]
            echo(f"held out seed {f['held_out']}: gain {g['mean']:+.3f} [{g['ci95'][0]:+.3f}, {g['ci95'][1]:+.3f}] "
                 f"win share per point over always saving ({f['contaminate']} of {f['points']} contaminated), "
                 f"out-of-sample R2 {f['r2']:+.3f}")
    return rule


def agreement(players: int, games: int, seed: int, spec: str = "rule:contamination") -> dict:
    """Where the rule agent (one seat, heuristics in the others) acts differently from the heuristic: at each of
    its decisions with a choice, the heuristic's action is computed on the same decision."""
    import virus_envs
    from virus_envs import agents

    g = virus_envs.game("roll_write_v0", players)
    rule, plain = agents.make(spec, g), agents.make("heuristic", g)
    out = {"players": players, "games": games, "seed": seed, "decisions": 0, "differ": 0,
           "contaminate_rule": 0, "contaminate_heuristic": 0}
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = g.new_initial_state(seed=int(rng.integers(2**62)))
        line = [rule] + [agents.make("heuristic", g) for _ in range(players - 1)]
        while not s.is_terminal():
            p = s.current_player()
            d = agents.decision_for(s)
            a = int(line[p].act(d))
            if p == 0 and len(d.legal_actions) > 1:
                b = int(plain.act(d))
                out["decisions"] += 1
                out["differ"] += a != b
                out["contaminate_rule"] += bool(g.act_kind[a] == 0 and g.act_b[a] == g.T_CONTAM)
                out["contaminate_heuristic"] += bool(g.act_kind[b] == 0 and g.act_b[b] == g.T_CONTAM)
            s.apply_action(a)
    return out
