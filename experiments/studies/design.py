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
           "replicated", "draw", "choose", "run_command", "add_common_args", "plot_cells", "Stratum", "study_tasks",
           "read_rows", "write_docs_section", "finish_forest"]

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
    stratum: str = ""
    """'' = tested on the uniform draw's points; else the id of a stratum of the config, whose points it is
    tested on (its estimate is then conditional on that stratum)"""


@pydantic_dataclass(config=ConfigDict(extra="forbid"))
class Stratum:
    """Decisions sampled on purpose: a cell too rare in the uniform draw to answer its hypotheses. A stratum's
    games are other base games than the uniform draw's; in each, ONE decision of `family` matching `where` is
    drawn uniformly among those of the playthrough (the study module says which `where` keys it knows)."""
    id: str
    family: str
    where: dict[str, list[Cell]] = field(default_factory=dict)
    games: Annotated[int, Field(ge=1)] = 100
    """base games per seed and player count (each gives at most one point)"""
    players: list[Annotated[int, Field(ge=2, le=6)]] = field(default_factory=list)
    """the player counts it is sampled at ([] = the config's)"""


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
    acting: str = ""
    """the acting seat's policy in the continuation ('' = `continuation`, as every other seat)"""
    families: list[str] = field(default_factory=list)
    """the families of interventions to run ([] = all of the study's)"""
    alpha: Annotated[float, Field(gt=0, lt=1)] = 0.05
    hypotheses: list[Hypothesis] = field(default_factory=list)
    strata: list[Stratum] = field(default_factory=list)
    """pre-registered strata of rare decisions, sampled besides the uniform draw"""
    workers: Annotated[int, Field(ge=1)] = 1
    out: str = "runs/study"
    docs: str = "docs/studies"
    name: str = ""
    """the run's name on the docs side: <docs>/<name>.md (its tables between the study's markers), <name>.json
    and the figures <name>.png, <name>_cells.png ('' = the study's own name)"""
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


def load_config(path: str, known_families: dict, strata_keys: dict | None = None) -> StudyConfig:
    """The study's config; `strata_keys`: family -> {`where` key a stratum of it may use: its allowed values}
    (the study module's; None or {} = the study has no strata)."""
    from virus_envs.experiments import configfile

    cfg = configfile.read(path, StudyConfig)
    check_hypothesis_ids(path, cfg.hypotheses)
    _check_strata(path, cfg, known_families, strata_keys or {})
    if cfg.name and not all(ch.isalnum() or ch in "_-" for ch in cfg.name):
        raise ValueError(f"{path}: key 'name' must be letters, digits, '_' or '-' (it names files), not {cfg.name!r}")
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


