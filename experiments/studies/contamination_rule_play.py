"""The contamination rule as a player (issue 18): paired games of `rule:contamination` against the heuristic
it is built on, in the same seat, on the same deals, against the search agent and against the heuristic.

    virus-arena study contamination-rule-play --config configs/studies/contamination_rule_play.yaml [--resume]

Each cell is (player count, opponent). The deals of a player count are drawn from
`default_rng(seed + players)` (the same deals against each opponent), and each is played once with the
focal agent in each seat in turn (duplicate, rotated seating), the opponent in the other seats; every
seat's agent is reseeded from the deal (`arena.play_game`), so the dice and the rivals come from the same
seeds whatever the focal seat plays (identical games up to the first decision where the rule chooses otherwise).

In each game the control (`heuristic`) plays the focal seat; at each of its decisions every rule agent of
the config is asked too (each its own copy, reseeded like the control). A rule agent that chooses the same
action at every decision of that game would have played the very same game (same deal, same rivals, same
seeds, and its own state moved the same way), so its outcome is the control's; a rule agent that chooses
otherwise at some decision has its game played in full. The unit of analysis is the deal: the mean over
its seatings of (rule's win share - control's win share); the test is a one-sample t-test per cell and
rule, with Holm's correction over every cell and rule of the config (family-wise `alpha`).

Each game is appended to `<out>/games.jsonl` as it ends, so a stopped run resumes (`--resume`) and keeps
its games; the cells are played in `rounds` rounds that advance every cell together, so a run stopped at
its deadline has whole deals in every cell. `<out>/results.json` holds the analysis; with `docs` set, it is
copied to `<docs>/contamination_rule_play.json`, the table goes between the markers of
`<docs>/contamination_v2.md` and the forest plot to `<docs>/contamination_rule_play.png`.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import yaml

GAME = "roll_write_v0"
START, END = "<!-- contamination rule play: start", "<!-- contamination rule play: end -->"
KEYS = {"name", "players", "opponents", "control", "rules", "seed", "deals", "rounds", "alpha", "out", "docs",
        "deadline_utc"}


def load_config(path: str) -> dict:
    """The config, checked: unknown or missing keys are named."""
    cfg = yaml.safe_load(Path(path).read_text())
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: not a mapping")
    for k in cfg:
        if k not in KEYS:
            raise ValueError(f"{path}: unknown key {k!r} (known: {', '.join(sorted(KEYS))})")
    for k in ("players", "opponents", "control", "rules", "seed", "deals"):
        if k not in cfg:
            raise ValueError(f"{path}: key {k!r} is missing")
    if not isinstance(cfg["rules"], dict) or not cfg["rules"]:
        raise ValueError(f"{path}: key 'rules' must map a short name to an agent spec")
    for o in cfg["opponents"]:
        for p in cfg["players"]:
            n = (cfg["deals"].get(o) or {}).get(p) if isinstance(cfg["deals"], dict) else None
            if not isinstance(n, int) or n < 1:
                raise ValueError(f"{path}: key 'deals' needs a number of deals for opponent {o!r} and {p} players")
    cfg.setdefault("rounds", 10)
    cfg.setdefault("alpha", 0.05)
    cfg.setdefault("out", "runs/study-contamination-rule-play")
    cfg.setdefault("docs", None)
    cfg.setdefault("deadline_utc", None)
    return cfg


def deals(players: int, seed: int, n: int) -> list[int]:
    rng = np.random.default_rng(seed + players)
    return [int(rng.integers(0, 2**62)) for _ in range(n)]


def _margin(scores, seat: int) -> float:
    return float(scores[seat] - max(s for i, s in enumerate(scores) if i != seat))


def play_paired(game, control: str, rules: dict, opponent: str, deal: int, seat: int) -> dict:
    """One seating of one deal: the control's game, and each rule's outcome (its own game if it chose
    otherwise at some decision, else the control's)."""
    from virus_envs import agents
    from virus_envs.experiments.arena import play_match, win_shares

    n = game.num_players
    seed = (deal * 7919 + seat) % (2**63)
    shadows = {k: agents.make(spec, game) for k, spec in rules.items()}
    for a in shadows.values():
        a.reset(seed=seed)
    differ = {k: None for k in rules}
    focal = agents.make(control, game)
    act, k_dec = focal.act, [0]

    def watched(decision):
        a = act(decision)
        if len(decision.legal_actions) > 1:
            for k, sh in shadows.items():
                if differ[k] is None and int(sh.act(decision)) != int(a):
                    differ[k] = k_dec[0]
            k_dec[0] += 1
        return a

    focal.act = watched

    def one(agent):
        line = [agents.make(opponent, game) for _ in range(n)]
        line[seat] = agent
        o = play_match(game, line, deal)
        return {"win": float(win_shares(o.returns, o.truncated, o.sides)[seat]), "margin": _margin(o.scores, seat)}

    c0 = time.process_time()
    rec = {"deal": deal, "seat": seat, "control": one(focal), "decisions": k_dec[0], "rules": {}}
    for k, spec in rules.items():
        if differ[k] is None:
            rec["rules"][k] = {**rec["control"], "differs_at": None}
        else:
            rec["rules"][k] = {**one(agents.make(spec, game)), "differs_at": differ[k]}
    rec["cpu"] = round(time.process_time() - c0, 3)
    return rec


def _done(path: Path) -> dict:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["players"], r["opponent"], r["deal_index"], r["seat"])] = r
    return done


