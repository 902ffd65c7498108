"""What the randomised-intervention studies of issue 18 share (Virus & Co, VIRUS!): hypotheses, arms on
common random numbers, the tests, the tables, the forest plot.

A study plays games with its `base` policy in every seat. Each *family* of interventions has its eligible
decisions (e.g. "a circulating virus reaches a player who may keep it or pay"); per game and family ONE
eligible decision is drawn uniformly at random: the intervention point. From it every *arm* (e.g. `keep`,
`pay`) is forced and the game played to its end by `continuation` in every seat, `rollouts` times. Rollout k
of every arm starts from the same sampled world (`determinize` of the acting seat: the hidden cards drawn once
for rollout k, consistent with what that seat knows) with the same future chance and the same agent seeds, so
the arms differ only by the intervention and what follows from it (common random numbers). The unit of
analysis is the intervention point (rollouts averaged): one per game and family, so units are independent.

Outcomes: primary, the acting seat's win share (1 for a sole win, 1/k for a k-way tie, 0 otherwise);
secondary, points (own final total minus the best rival's). A hypothesis names a family, a contrast `A-B`
(arm A minus arm B, paired per point), a cell (row fields and their allowed values), an outcome and an
offset (the value the mean is tested against, 0 unless said). Holm per replication seed; a hypothesis is
a headline only when rejected on every seed with the same sign (`contamination_v2.replicated`).
"""
from __future__ import annotations

import json
import time
from dataclasses import field
from pathlib import Path
from typing import Annotated, Literal, Union

import numpy as np
from pydantic import ConfigDict, Field
from pydantic.dataclasses import dataclass as pydantic_dataclass

from virus_envs.experiments.studies.contamination_v2 import holm, replicated, t_test

__all__ = ["Hypothesis", "StudyConfig", "load_config", "play_arms", "in_cell", "effects", "test_hypotheses",
           "exploratory", "analyse", "run_study", "tables_markdown", "write_docs", "plot", "holm", "t_test",
           "replicated", "draw", "choose", "run_command", "add_common_args", "plot_cells"]

Cell = Union[int, str]


@pydantic_dataclass(config=ConfigDict(extra="forbid"))
class Hypothesis:
    id: str
    statement: str
    family: str
    contrast: str
    """'A-B': arm A minus arm B, paired per intervention point"""
    where: dict[str, list[Cell]] = field(default_factory=dict)
    """the cell: row field -> allowed values (all must match); {} = every point of the family"""
    outcome: Literal["win", "margin"] = "win"
    offset: float = 0.0
    """the mean effect is tested against this value (e.g. a pill's face value in points)"""


@pydantic_dataclass(config=ConfigDict(extra="forbid"))
class StudyConfig:
    players: list[Annotated[int, Field(ge=2, le=6)]] = field(default_factory=lambda: [4])
    seeds: list[Annotated[int, Field(ge=0)]] = field(default_factory=lambda: [101, 202, 303])
    games: Annotated[int, Field(ge=1)] = 100
    """games per seed and player count: one intervention point per family each"""
    base: str = "heuristic"
    """plays up to the intervention point in every seat, and chooses how an arm is carried out"""
    continuation: str = "heuristic"
    """plays every arm to the end, in every seat"""
    rollouts: Annotated[int, Field(ge=1)] = 4
    families: list[str] = field(default_factory=list)
    """the families of interventions to run ([] = all of the study's)"""
    alpha: Annotated[float, Field(gt=0, lt=1)] = 0.05
    hypotheses: list[Hypothesis] = field(default_factory=list)
    workers: Annotated[int, Field(ge=1)] = 1
    out: str = "runs/study"
    docs: str = "docs/studies"
    check: dict = field(default_factory=dict)
    """the search check: {acting, games, rollouts, families, seeds} of a smaller run where the acting seat
    plays the search agent `acting` after the intervention (the others `continuation`), tested on the
    hypotheses of those families"""


def check_hypothesis_ids(path: str, hyps: list) -> None:
    """A study's config must list its pre-registered hypotheses, each id once."""
    if not hyps:
        raise ValueError(f"{path}: key 'hypotheses' must list the pre-registered hypotheses")
    ids = [h.id for h in hyps]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: key 'hypotheses' repeats an id")