def _check_strata(path: str, cfg: StudyConfig, known_families: dict, strata_keys: dict) -> None:
    if cfg.strata and not strata_keys:
        raise ValueError(f"{path}: key 'strata': this study samples no strata")
    ids = [st.id for st in cfg.strata]
    if len(set(ids)) != len(ids) or "" in ids:
        raise ValueError(f"{path}: key 'strata' repeats an id or has an empty one")
    for st in cfg.strata:
        if st.family not in known_families:
            raise ValueError(f"{path}: stratum {st.id}: unknown family {st.family!r}")
        known = strata_keys.get(st.family, {})
        bad = sorted(set(st.where) - set(known))
        if bad:
            raise ValueError(f"{path}: stratum {st.id}: key 'where' has {', '.join(bad)}, not a stratum key of "
                             f"{st.family} (known: {', '.join(sorted(known)) or 'none'})")
        for k, vals in st.where.items():
            odd = [v for v in vals if v not in known[k]]
            if odd or not vals:
                raise ValueError(f"{path}: stratum {st.id}: key 'where.{k}' must list values among "
                                 f"{', '.join(map(str, known[k]))}" + (f" (not {odd[0]!r})" if odd else ""))
        if set(st.players) - set(cfg.players):
            raise ValueError(f"{path}: stratum {st.id}: key 'players' names a count not in the config's 'players'")
    fam = {st.id: st.family for st in cfg.strata}
    for h in cfg.hypotheses:
        if h.stratum and fam.get(h.stratum) != h.family:
            raise ValueError(f"{path}: hypothesis {h.id}: key 'stratum' names {h.stratum!r}, not a stratum of "
                             f"family {h.family}")


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
    `play_arms`, the cell's fields). `tag` keeps each study's random streams apart.

    A task with a `stratum` plays other games (its id is in the seeds) and draws only among the decisions of the
    stratum's family that `eligible(state, family, where)` accepts; its arms come from
    `arms_and_cell(state, family, chooser, rng, where)`."""
    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from

    cfg, n, seed, gi, fams = task["cfg"], task["players"], task["seed"], task["game"], task["families"]
    stratum = task.get("stratum")
    where = (stratum.where,) if stratum else ()
    sx = [int.from_bytes(stratum.id.encode()[:8], "little") % 2**32, 1] if stratum else []
    game = virus_envs.game(game_id, n)
    rng = np.random.default_rng([seed, n, gi, 18, tag] + sx)
    state = game.new_initial_state(seed=int(rng.integers(2**62)))
    line = [agents.make(cfg.base, game) for _ in range(n)]
    for i, ag in enumerate(line):
        ag.reset(seed=int(rng.integers(2**62)))
    pick = {f: np.random.default_rng([seed, n, gi, 18, tag + 1, k] + sx) for k, f in enumerate(fams)}
    seen = {f: 0 for f in fams}
    kept = {f: None for f in fams}

    def probe(st):
        for f in fams:
            if eligible(st, f, *where):
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
        arms, cell = arms_and_cell(at, f, chooser, rng, *where)
        res = play_arms(at, p, arms, cfg.continuation, task["rollouts"],
                        np.random.default_rng([seed, n, gi, 18, tag + 2, k] + sx), acting=task.get("acting", ""))
        rows.append({"seed": seed, "players": n, "game": gi, "family": f, "stratum": stratum.id if stratum else "",
                     "seat": p, "eligible": seen[f], "cell": cell, "arms": res})
    return rows


# -- the analysis --------------------------------------------------------------------------------------
def in_cell(r: dict, h: Hypothesis) -> bool:
    """The point is of the hypothesis's family, draw (uniform or its stratum) and cell."""
    return (r["family"] == h.family and r.get("stratum", "") == h.stratum
            and all(r["cell"].get(k) in vals for k, vals in h.where.items()))


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
                    "stratum": h.stratum, "outcome": h.outcome, "offset": h.offset, "test": t,
                    "win": t_test(effects(cell, h.contrast, "win")),
                    "points": t_test(effects(cell, h.contrast, "margin"))})
    for r, rej in zip(res, holm([r["test"]["p"] for r in res], alpha)):
        r["rejected"] = rej
        r["sign"] = 0 if not rej else int(np.sign(r["test"]["mean"] - r["offset"]))
    return res