def run(cfg: dict, resume: bool = False, echo=print, deadline: float | None = None) -> list[dict]:
    """Play the cells in `rounds` rounds, each a tenth (say) of every cell's deals, so that all cells advance
    together; stop before a deal once `deadline` (epoch seconds) has passed, keeping whole deals."""
    import virus_envs

    out = Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    if path.exists() and not resume:
        raise ValueError(f"{path} exists: use --resume to go on with it, or another 'out'")
    done = _done(path)
    games = {p: virus_envs.game(GAME, p) for p in cfg["players"]}
    R = cfg["rounds"]
    for rnd in range(R):
        for p in cfg["players"]:
            for opp in cfg["opponents"]:
                ds = deals(p, cfg["seed"], cfg["deals"][opp][p])
                for i in range(len(ds) * rnd // R, len(ds) * (rnd + 1) // R):
                    if deadline is not None and time.time() > deadline:
                        echo(f"deadline reached: stopped before deal {i} of {p} players against {opp}")
                        return list(_done(path).values())
                    for seat in range(p):
                        if (p, opp, i, seat) in done:
                            continue
                        rec = {"players": p, "opponent": opp, "deal_index": i,
                               **play_paired(games[p], cfg["control"], cfg["rules"], opp, ds[i], seat)}
                        with path.open("a") as f:
                            f.write(json.dumps(rec) + "\n")
                        done[(p, opp, i, seat)] = rec
                    echo(f"{time.strftime('%H:%M:%S')} {p}p vs {opp}: deal {i} done")
    return list(done.values())


def _sign_p(better: int, worse: int) -> float | None:
    """Exact two-sided sign test of the deals where the rule and the control differ (a check of the t-test
    where most deals are ties), not the pre-registered test."""
    from scipy.stats import binomtest

    return float(binomtest(better, better + worse).pvalue) if better + worse else None


def analyse(rows: list[dict], cfg: dict) -> dict:
    """Per cell and rule: win rates, the paired effect per deal (whole deals only), Holm over every cell and rule."""
    from virus_envs.experiments.arena import wilson
    from virus_envs.experiments.studies.contamination_v2 import holm, t_test

    cells = []
    for p in cfg["players"]:
        for opp in cfg["opponents"]:
            by_deal: dict = {}
            for r in rows:
                if r["players"] == p and r["opponent"] == opp:
                    by_deal.setdefault(r["deal_index"], []).append(r)
            whole = [v for _, v in sorted(by_deal.items()) if len(v) == p]
            games = [g for v in whole for g in v]
            ctrl = sum(g["control"]["win"] for g in games)
            for k, spec in cfg["rules"].items():
                won = sum(g["rules"][k]["win"] for g in games)
                d = np.array([np.mean([g["rules"][k]["win"] - g["control"]["win"] for g in v]) for v in whole])
                dm = np.array([np.mean([g["rules"][k]["margin"] - g["control"]["margin"] for g in v]) for v in whole])
                cells.append({"players": p, "opponent": opp, "rule": k, "spec": spec, "deals": len(whole),
                              "games": len(games), "baseline": 1 / p,
                              "rule_win": won / len(games) if games else None,
                              "rule_ci95": list(wilson(won, len(games))),
                              "control_win": ctrl / len(games) if games else None,
                              "control_ci95": list(wilson(ctrl, len(games))),
                              "games_differ": sum(g["rules"][k]["differs_at"] is not None for g in games),
                              "deals_better": int((d > 0).sum()), "deals_worse": int((d < 0).sum()),
                              "sign_p": _sign_p(int((d > 0).sum()), int((d < 0).sum())),
                              "effect": t_test(d), "points": t_test(dm)})
    for c, rej in zip(cells, holm([c["effect"]["p"] for c in cells], cfg["alpha"])):
        c["rejected"] = rej
    cpu = sum(r["cpu"] for r in rows)
    return {"name": cfg.get("name"), "control": cfg["control"], "rules": cfg["rules"], "seed": cfg["seed"],
            "alpha": cfg["alpha"], "cpu_seconds": round(cpu, 1), "cells": cells}


def _f(x, ci=None, d=3):
    return "n/a" if x is None else f"{x:.{d}f}" + (f" [{ci[0]:.{d}f}, {ci[1]:.{d}f}]" if ci else "")


def table(res: dict) -> str:
    lines = ["| rule | players | opponent | deals (games) | games where the rule chose otherwise | rule's win rate "
             "[95% Wilson] | control's (`" + res["control"] + "`) | rule - control per deal [95% t] | p | Holm | "
             "deals better / worse (sign test p) |",
             "|---|---:|---|---|---:|---|---|---|---|---|---|"]
    for c in res["cells"]:
        e = c["effect"]
        eff = "n/a" if e["mean"] is None else f"{e['mean']:+.3f}" + (
            f" [{e['ci95'][0]:+.3f}, {e['ci95'][1]:+.3f}]" if e["ci95"] else "")
        p = "n/a" if e["p"] is None else f"{e['p']:.3g}"
        lines.append(f"| {c['rule']} | {c['players']} | `{c['opponent']}` | {c['deals']} ({c['games']}) | "
                     f"{c['games_differ']} | {_f(c['rule_win'], c['rule_ci95'])} | "
                     f"{_f(c['control_win'], c['control_ci95'])} | {eff} | {p} | "
                     f"{'**rejected**' if c['rejected'] else 'not rejected'} | {c['deals_better']} / "
                     f"{c['deals_worse']} ({'n/a' if c['sign_p'] is None else format(c['sign_p'], '.2g')}) |")
    return "\n".join(lines)


def write_docs(res: dict, page: Path) -> None:
    text = page.read_text()
    if START not in text or END not in text:
        raise ValueError(f"{page}: the markers of the rule-play table are missing")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + START + " (generated by experiments/studies/contamination_rule_play.py) -->\n"
                    + table(res) + "\n" + END + tail)