def load_config(path: str, known_families: dict) -> StudyConfig:
    from virus_envs.experiments import configfile

    cfg = configfile.read(path, StudyConfig)
    check_hypothesis_ids(path, cfg.hypotheses)
    for f in cfg.families:
        if f not in known_families:
            raise ValueError(f"{path}: key 'families': unknown family {f!r} (known: {', '.join(known_families)})")
    for h in cfg.hypotheses:
        if h.family not in known_families:
            raise ValueError(f"{path}: hypothesis {h.id}: unknown family {h.family!r}")
        arms = known_families[h.family]
        parts = h.contrast.split("-")
        if len(parts) != 2 or not all(a in arms for a in parts):
            raise ValueError(f"{path}: hypothesis {h.id}: contrast {h.contrast!r} must be 'A-B' with arms of "
                             f"{h.family}: {', '.join(arms)}")
    extra = set(cfg.check) - {"acting", "games", "rollouts", "families", "seeds"}
    if cfg.check and "acting" not in cfg.check:
        raise ValueError(f"{path}: key 'check' needs 'acting' (the search agent's spec)")
    if extra:
        raise ValueError(f"{path}: key 'check': unknown key(s) {', '.join(sorted(extra))}")
    return cfg


def draw(rng, items: list):
    """One of items, uniformly (None if there is none)."""
    return items[int(rng.integers(len(items)))] if items else None


# -- the arms ------------------------------------------------------------------------------------------
def choose(chooser, state, allowed) -> int:
    """The action `chooser` (an agent) picks at `state` when only the legal actions in `allowed` are offered."""
    from virus_envs.agents.base import Decision, SearchHandle

    mask = state.legal_action_mask()
    m = np.zeros_like(mask)
    for a in allowed:
        if mask[a]:
            m[a] = True
    if not m.any():
        raise ValueError("choose: none of the allowed actions is legal")
    p = state.current_player()
    d = Decision(p, state.phase(), state.view(p), state.observation(p) if chooser.reads_observation else None, m,
                 state.game, SearchHandle(state, p) if chooser.needs_handle else None)
    return int(chooser.act(d))


def play_arms(at, seat: int, arms: dict, continuation: str, rollouts: int, rng, acting: str = "") -> dict:
    """Each arm from position `at` (the acting seat `seat`), `rollouts` times on common random numbers.

    `arms`: name -> function(state) applying the arm's forced move(s) to the state in place, returning False
    when the arm is not available there. `acting` (if not ''): the policy of the acting seat in the continuation
    (the others play `continuation`). Returns name -> {"win": mean win share, "margin": mean points margin}
    for the available arms."""
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from, win_shares

    game = at.game
    n = game.num_players
    seeds = [[int(x) for x in rng.integers(2**62, size=3)] for _ in range(rollouts)]
    worlds = [at.determinize(seat, np.random.default_rng(s[0])) for s in seeds]
    out = {}
    for name, apply in arms.items():
        wins, margins = [], []
        for k, w in enumerate(worlds):
            c = w.clone()
            if apply(c) is False:
                break
            c._reseed(seeds[k][1])                  # the chance to come: the same for every arm
            line = [agents.make(acting if acting and i == seat else continuation, game) for i in range(n)]
            for i, ag in enumerate(line):
                ag.reset(seed=seeds[k][2] * 7 + i)
            end = play_from(c, line)[0]
            wins.append(win_shares(end.returns(), end.is_truncated())[seat])
            sc = np.asarray(end.scores(), dtype=float)
            margins.append(float(sc[seat] - np.delete(sc, seat).max()))
        else:
            out[name] = {"win": float(np.mean(wins)), "margin": float(np.mean(margins))}
    return out