def exploratory(rows: list[dict], families: dict, alpha: float) -> list[dict]:
    """Every family's contrasts, overall and by each cell field's values one at a time (win share; Holm over
    the whole table), on the uniform draw's points; then each stratum's points as a whole (field 'stratum').
    `families`: name -> (contrasts, cell fields)."""
    cells = []
    for fam, (contrasts, dims) in families.items():
        sub = [r for r in rows if r["family"] == fam and not r.get("stratum")]
        strata = sorted({r["stratum"] for r in rows if r["family"] == fam and r.get("stratum")})
        for contrast in contrasts:
            groups = [("all", "", sub)]
            for d in dims:
                for v in sorted({r["cell"].get(d) for r in sub}, key=str):
                    groups.append((d, v, [r for r in sub if r["cell"].get(d) == v]))
            for sid in strata:
                groups.append(("stratum", sid, [r for r in rows if r["family"] == fam and r.get("stratum") == sid]))
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
    out = {"config": {"base": cfg.base, "continuation": cfg.continuation, "acting": cfg.acting,
                      "rollouts": cfg.rollouts, "seeds": cfg.seeds, "players": cfg.players, "alpha": cfg.alpha},
           "interventions": len(rows),
           "points_per_family": {f: sum(1 for r in rows if r["family"] == f and not r.get("stratum"))
                                 for f in families},
           "points_per_stratum": {st.id: sum(1 for r in rows if r.get("stratum") == st.id) for st in cfg.strata},
           "by_seed": {str(k): v for k, v in by_seed.items()}, "replicated": replicated(by_seed),
           "exploratory": exploratory(rows, families, cfg.alpha)}
    if check_rows is not None:
        ck = cfg.check
        hyps = [h for h in cfg.hypotheses if h.family in ck.get("families", list(families)) and not h.stratum]
        seeds = ck.get("seeds", cfg.seeds[:1])
        out["check"] = {"acting": ck["acting"], "rollouts": ck.get("rollouts", cfg.rollouts),
                        "games": ck.get("games"), "interventions": len(check_rows),
                        "by_seed": {str(s): test_hypotheses([r for r in check_rows if r["seed"] == s], hyps,
                                                            cfg.alpha) for s in seeds}}
    return out


# -- the run -------------------------------------------------------------------------------------------
def study_tasks(cfg: StudyConfig, families: list, games: int | None = None, check: bool = True) -> list[dict]:
    """Every game of the run, in order: the uniform draw (seeds x player counts x games), each stratum's games,
    then the search check's. `games` overrides the per-seed counts (a stratum's too, and caps the check's)."""
    g = games or cfg.games
    tasks = [{"cfg": cfg, "players": n, "seed": s, "game": i, "families": families, "acting": cfg.acting,
              "rollouts": cfg.rollouts, "stratum": None, "check": False}
             for s in cfg.seeds for n in cfg.players for i in range(g)]
    for st in cfg.strata:
        k = games or st.games
        tasks += [{"cfg": cfg, "players": n, "seed": s, "game": i, "families": [st.family], "acting": cfg.acting,
                   "rollouts": cfg.rollouts, "stratum": st, "check": False}
                  for s in cfg.seeds for n in (st.players or cfg.players) for i in range(k)]
    if check and cfg.check:
        ck = cfg.check
        cg = min(int(ck.get("games", g)), g) if games else int(ck.get("games", g))
        tasks += [{"cfg": cfg, "players": n, "seed": s, "game": i, "families": ck.get("families", families),
                   "acting": ck["acting"], "rollouts": int(ck.get("rollouts", cfg.rollouts)), "stratum": None,
                   "check": True}
                  for s in ck.get("seeds", cfg.seeds[:1]) for n in cfg.players for i in range(cg)]
    return tasks


def task_key(t: dict) -> str:
    """The identity of a task, and of the lines it leaves in interventions.jsonl."""
    st = t["stratum"].id if t.get("stratum") else ""
    return f"{'check' if t.get('check') else 'main'}/{st}/{t['seed']}/{t['players']}/{t['game']}"


def row_key(r: dict) -> str:
    return f"{'check' if r.get('check') else 'main'}/{r.get('stratum', '')}/{r['seed']}/{r['players']}/{r['game']}"


def read_rows(path) -> tuple[list[dict], set[str]]:
    """(intervention rows, keys of every finished game) of an interventions.jsonl, a stopped run's included."""
    from virus_envs.experiments.studies.progress import read_stored

    return read_stored(path, row_key)