def plot(res: dict, path: str) -> str:
    """Forest plot: each cell's paired effect (rule - control, win share per deal), 95% t-interval, one colour
    per rule (filled: rejected after Holm)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = [c for c in res["cells"] if c["effect"]["ci95"]]
    rules = list(res["rules"])
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(cells) + 1.4))
    for i, c in enumerate(cells):
        m, (lo, hi) = c["effect"]["mean"], c["effect"]["ci95"]
        col = f"C{rules.index(c['rule'])}"
        ax.errorbar(m, i, xerr=[[m - lo], [hi - m]], fmt="o", ms=4, color=col, mfc=col if c["rejected"] else "white")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(cells)), [f"{c['rule']}: {c['players']}p vs {c['opponent']} ({c['deals']} deals)"
                                      for c in cells], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"rule - {res['control']} in the same seat, win share per deal\n(filled: rejected after Holm)",
                  fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# -- the command -------------------------------------------------------------------------------------
def add_args(p):
    p.add_argument("--config", default="configs/studies/contamination_rule_play.yaml")
    p.add_argument("--resume", action="store_true", help="go on with the games already in <out>/games.jsonl")
    p.add_argument("--analyse-only", dest="analyse_only", action="store_true",
                   help="play nothing: analyse the games in <out>/games.jsonl")
    p.add_argument("--out", default=None, help="overrides the config's 'out'")
    p.set_defaults(func=cmd)


def cmd(args, echo=print) -> dict:
    import calendar

    cfg = load_config(args.config)
    if args.out:
        cfg["out"] = args.out
    deadline = None
    if cfg["deadline_utc"]:
        deadline = calendar.timegm(time.strptime(str(cfg["deadline_utc"]), "%Y-%m-%d %H:%M"))
    if args.analyse_only:
        rows = list(_done(Path(cfg["out"]) / "games.jsonl").values())
    else:
        rows = run(cfg, resume=args.resume, echo=echo, deadline=deadline)
    res = analyse(rows, cfg)
    Path(cfg["out"], "results.json").write_text(json.dumps(res, indent=1) + "\n")
    if cfg["docs"]:
        Path(cfg["docs"], "contamination_rule_play.json").write_text(json.dumps(res, indent=1) + "\n")
        write_docs(res, Path(cfg["docs"]) / "contamination_v2.md")
        plot(res, str(Path(cfg["docs"]) / "contamination_rule_play.png"))
    echo(table(res))
    return res