def one_game(task: dict, game_id: str, tag: int, eligible, arms_and_cell) -> list[dict]:
    """Play one game with the base policy; per family one eligible decision drawn uniformly (reservoir
    sampling over the playthrough), then every arm from it. One row per family with an eligible decision.

    `eligible(state, family)`; `arms_and_cell(state, family, chooser, rng) -> (arms, cell)` (arms as for
    `play_arms`, the cell's fields). `tag` keeps each study's random streams apart."""
    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from

    cfg, n, seed, gi, fams = task["cfg"], task["players"], task["seed"], task["game"], task["families"]
    game = virus_envs.game(game_id, n)
    rng = np.random.default_rng([seed, n, gi, 18, tag])
    state = game.new_initial_state(seed=int(rng.integers(2**62)))
    line = [agents.make(cfg.base, game) for _ in range(n)]
    for i, ag in enumerate(line):
        ag.reset(seed=int(rng.integers(2**62)))
    pick = {f: np.random.default_rng([seed, n, gi, 18, tag + 1, k]) for k, f in enumerate(fams)}
    seen = {f: 0 for f in fams}
    kept = {f: None for f in fams}

    def probe(st):
        for f in fams:
            if eligible(st, f):
                seen[f] += 1
                if pick[f].random() < 1.0 / seen[f]:        # reservoir: uniform among the eligible decisions
                    kept[f] = st.clone()

    play_from(state, line, before_each=probe)
    rows = []
    for k, f in enumerate(fams):
        at = kept[f]
        if at is None:
            continue
        p = at.current_player()
        chooser = agents.make(cfg.base, game)
        chooser.reset(seed=int(rng.integers(2**62)))
        arms, cell = arms_and_cell(at, f, chooser, rng)
        res = play_arms(at, p, arms, cfg.continuation, task["rollouts"],
                        np.random.default_rng([seed, n, gi, 18, tag + 2, k]), acting=task.get("acting", ""))
        rows.append({"seed": seed, "players": n, "game": gi, "family": f, "seat": p, "eligible": seen[f],
                     "cell": cell, "arms": res})
    return rows


# -- the analysis --------------------------------------------------------------------------------------
def in_cell(r: dict, h: Hypothesis) -> bool:
    return r["family"] == h.family and all(r["cell"].get(k) in vals for k, vals in h.where.items())


def effects(rows: list[dict], contrast: str, outcome: str = "win") -> np.ndarray:
    a, b = contrast.split("-")
    return np.array([r["arms"][a][outcome] - r["arms"][b][outcome] for r in rows
                     if a in r["arms"] and b in r["arms"]], dtype=float)


def test_hypotheses(rows: list[dict], hyps, alpha: float) -> list[dict]:
    """Every hypothesis on these rows: the paired effect on its outcome against its offset (t-test), and the
    win share and points effects for the table; Holm over the whole list."""
    res = []
    for h in hyps:
        cell = [r for r in rows if in_cell(r, h)]
        t = t_test(effects(cell, h.contrast, h.outcome) - h.offset)
        if t["mean"] is not None:
            t["mean"] += h.offset
            if t["ci95"] is not None:
                t["ci95"] = [t["ci95"][0] + h.offset, t["ci95"][1] + h.offset]
        res.append({"id": h.id, "statement": h.statement, "family": h.family, "contrast": h.contrast,
                    "outcome": h.outcome, "offset": h.offset, "test": t,
                    "win": t_test(effects(cell, h.contrast, "win")),
                    "points": t_test(effects(cell, h.contrast, "margin"))})
    for r, rej in zip(res, holm([r["test"]["p"] for r in res], alpha)):
        r["rejected"] = rej
        r["sign"] = 0 if not rej else int(np.sign(r["test"]["mean"] - r["offset"]))
    return res


def exploratory(rows: list[dict], families: dict, alpha: float) -> list[dict]:
    """Every family's contrasts, overall and by each cell field's values one at a time (win share; Holm over
    the whole table). `families`: name -> (contrasts, cell fields)."""
    cells = []
    for fam, (contrasts, dims) in families.items():
        sub = [r for r in rows if r["family"] == fam]
        for contrast in contrasts:
            groups = [("all", "", sub)]
            for d in dims:
                for v in sorted({r["cell"].get(d) for r in sub}, key=str):
                    groups.append((d, v, [r for r in sub if r["cell"].get(d) == v]))
            for d, v, rs in groups:
                t = t_test(effects(rs, contrast))
                if t["n"]:
                    cells.append({"family": fam, "contrast": contrast, "field": d, "value": v, "win": t,
                                  "points": t_test(effects(rs, contrast, "margin"))})
    for c, rej in zip(cells, holm([c["win"]["p"] for c in cells], alpha)):
        c["rejected"] = rej
    return cells