def run_study(cfg: StudyConfig, one_game, name: str, families: dict, echo=print, games: int | None = None,
              check: bool = True, resume: bool = False) -> dict:
    """Every game through `one_game(task) -> list of rows`, each game's lines stored as it ends in
    <out>/interventions.jsonl (`resume`: only the games not yet there are played); then <out>/results.json."""
    from virus_envs.experiments.studies.progress import map_tasks

    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    fams = cfg.families or list(families)
    tasks = study_tasks(cfg, fams, games, check)
    store = out / "interventions.jsonl"
    done = read_rows(store)[1] if resume and store.is_file() else set()
    todo = [t for t in tasks if task_key(t) not in done]
    cont = cfg.continuation + (f" (others; acting seat {cfg.acting})" if cfg.acting else "")
    echo(f"{name}: {len(tasks)} games ({len(todo)} to play; seeds {cfg.seeds}, players {cfg.players}, strata "
         f"{[st.id for st in cfg.strata] or 'none'}), families {', '.join(fams)}; base {cfg.base}, continuation "
         f"{cont} x {cfg.rollouts} rollouts per arm, {cfg.workers} workers")
    t0 = time.time()
    with open(store, "a" if done else "w") as f:
        def each(t, rs):
            lines = [dict(r, check=True) if t["check"] else r for r in rs] or [
                {"seed": t["seed"], "players": t["players"], "game": t["game"],
                 "stratum": t["stratum"].id if t["stratum"] else "", "check": t["check"], "none": True}]
            for r in lines:
                f.write(json.dumps(r) + "\n")
            f.flush()

        map_tasks(one_game, todo, cfg.workers, echo, "games", each=each)
    wanted = {task_key(t) for t in tasks}
    stored = [r for r in read_rows(store)[0] if row_key(r) in wanted]
    rows = [r for r in stored if not r.get("check")]
    check_rows = [r for r in stored if r.get("check")] if check and cfg.check else None
    res = analyse(rows, cfg, {k: v for k, v in families.items() if k in fams}, check_rows)
    before = 0.0                               # a resumed run adds the minutes of the runs it goes on from
    if done and (out / "results.json").is_file():
        before = float(json.loads((out / "results.json").read_text()).get("minutes") or 0.0)
    res["minutes"] = round(before + (time.time() - t0) / 60, 1)
    res["games"] = games or cfg.games
    res["strata_games"] = {st.id: games or st.games for st in cfg.strata}
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
    p.add_argument("--acting", default=None, help="agent spec of the acting seat in the continuation (override)")
    p.add_argument("--resume", action="store_true",
                   help="play only the games not yet in <out>/interventions.jsonl (a stopped run goes on)")
    p.add_argument("--no-check", action="store_true", help="skip the search check of the config")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--docs", default=None, help=f"docs folder whose {page} gets the tables ('' = none)")


def run_command(args, echo, game_id, name, families, explore, one_game_fn, start, end, title, picks=(),
                strata_keys: dict | None = None) -> dict:
    """The study command shared by the studies of this shape: config, overrides, the run, the docs."""
    import dataclasses

    import virus_envs
    from virus_envs import agents

    cfg = load_config(args.config, families, strata_keys)
    for key in ("rollouts", "continuation", "acting", "workers", "out", "docs", "seeds"):
        v = getattr(args, key, None)
        if v is not None:
            cfg = dataclasses.replace(cfg, **{key: v})
    if args.games is not None and args.games < 1:
        raise ValueError("--games must be at least 1")
    g = virus_envs.game(game_id, cfg.players[0])
    for spec in (cfg.base, cfg.continuation, cfg.acting or cfg.continuation) + ((cfg.check["acting"],) if cfg.check else ()):
        agents.make(spec, g)                      # a bad spec is named before any game
    res = run_study(cfg, one_game_fn, name, explore, echo, games=args.games, check=not args.no_check,
                    resume=getattr(args, "resume", False))
    name = cfg.name or name
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
        where = f" (stratum {h['stratum']})" if h.get("stratum") else ""
        lines.append(f"| {h['id']}: {h['statement']}{where} | {h['contrast']} ({test}) | " + " | ".join(cells)
                     + (f" | {'yes' if h['id'] in replicated_ids else 'no'} |" if replicated_ids is not None
                        else " |"))
    return lines