def analyse(rows: list[dict], cfg: StudyConfig, families: dict, check_rows: list[dict] | None = None) -> dict:
    by_seed = {s: test_hypotheses([r for r in rows if r["seed"] == s], cfg.hypotheses, cfg.alpha)
               for s in cfg.seeds}
    out = {"config": {"base": cfg.base, "continuation": cfg.continuation, "rollouts": cfg.rollouts,
                      "seeds": cfg.seeds, "players": cfg.players, "alpha": cfg.alpha},
           "interventions": len(rows),
           "points_per_family": {f: sum(1 for r in rows if r["family"] == f) for f in families},
           "by_seed": {str(k): v for k, v in by_seed.items()}, "replicated": replicated(by_seed),
           "exploratory": exploratory(rows, families, cfg.alpha)}
    if check_rows is not None:
        ck = cfg.check
        hyps = [h for h in cfg.hypotheses if h.family in ck.get("families", list(families))]
        seeds = ck.get("seeds", cfg.seeds[:1])
        out["check"] = {"acting": ck["acting"], "rollouts": ck.get("rollouts", cfg.rollouts),
                        "games": ck.get("games"), "interventions": len(check_rows),
                        "by_seed": {str(s): test_hypotheses([r for r in check_rows if r["seed"] == s], hyps,
                                                            cfg.alpha) for s in seeds}}
    return out


# -- the run -------------------------------------------------------------------------------------------
def run_study(cfg: StudyConfig, one_game, name: str, families: dict, echo=print, games: int | None = None,
              check: bool = True) -> dict:
    """Every (seed, player count, game) through `one_game(task) -> list of rows`; then the search check
    (if configured and `check`); writes <out>/interventions.jsonl and <out>/results.json."""
    from virus_envs.experiments.studies.progress import map_tasks

    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    fams = cfg.families or list(families)
    g = games or cfg.games
    tasks = [{"cfg": cfg, "players": n, "seed": s, "game": i, "families": fams, "acting": "",
              "rollouts": cfg.rollouts} for s in cfg.seeds for n in cfg.players for i in range(g)]
    echo(f"{name}: {len(tasks)} games (seeds {cfg.seeds}, players {cfg.players}), families {', '.join(fams)}; "
         f"base {cfg.base}, continuation {cfg.continuation} x {cfg.rollouts} rollouts per arm, {cfg.workers} workers")
    t0 = time.time()
    rows = [r for rs in map_tasks(one_game, tasks, cfg.workers, echo, "games") for r in rs]
    check_rows = None
    if check and cfg.check:
        ck = cfg.check
        cg = min(int(ck.get("games", g)), g) if games else int(ck.get("games", g))
        ctasks = [{"cfg": cfg, "players": n, "seed": s, "game": i, "families": ck.get("families", fams),
                   "acting": ck["acting"], "rollouts": int(ck.get("rollouts", cfg.rollouts))}
                  for s in ck.get("seeds", cfg.seeds[:1]) for n in cfg.players for i in range(cg)]
        echo(f"search check: {len(ctasks)} games, the acting seat continued by {ck['acting']}")
        check_rows = [r for rs in map_tasks(one_game, ctasks, cfg.workers, echo, "games") for r in rs]
    with open(out / "interventions.jsonl", "w") as f:
        for r in rows + [dict(r, check=True) for r in (check_rows or [])]:
            f.write(json.dumps(r) + "\n")
    res = analyse(rows, cfg, {k: v for k, v in families.items() if k in fams}, check_rows)
    res["minutes"] = round((time.time() - t0) / 60, 1)
    res["games"] = g
    (out / "results.json").write_text(json.dumps(res, indent=1))
    echo(f"done in {res['minutes']} min: {len(rows)} intervention points; written to {out}")
    return res