def tables_markdown(res: dict) -> str:
    c = res["config"]
    seeds = list(res["by_seed"])
    acting = f" (the acting seat: `{c['acting']}`)" if c.get("acting") else ""
    lines = [f"Base policy `{c['base']}`, continuation `{c['continuation']}`{acting} x {c['rollouts']} rollouts per arm on "
             f"common random numbers; {res['interventions']} intervention points ({res.get('games')} games per seed "
             f"and player count, players {c['players']}: "
             + ", ".join(f"{k} {v}" for k, v in res["points_per_family"].items())
             + "".join(f"; stratum {k}: {v} points of {res.get('strata_games', {}).get(k, '?')} games per seed and "
                       "player count" for k, v in res.get("points_per_stratum", {}).items())
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
    return write_docs_section(tables_markdown(res), path, start, end)


def write_docs_section(body: str, path: str, start: str, end: str) -> str:
    """Replace the text between the markers `start` and `end` of the page `path` by `body`."""
    p = Path(path)
    text = p.read_text() if p.is_file() else ""
    if start not in text or end not in text:
        raise ValueError(f"{p}: the markers of the generated tables are missing ({start})")
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    p.write_text(head + start + "\n" + body + "\n" + end + tail)
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
    return finish_forest(fig, ax, [f"{h['id']} ({h['contrast']})" + ("" if h["outcome"] == "win" else ": points")
                                   for h in hyps],
                         "paired effect on the acting seat's win share (filled: rejected after Holm)", title, path)


def finish_forest(fig, ax, labels: list, xlabel: str, title: str, path: str, legend_size: int = 8) -> str:
    """The common end of a forest plot: the zero line, one row per label (top down), axis text, legend, saved."""
    import matplotlib.pyplot as plt

    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=legend_size)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plot_replication(runs: list, ids: list, path: str, title: str = "") -> str:
    """Forest plot of a confirmatory run beside the run it checks: for each hypothesis id (one row), each run's
    per-seed tested effect with its 95% interval (colour: the run, filled: rejected after Holm in that run).

    runs: [(label, res), ...], the results of `run` (e.g. a second generation's and its confirmatory rerun)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = []                                       # (row, label, seed, test, rejected)
    for label, res in runs:
        for seed, hyps in res["by_seed"].items():
            for h in hyps:
                if h["id"] in ids and h["outcome"] == "win" and h["test"].get("ci95") is not None:
                    points.append((ids.index(h["id"]), label, seed, h["test"], h["rejected"]))
    if not points:
        raise ValueError(f"none of the hypotheses {ids} has a tested win-share effect in these runs")
    fig, ax = plt.subplots(figsize=(9, 0.9 * len(ids) + 1.8))
    per_row = {}
    for row, *_ in points:
        per_row[row] = per_row.get(row, 0) + 1
    seen_row, shown = {}, set()
    for row, label, seed, t, rejected in points:
        k = seen_row.get(row, 0)
        seen_row[row] = k + 1
        y = row + (k - (per_row[row] - 1) / 2) * (0.7 / max(1, per_row[row]))
        colour = f"C{[lab for lab, _ in runs].index(label)}"
        ax.errorbar(t["mean"], y, xerr=[[t["mean"] - t["ci95"][0]], [t["ci95"][1] - t["mean"]]], fmt="o",
                    color=colour, ms=4, mfc=colour if rejected else "white",
                    label=label if label not in shown else None)
        ax.annotate(f"seed {seed}", (t["ci95"][1], y), xytext=(3, -3), textcoords="offset points", fontsize=6)
        shown.add(label)
    import textwrap

    stmt = {h["id"]: h["statement"] for _, res in runs for hyps in res["by_seed"].values() for h in hyps}
    xs = [v for _, _, _, t, _ in points for v in t["ci95"]]
    ax.set_xlim(min(xs + [0]) - 0.02, max(xs + [0]) + 0.06)      # room for the seed labels
    return finish_forest(fig, ax, ["\n".join(textwrap.wrap(f"{i}: {stmt.get(i, '')}", 26)) for i in ids],
                         "paired effect on the acting seat's win share\n(filled: rejected after Holm in its run)",
                         title, path, legend_size=7)