def add_common_args(p, config: str, page: str) -> None:
    """The options every study of this shape takes."""
    p.add_argument("--config", default=config, help=f"study YAML (default: the shipped {config})")
    p.add_argument("--games", type=int, default=None, help="games per seed and player count (override)")
    p.add_argument("--seeds", type=int, nargs="+", default=None, help="replication seeds (override)")
    p.add_argument("--rollouts", type=int, default=None, help="rollouts per arm (override)")
    p.add_argument("--continuation", default=None, help="agent spec playing the arms out (override)")
    p.add_argument("--no-check", action="store_true", help="skip the search check of the config")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--docs", default=None, help=f"docs folder whose {page} gets the tables ('' = none)")


def run_command(args, echo, game_id, name, families, explore, one_game_fn, start, end, title, picks=()) -> dict:
    """The study command shared by the studies of this shape: config, overrides, the run, the docs."""
    import dataclasses

    import virus_envs
    from virus_envs import agents

    cfg = load_config(args.config, families)
    for key in ("rollouts", "continuation", "workers", "out", "docs", "seeds"):
        v = getattr(args, key, None)
        if v is not None:
            cfg = dataclasses.replace(cfg, **{key: v})
    if args.games is not None and args.games < 1:
        raise ValueError("--games must be at least 1")
    g = virus_envs.game(game_id, cfg.players[0])
    for spec in (cfg.base, cfg.continuation) + ((cfg.check["acting"],) if cfg.check else ()):
        agents.make(spec, g)                      # a bad spec is named before any game
    res = run_study(cfg, one_game_fn, name, explore, echo, games=args.games, check=not args.no_check)
    if cfg.docs:
        docs = Path(cfg.docs)
        echo(f"tables written to {write_docs(res, str(docs / f'{name}.md'), start, end)}")
        (docs / f"{name}.json").write_text(json.dumps(res, indent=1))
        echo(f"figure {plot(res, str(docs / f'{name}.png'), title)}")
        if picks:
            echo(f"figure {plot_cells(res, list(picks), str(docs / f'{name}_cells.png'))}")
    return res


# -- the docs page -------------------------------------------------------------------------------------
def fmt(t: dict, digits: int = 3) -> str:
    if not t or t.get("mean") is None:
        return "n/a"
    if t.get("ci95") is None:
        return f"{t['mean']:+.{digits}f} (n={t['n']})"
    return (f"{t['mean']:+.{digits}f} [{t['ci95'][0]:+.{digits}f}, {t['ci95'][1]:+.{digits}f}] "
            f"(n={t['n']}, p={t['p']:.2g})")


def _hyp_table(by_seed: dict, replicated_ids: list | None) -> list[str]:
    seeds = list(by_seed)
    lines = ["| hypothesis | contrast (outcome) | " + " | ".join(f"seed {s}" for s in seeds)
             + (" | replicated |" if replicated_ids is not None else " |"),
             "|---|---|" + "---|" * len(seeds) + ("---|" if replicated_ids is not None else "")]
    first = by_seed[seeds[0]]
    for i, h in enumerate(first):
        cells = []
        for s in seeds:
            t = by_seed[s][i]
            cells.append(fmt(t["test"]) + (" **rejected**" if t["rejected"] else ""))
        test = h["outcome"] + (f", against {h['offset']:+g}" if h["offset"] else "")
        lines.append(f"| {h['id']}: {h['statement']} | {h['contrast']} ({test}) | " + " | ".join(cells)
                     + (f" | {'yes' if h['id'] in replicated_ids else 'no'} |" if replicated_ids is not None
                        else " |"))
    return lines


def tables_markdown(res: dict) -> str:
    c = res["config"]
    seeds = list(res["by_seed"])
    lines = [f"Base policy `{c['base']}`, continuation `{c['continuation']}` x {c['rollouts']} rollouts per arm on "
             f"common random numbers; {res['interventions']} intervention points ({res.get('games')} games per seed "
             f"and player count, players {c['players']}: "
             + ", ".join(f"{k} {v}" for k, v in res["points_per_family"].items())
             + f"); seeds {', '.join(seeds)}; Holm at family-wise {c['alpha']} per seed.", "",
             "### Pre-registered hypotheses (the effect tested, its 95% CI, p before Holm)", ""]
    lines += _hyp_table(res["by_seed"], res["replicated"])
    lines += ["", "Both outcomes of every hypothesis (win share; points), same cells:", "",
              "| hypothesis | " + " | ".join(f"seed {s}: win; points" for s in seeds) + " |",
              "|---|" + "---|" * len(seeds)]
    for i, h in enumerate(res["by_seed"][seeds[0]]):
        lines.append(f"| {h['id']} | " + " | ".join(f"{fmt(res['by_seed'][s][i]['win'])}; "
                                                    f"{fmt(res['by_seed'][s][i]['points'], 2)}" for s in seeds) + " |")
    if res.get("check"):
        ck = res["check"]
        lines += ["", f"### Search check: the acting seat continued by `{ck['acting']}`, the others by "
                      f"`{c['continuation']}`, x {ck['rollouts']} rollouts "
                      f"({ck['interventions']} intervention points, {ck['games']} games per seed; Holm over "
                      "these hypotheses)", ""]
        lines += _hyp_table(ck["by_seed"], None)
    lines += ["", "### Exploratory: every contrast, overall and by each cell field (pooled over seeds; win share; "
                  "Holm over this whole table)", "",
              "| family | contrast | field | value | win share [95% CI] | points [95% CI] | rejected |",
              "|---|---|---|---|---|---|---|"]
    for e in res["exploratory"]:
        lines.append(f"| {e['family']} | {e['contrast']} | {e['field']} | {e['value']} | {fmt(e['win'])} | "
                     f"{fmt(e['points'], 2)} | {'yes' if e['rejected'] else ''} |")
    return "\n".join(lines)


def write_docs(res: dict, path: str, start: str, end: str) -> str:
    """Replace the text between the markers `start` and `end` of the page `path` by the tables."""
    p = Path(path)
    text = p.read_text() if p.is_file() else ""
    if start not in text or end not in text:
        raise ValueError(f"{p}: the markers of the generated tables are missing ({start})")
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    p.write_text(head + start + "\n" + tables_markdown(res) + "\n" + end + tail)
    return str(p)


def plot_cells(res: dict, picks: list, path: str) -> str:
    """The exploratory cells of `picks` ([family, field] pairs; field 'all' = every contrast of the family
    overall): each contrast's paired effect on win share, 95% interval, filled when rejected after Holm."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = [c for fam, fld in picks for c in res["exploratory"]
             if c["family"] == fam and c["field"] == fld and c["win"].get("ci95")]
    labels = [f"{c['family']}: {c['contrast']}" + (f", {c['field']} {c['value']}" if c["field"] != "all" else "")
              for c in cells]
    fig, ax = plt.subplots(figsize=(7.5, 0.28 * len(cells) + 1.3))
    for i, c in enumerate(cells):
        m, (lo, hi) = c["win"]["mean"], c["win"]["ci95"]
        ax.errorbar(m, i, xerr=[[m - lo], [hi - m]], fmt="o", ms=4, color="C0", mfc="C0" if c["rejected"] else "white")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(cells)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("effect on win share, seeds pooled (filled: rejected after Holm)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plot(res: dict, path: str, title: str = "") -> str:
    """Forest plot: each pre-registered hypothesis, each seed's tested effect with its 95% interval
    (filled: rejected after Holm)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seeds = list(res["by_seed"])
    hyps = res["by_seed"][seeds[0]]
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(hyps) + 1.4))
    for j, s in enumerate(seeds):
        for i, h in enumerate(res["by_seed"][s]):
            t = h["test"]
            if t.get("ci95") is None or h["outcome"] != "win":
                continue
            y = i + (j - (len(seeds) - 1) / 2) * 0.22
            ax.errorbar(t["mean"], y, xerr=[[t["mean"] - t["ci95"][0]], [t["ci95"][1] - t["mean"]]], fmt="o",
                        color=f"C{j}", ms=4, label=f"seed {s}" if i == 0 else None,
                        mfc=f"C{j}" if h["rejected"] else "white")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(hyps)), [f"{h['id']} ({h['contrast']})" + ("" if h["outcome"] == "win" else ": points")
                                     for h in hyps])
    ax.invert_yaxis()
    ax.set_xlabel("paired effect on the acting seat's win share (filled: rejected after Holm)")
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
