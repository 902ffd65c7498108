"""Contamination study, denial (issue 18): does refusing to complete a rival's laboratory card pay?

    virus-arena study contamination-v2 --config configs/studies/contamination_denial.yaml     # the run
    virus-arena study contamination-denial --games 4 --rollouts 1 --out /tmp/deny --docs ''    # a quick look

The first generation (docs/studies/contamination.md, policy parameter `deny`) found that a heuristic which
refuses cheap completions of the laboratory card holding a rival's lone die wins 0.61 of 2-player games
against the plain heuristic. That was a policy comparison: the denying policy differs from the plain one at
many decisions, and what it does instead of completing (another placement, a contamination, keeping a
wildcard) goes with it. Here the same question is a randomised intervention at ONE decision, with the
design of the second generation (experiments/studies/contamination_v2.py):

1. **Where.** A game is played by `base` in every seat. A decision is *eligible* when the player to act
   (a "place a die" decision, no wildcard being spent) may place a die, as it is, in the free slot of a
   laboratory card whose other slot holds a RIVAL's lone die (completing that card: both cross off the sum,
   the rival gets its box and advantage), and has at least one other legal action (another placement, the
   contaminated samples card, a wildcard: the contaminated samples card is always legal, so this always
   holds with the default rules). One eligible decision is drawn uniformly per game (reservoir sampling over
   the playthrough); if two cards qualify there, one is drawn uniformly. Only 2- and 4-player games have
   two-slot cards (with 3 players there is nothing to deny).
2. **What.** Two arms from that position: `complete` (the placement `base` likes best among those that
   complete the card) and `refuse` (the action `base` likes best among all the others; if that is a wildcard,
   the changed die then goes where `base` likes best among the placements that do not complete the card).
   Refusing now does not forbid completing later: the continuation (or, with 4 players, another rival) may
   still complete the card in the same round; each row records how often it did (`completed`). A third arm,
   `deny`, is the denial held through the round: the same first move as `refuse`, and for the rest of that
   round the acting player never completes that card (where its continuation would, it plays its own best
   other move: the search agent's best-valued other action, or the base policy's choice among the others);
   the rivals may still complete it. `refuse - complete` is the one-decision intervention, `deny - complete`
   the denial as the first study's policy meant it, `deny - refuse` what holding it through the round adds.
3. **How it goes on.** Each arm is played to the end by `continuation` in every seat, `rollouts` times, on
   common random numbers: rollout k of both arms reseeds the dice to come and the agents with the same seeds.
   The unit is the intervention point (its rollouts averaged): one per game, so the units are independent.
4. **Outcomes** (per arm, averaged over rollouts): `win`, the acting player's win share (primary); `margin`,
   its final score minus the best rival's; `own`, its final score; `rival`, the final score of the rival
   whose lone die it is; `rival_virus`, that rival's contamination total; `own_wild`, the acting player's
   circled unused wildcards at the end; `completed`, whether the card was completed in that round (read from the
   arm's own move and from the moves that follow in the intervention's round only; an arm whose move was the
   round's last die ends the round, and nothing later counts). Runs before 2026-12-04 03:30 UTC checked "the
   same round" against the round AFTER the arm's move, which is the next round when that move ended the
   round: see the correction on docs/studies/contamination_denial.md.
   A contrast's effect on `own` (what refusing costs oneself) and on `rival` (what it costs the rival)
   separates the two halves of "hurting the rival" (with 2 players the margin is their difference).
5. **Pre-registration.** The hypotheses are written in the config before the run; each seed tests them all
   with Holm's correction (family-wise `alpha`); a finding is a hypothesis rejected on every seed with the
   same sign. The exploratory table (every outcome by player count and phase) has its own Holm correction.

Outputs: `<out>/interventions.jsonl` (one line per game), `<out>/results.json`; with `docs` set, the tables
between the markers of `<docs>/<name>.md`, `<docs>/<name>.json`, the figure `<docs>/<name>.png` and a copy of
the stored lines `<docs>/<name>_interventions.jsonl`.
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import field
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import ConfigDict, Field
from pydantic.dataclasses import dataclass as pydantic_dataclass

GAME = "roll_write_v0"
ARMS = ("complete", "refuse", "deny")
CONTRASTS = ("refuse-complete", "deny-complete", "deny-refuse")
OUTCOMES = ("win", "margin", "own", "rival", "rival_virus", "own_wild", "completed")
TAG = 31
"""keeps this study's random streams apart from the other contamination runs'"""


def markers(name: str) -> tuple[str, str]:
    label = name.replace("_", " ")
    return (f"<!-- {label} tables: start (generated by experiments/studies/contamination_denial.py) -->",
            f"<!-- {label} tables: end -->")


@pydantic_dataclass(config=ConfigDict(extra="forbid"))
class Hypothesis:
    id: str
    statement: str
    contrast: Literal["refuse-complete", "deny-complete", "deny-refuse"] = "refuse-complete"
    outcome: Literal["win", "margin", "own", "rival"] = "win"
    players: list[Annotated[int, Field(ge=2, le=4)]] = field(default_factory=lambda: [2])
    phase: Literal["any", "early", "late"] = "any"


@pydantic_dataclass(config=ConfigDict(extra="forbid"))
class StudyConfig:
    study: Literal["denial"]
    """names this family of the contamination study: `contamination-v2 --config` hands such a file here"""
    players: list[Annotated[int, Field(ge=2, le=4)]] = field(default_factory=lambda: [2, 4])
    seeds: list[Annotated[int, Field(ge=0)]] = field(default_factory=lambda: [101, 202, 303])
    games: dict[int, Annotated[int, Field(ge=1)]] = field(default_factory=lambda: {2: 40, 4: 20})
    """base games per seed, by player count: at most one intervention point each"""
    base: str = "heuristic"
    continuation: str = "expectimax?depth=1"
    rollouts: Annotated[int, Field(ge=1)] = 2
    alpha: Annotated[float, Field(gt=0, lt=1)] = 0.05
    hypotheses: list[Hypothesis] = field(default_factory=list)
    workers: Annotated[int, Field(ge=1)] = 1
    out: str = "runs/study-contamination-denial"
    docs: str = "docs/studies"
    name: str = "contamination_denial"


def is_denial_config(path: str) -> bool:
    """True when the YAML at `path` is a config of this study (top-level `study: denial`)."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("study") == "denial"


def load_config(path: str) -> StudyConfig:
    from virus_envs.experiments import configfile

    cfg = configfile.read(path, StudyConfig)
    if not cfg.hypotheses:
        raise ValueError(f"{path}: key 'hypotheses' must list the pre-registered hypotheses")
    ids = [h.id for h in cfg.hypotheses]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: key 'hypotheses' repeats an id")
    if 3 in cfg.players:
        raise ValueError(f"{path}: key 'players' names 3: with 3 players the laboratory cards have one slot, "
                         "there is nothing to deny")
    if not cfg.players or len(set(cfg.players)) != len(cfg.players):
        raise ValueError(f"{path}: key 'players' must list distinct player counts (2 and/or 4)")
    if set(cfg.games) != set(cfg.players):
        raise ValueError(f"{path}: key 'games' must give a count for each of 'players' {cfg.players}, "
                         f"got {sorted(cfg.games)}")
    if not cfg.name or not all(c.isalnum() or c in "_-" for c in cfg.name):
        raise ValueError(f"{path}: key 'name' must be a file stem (letters, digits, _ and -), got {cfg.name!r}")
    for h in cfg.hypotheses:
        if set(h.players) - set(cfg.players):
            raise ValueError(f"{path}: hypothesis {h.id}: key 'players' names a count not in the config's 'players'")
    return cfg


# -- eligibility and the arms -------------------------------------------------------------------------------
def deny_targets(state) -> list[tuple[int, int, list[int]]]:
    """(free slot j, rival q, completing action ids) for each laboratory card that the player to act may
    complete, with a die as it is, where the card's other slot holds a rival's lone die; [] when the decision
    is not eligible (not a 'place a die' decision, one-slot cards, nothing to complete, or no other action)."""
    from virus_envs.roll_write.game import D_PLACE

    g = state.game
    if state.is_terminal() or g.slots != 2 or state.decision() != D_PLACE:
        return []
    p = state.current_player()
    mask = state.legal_action_mask()
    legal = np.flatnonzero(mask)
    out = []
    for k in range(len(g.lab_cards)):
        a, b = 2 * k, 2 * k + 1
        for held, free in ((a, b), (b, a)):
            if state.lab[held] and not state.lab[free] and state.lab_own[held] != p:
                done = [int(x) for x in legal if g.act_kind[x] == 0 and g.act_b[x] == 4 + free]
                if done and len(done) < len(legal):
                    out.append((free, int(state.lab_own[held]), done))
    return out


def _completes(g, a: int, free: int) -> bool:
    return g.act_kind[a] == 0 and g.act_b[a] == 4 + free


def apply_arm(state, arm: str, free: int, chooser) -> str:
    """Play the arm's first move(s) on `state` in place (free: the slot whose filling completes the card); returns
    the actions' names. `deny` starts as `refuse` (its difference is in the continuation: `play_out`)."""
    from virus_envs.experiments.studies.design import choose

    g = state.game
    legal = [int(a) for a in np.flatnonzero(state.legal_action_mask())]
    if arm == "complete":
        a = choose(chooser, state, [x for x in legal if _completes(g, x, free)])
        state.apply_action(a)
        return g.actions.name(a)
    if arm not in ("refuse", "deny"):
        raise ValueError(f"unknown arm {arm!r}")
    a = choose(chooser, state, [x for x in legal if not _completes(g, x, free)])
    names = [g.actions.name(a)]
    state.apply_action(a)
    if g.act_kind[a] == 1:                      # a wildcard: the changed die must not complete the card either
        legal = [int(x) for x in np.flatnonzero(state.legal_action_mask())]
        b = choose(chooser, state, [x for x in legal if not _completes(g, x, free)])
        names.append(g.actions.name(b))
        state.apply_action(b)
    return ", then ".join(names)


def move_kind(name: str) -> str:
    """What the refusal did instead: 'wildcard', 'contaminate', 'other lab card', 'trial' (from its name)."""
    if name.startswith("wildcard"):
        return "wildcard"
    if name.endswith("contaminated samples"):
        return "contaminate"
    return "trial" if name.endswith("trial") else "other lab card"


def _other_move(agent, state, free: int, fallback) -> int | None:
    """The acting seat's best move that does not complete the card: the best-valued other action of the agent's
    last decision (a search agent's `last`, ties to the lowest id as expectimax breaks them), else `fallback`'s
    choice among the others; None if every legal action completes it."""
    from virus_envs.experiments.studies.design import choose

    g = state.game
    others = [int(a) for a in np.flatnonzero(state.legal_action_mask()) if not _completes(g, int(a), free)]
    if not others:
        return None
    vals = getattr(agent, "last", None)
    if isinstance(vals, dict) and all(a in vals for a in others):
        best = max(vals[a] for a in others)
        return min(a for a in others if vals[a] == best)
    return choose(fallback, state, others)


def play_out(state, specs: list[str], seed: int, free: int, deny_seat: int | None = None, fallback=None,
             round_: int | None = None, completed: bool = False) -> tuple:
    """(final state, card completed in the intervention's round, moves replaced) of `state` played to its end by
    specs[i] in seat i, the dice to come and the agents' seeds from `seed` (the same for every arm: common
    random numbers). `round_`: the intervention's round (None: the state's); after the arm's move the round may
    already be over (its die was the round's last), and then nothing later completes THAT card. `completed`:
    the arm's own move completed it. `deny_seat`: that seat never completes the card in the intervention's
    round (its completing move is replaced by its best other move, `_other_move`)."""
    from virus_envs import agents
    from virus_envs.agents.base import Decision, SearchHandle

    game = state.game
    line = [agents.make(s, game) for s in specs]
    for i, ag in enumerate(line):
        ag.reset(seed=seed * 7 + i)
    r0 = state.rnd if round_ is None else round_
    state._reseed(seed)
    replaced = 0
    while not state.is_terminal():
        p = state.current_player()
        ag = line[p]
        mask = state.legal_action_mask()
        if ag.mask_only:
            d = Decision(p, "", {}, None, mask, game)
        else:
            d = Decision(p, state.phase(), state.view(p), state.observation(p) if ag.reads_observation else None,
                         mask, game, SearchHandle(state, p) if ag.needs_handle else None)
        a = int(ag.act(d))
        if state.rnd == r0 and not completed and _completes(game, a, free):
            if p == deny_seat:
                b = _other_move(ag, state, free, fallback)
                if b is not None:
                    a, replaced = b, replaced + 1
            completed = completed or _completes(game, a, free)
        state.apply_action(a)
    return state, completed, replaced


def one_intervention(task: dict) -> dict | None:
    """One base game, one eligible decision drawn uniformly (reservoir), both arms `rollouts` times. None: no
    eligible decision in that game."""
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from, win_shares
    import virus_envs

    cfg, n, seed, gi = task["cfg"], task["players"], task["seed"], task["game"]
    c0 = time.process_time()
    game = virus_envs.game(GAME, n)
    rng = np.random.default_rng([seed, n, gi, 18, TAG])
    pick = np.random.default_rng([seed, n, gi, 18, TAG + 1])
    state = game.new_initial_state(seed=int(rng.integers(2**62)))
    line = [agents.make(cfg.base, game) for _ in range(n)]
    for i, ag in enumerate(line):
        ag.reset(seed=int(rng.integers(2**62)))
    seen, kept = 0, None

    def probe(st):
        nonlocal seen, kept
        if deny_targets(st):
            seen += 1
            if pick.random() < 1.0 / seen:      # reservoir: uniform among the game's eligible decisions
                kept = st.clone()

    play_from(state, line, before_each=probe)
    if kept is None:
        return None
    at = kept
    targets = deny_targets(at)
    free, q, done = targets[int(rng.integers(len(targets)))]
    p = at.current_player()
    chooser_seed = int(rng.integers(2**62))
    crn = [int(rng.integers(2**62)) for _ in range(cfg.rollouts)]
    row = {"seed": seed, "players": n, "game": gi, "seat": p, "rival": q, "card": game.lab_names[free // 2],
           "round": int(at.rnd) + 1, "rounds": int(game.rounds), "eligible": seen, "cards": len(targets),
           "rival_die": int(at.lab[free ^ 1]), "completions": len(done),
           "own_dice_left": int(sum(at.reserve[p])), "wildcards": int(at.wild[p]), "moves": {}, "arms": {}}
    row["phase"] = "early" if row["round"] <= (row["rounds"] + 1) // 2 else "late"
    specs = [cfg.continuation] * n
    for arm in ARMS:
        chooser = agents.make(cfg.base, game)
        chooser.reset(seed=chooser_seed)
        start = at.clone()
        row["moves"][arm] = apply_arm(start, arm, free, chooser)
        acc = {k: [] for k in OUTCOMES}
        replaced = 0
        for k in range(cfg.rollouts):
            fallback = agents.make(cfg.base, game)
            fallback.reset(seed=crn[k] * 7 + n)
            end, completed, rep = play_out(start.clone(), specs, crn[k], free,
                                           deny_seat=p if arm == "deny" else None, fallback=fallback,
                                           round_=int(at.rnd), completed=arm == "complete")
            replaced += rep
            sc = np.asarray(end.scores(), dtype=float)
            acc["win"].append(win_shares(end.returns(), end.is_truncated())[p])
            acc["margin"].append(float(sc[p] - np.delete(sc, p).max()))
            acc["own"].append(float(sc[p]))
            acc["rival"].append(float(sc[q]))
            acc["rival_virus"].append(float(sum(end.virus[q])))
            acc["own_wild"].append(float(end.wild[p]))
            acc["completed"].append(float(completed))
        row["arms"][arm] = {k: float(np.mean(v)) for k, v in acc.items()}
    row["deny_replaced"] = replaced             # the deny arm's completing moves of the acting seat replaced (all rollouts)
    row["refuse_kind"] = move_kind(row["moves"]["refuse"])
    row["cpu_s"] = round(time.process_time() - c0, 2)
    return row


# -- the analysis ------------------------------------------------------------------------------------------
REFUSALS = ("trial", "other lab card", "contaminate", "wildcard")


def effects(rows: list[dict], contrast: str, outcome: str) -> np.ndarray:
    """arm A - arm B per point (contrast 'A-B')."""
    a, b = contrast.split("-")
    return np.array([r["arms"][a][outcome] - r["arms"][b][outcome] for r in rows
                     if a in r["arms"] and b in r["arms"]], dtype=float)


def in_cell(r: dict, h: Hypothesis) -> bool:
    return r["players"] in h.players and (h.phase == "any" or r["phase"] == h.phase)


def test_hypotheses(rows: list[dict], hyps, alpha: float) -> list[dict]:
    """Each hypothesis: the paired effect of its contrast on its outcome (t-test against 0), and on every outcome
    for the tables; Holm over the list."""
    from virus_envs.experiments.studies.contamination_v2 import holm, t_test

    res = []
    for h in hyps:
        cell = [r for r in rows if in_cell(r, h)]
        res.append({"id": h.id, "statement": h.statement, "contrast": h.contrast, "outcome": h.outcome,
                    "players": list(h.players), "phase": h.phase, "test": t_test(effects(cell, h.contrast, h.outcome)),
                    "all": {k: t_test(effects(cell, h.contrast, k)) for k in OUTCOMES},
                    "arm_means": {a: {k: float(np.mean([r["arms"][a][k] for r in cell])) if cell else None
                                      for k in OUTCOMES} for a in ARMS}})
    for r, rej in zip(res, holm([r["test"]["p"] for r in res], alpha)):
        r["rejected"] = rej
        r["sign"] = 0 if not rej else int(np.sign(r["test"]["mean"]))
    return res


def exploratory(rows: list[dict], alpha: float) -> list[dict]:
    """Every contrast on every outcome, by player count: overall, by phase, and by what the refusal did instead
    (pooled over seeds); Holm over the win-share column of the whole table."""
    from virus_envs.experiments.studies.contamination_v2 import holm, t_test

    cells = []
    for contrast in CONTRASTS:
        for n in sorted({r["players"] for r in rows}):
            at = [r for r in rows if r["players"] == n]
            groups = [("all", "", at)]
            groups += [("phase", ph, [r for r in at if r["phase"] == ph]) for ph in ("early", "late")]
            groups += [("refusal", k, [r for r in at if r.get("refuse_kind") == k]) for k in REFUSALS]
            for fld, v, rs in groups:
                if rs:
                    cells.append({"contrast": contrast, "players": n, "field": fld, "value": v, "n": len(rs),
                                  **{k: t_test(effects(rs, contrast, k)) for k in OUTCOMES}})
    for c, rej in zip(cells, holm([c["win"]["p"] for c in cells], alpha)):
        c["rejected"] = rej
    return cells


def analyse(rows: list[dict], cfg: StudyConfig) -> dict:
    from virus_envs.experiments.studies.contamination_v2 import replicated

    by_seed = {s: test_hypotheses([r for r in rows if r["seed"] == s], cfg.hypotheses, cfg.alpha) for s in cfg.seeds}
    return {"config": {"name": cfg.name, "base": cfg.base, "continuation": cfg.continuation, "rollouts": cfg.rollouts,
                       "seeds": cfg.seeds, "players": cfg.players, "games": {str(k): v for k, v in cfg.games.items()},
                       "alpha": cfg.alpha, "arms": list(ARMS)},
            "interventions": len(rows),
            "points": {f"{s}/{n}": sum(1 for r in rows if r["seed"] == s and r["players"] == n)
                       for s in cfg.seeds for n in cfg.players},
            "refusals": {str(n): {k: sum(1 for r in rows if r["players"] == n and r.get("refuse_kind") == k)
                                  for k in REFUSALS} for n in cfg.players},
            "deny_replaced": {str(n): sum(r.get("deny_replaced", 0) for r in rows if r["players"] == n)
                              for n in cfg.players},
            "cpu_s_per_point": {str(n): round(float(np.mean([r["cpu_s"] for r in rows if r["players"] == n and "cpu_s" in r]
                                                             or [0.0])), 2) for n in cfg.players},
            "by_seed": {str(k): v for k, v in by_seed.items()}, "replicated": replicated(by_seed),
            "exploratory": exploratory(rows, cfg.alpha)}


# -- the run ---------------------------------------------------------------------------------------------
def tasks(cfg: StudyConfig, games: int | None = None) -> list[dict]:
    """Every game, seed by seed (a stopped run keeps whole seeds first), each seed's player counts in order."""
    return [{"cfg": cfg, "players": n, "seed": s, "game": i}
            for s in cfg.seeds for n in cfg.players for i in range(games or cfg.games[n])]


def task_key(t: dict) -> str:
    return f"{t['seed']}/{t['players']}/{t['game']}"


def read_rows(path) -> tuple[list[dict], set[str]]:
    from virus_envs.experiments.studies.progress import read_stored

    return read_stored(path, task_key)


def run_study(cfg: StudyConfig, echo=print, games: int | None = None, resume: bool = False) -> dict:
    """Every game (`resume`: those not yet in <out>/interventions.jsonl), each line stored as it comes."""
    from virus_envs.experiments.studies.progress import map_tasks

    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    todo_all = tasks(cfg, games)
    store = out / "interventions.jsonl"
    done = read_rows(store)[1] if resume and store.is_file() else set()
    todo = [t for t in todo_all if task_key(t) not in done]
    echo(f"contamination denial: {len(todo_all)} games ({len(todo)} to play; seeds {cfg.seeds}, players "
         f"{cfg.players}), base {cfg.base}, continuation {cfg.continuation} in every seat x {cfg.rollouts} "
         f"rollouts per arm, {cfg.workers} workers")
    t0, c0 = time.time(), time.process_time()
    with open(store, "a" if done else "w") as f:
        def each(t, r):
            r = r or {"seed": t["seed"], "players": t["players"], "game": t["game"], "none": True}
            f.write(json.dumps(r) + "\n")
            f.flush()

        map_tasks(one_intervention, todo, cfg.workers, echo, "games", each=each)
    wanted = {task_key(t) for t in todo_all}
    rows = [r for r in read_rows(store)[0] if task_key(r) in wanted]
    res = analyse(rows, cfg)
    before = {"minutes": 0.0, "cpu_minutes": 0.0}   # a resumed run adds the minutes of the runs it goes on from
    if done and (out / "results.json").is_file():
        old = json.loads((out / "results.json").read_text())
        before = {k: float(old.get(k) or 0.0) for k in before}
    res["minutes"] = round(before["minutes"] + (time.time() - t0) / 60, 1)
    res["cpu_minutes"] = round(before["cpu_minutes"] + (time.process_time() - c0) / 60, 1)
    res["games_played"] = len(todo_all)
    res["games_override"] = games
    (out / "results.json").write_text(json.dumps(res, indent=1))
    echo(f"done in {res['minutes']} min ({res['cpu_minutes']} CPU-min in this process): {len(rows)} intervention "
         f"points; written to {out}")
    return res


# -- the docs page -----------------------------------------------------------------------------------------
def fmt(t: dict, digits: int = 3) -> str:
    """A test as the tables print it (the other designed studies' format)."""
    from virus_envs.experiments.studies.design import fmt as design_fmt

    return design_fmt(t, digits)


def tables_markdown(res: dict) -> str:
    c = res["config"]
    seeds = list(res["by_seed"])
    pts = res["points"]
    lines = [f"Base policy `{c['base']}`, continuation `{c['continuation']}` in every seat x {c['rollouts']} rollouts "
             f"per arm on common random numbers; arms {', '.join(c['arms'])}; {res['interventions']} intervention points ("
             + "; ".join(f"{n} players: " + ", ".join(f"seed {s} {pts.get(f'{s}/{n}', 0)}" for s in seeds)
                         + f" of {c['games'][str(n)]} games each" for n in c["players"])
             + f"); Holm at family-wise {c['alpha']} over the hypotheses of each seed.", "",
             "### Pre-registered hypotheses (the contrast's paired effect on the outcome tested, 95% CI, p before Holm)",
             "",
             "| hypothesis | contrast (outcome) | " + " | ".join(f"seed {s}" for s in seeds) + " | replicated |",
             "|---|---|" + "---|" * len(seeds) + "---|"]
    first = res["by_seed"][seeds[0]]
    for i, h in enumerate(first):
        cells = [fmt(res["by_seed"][s][i]["test"]) + (" **rejected**" if res["by_seed"][s][i]["rejected"] else "")
                 for s in seeds]
        lines.append(f"| {h['id']}: {h['statement']} | {h['contrast']} ({h['outcome']}) | " + " | ".join(cells)
                     + f" | {'yes' if h['id'] in res['replicated'] else 'no'} |")
    cells, means = {}, {}                        # hypotheses sharing a contrast and cell (or a cell) share a row
    for i, h in enumerate(first):
        cells.setdefault((h["contrast"], tuple(h["players"]), h["phase"]), []).append(i)
        means.setdefault((tuple(h["players"]), h["phase"]), []).append(i)
    where = lambda players, phase: "+".join(map(str, players)) + "p" + ("" if phase == "any" else f", {phase}")  # noqa: E731
    lines += ["", "Every outcome of each hypothesis's contrast and cell (win share; points margin; own points; the "
                  "rival's points; the rival's contamination; own circled wildcards left; card completed that round):",
              "", "| hypotheses | contrast, cell | seed | " + " | ".join(OUTCOMES) + " |",
              "|---|---|---|" + "---|" * len(OUTCOMES)]
    for (contrast, players, phase), idx in cells.items():
        for s in seeds:
            t = res["by_seed"][s][idx[0]]["all"]
            lines.append(f"| {', '.join(first[i]['id'] for i in idx)} | {contrast}, {where(players, phase)} | {s} | "
                         + " | ".join(fmt(t[k], 2) for k in OUTCOMES) + " |")
    lines += ["", "Arm means in each cell (" + " / ".join(ARMS) + "):", "",
              "| hypotheses | cell | seed | win | own points | rival's points | card completed that round |",
              "|---|---|---|---|---|---|---|"]
    for (players, phase), idx in means.items():
        for s in seeds:
            m = res["by_seed"][s][idx[0]]["arm_means"]
            if m[ARMS[0]]["win"] is None:
                continue
            lines.append(f"| {', '.join(first[i]['id'] for i in idx)} | {where(players, phase)} | {s} | " + " | ".join(
                " / ".join(f"{m[a][k]:.2f}" for a in ARMS) for k in ("win", "own", "rival", "completed")) + " |")
    lines += ["", "What the refusal did instead (the base policy's best non-completing move): "
              + "; ".join(f"{n} players: " + ", ".join(f"{k} {v}" for k, v in d.items())
                          for n, d in res["refusals"].items())
              + ". Completing moves of the acting seat replaced in the `deny` arm's rollouts: "
              + ", ".join(f"{v} ({n} players)" for n, v in res.get("deny_replaced", {}).items()) + ".",
              "", "### Exploratory (seeds pooled; Holm over the win-share column of this whole table)", "",
              "| contrast | players | cell | n | win | margin | own | rival | completed | rejected |",
              "|---|---:|---|---:|---|---|---|---|---|---|"]
    for e in res["exploratory"]:
        cell = "all" if e["field"] == "all" else f"{e['field']} {e['value']}"
        lines.append(f"| {e['contrast']} | {e['players']} | {cell} | {e['n']} | {fmt(e['win'])} | {fmt(e['margin'], 2)} | "
                     f"{fmt(e['own'], 2)} | {fmt(e['rival'], 2)} | {fmt(e['completed'], 2)} | "
                     f"{'yes' if e['rejected'] else ''} |")
    return "\n".join(lines)


def write_docs(res: dict, docs: str, name: str) -> str:
    from virus_envs.experiments.studies.design import write_docs_section

    start, end = markers(name)
    return write_docs_section(tables_markdown(res), str(Path(docs) / f"{name}.md"), start, end)


def plot(res: dict, path: str) -> str:
    """Two panels, one row per hypothesis, one marker per seed: the hypothesis's contrast on win share (left) and on
    points (right: own points, circles; the rival's points, squares), 95% intervals; filled = rejected after
    Holm (on the hypothesis's own outcome)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seeds = list(res["by_seed"])
    hyps = res["by_seed"][seeds[0]]
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 0.6 * len(hyps) + 1.8), sharey=True)
    step = 0.7 / max(1, len(seeds))
    for j, s in enumerate(seeds):
        for i, h in enumerate(res["by_seed"][s]):
            y = i + (j - (len(seeds) - 1) / 2) * step
            for ax, key, marker, dy in ((axes[0], "win", "o", 0.0), (axes[1], "own", "o", -0.05),
                                        (axes[1], "rival", "s", 0.05)):
                t = h["all"][key]
                if t.get("ci95") is None:
                    continue
                filled = h["rejected"] and h["outcome"] == key
                label = None
                if i == 0:
                    label = f"seed {s}" if key == "win" else f"seed {s}: {'own' if key == 'own' else 'rival'}"
                ax.errorbar(t["mean"], y + dy, xerr=[[t["mean"] - t["ci95"][0]], [t["ci95"][1] - t["mean"]]],
                            fmt=marker, color=f"C{j}", ms=4, mfc=f"C{j}" if filled else "white", label=label)
    for ax in axes:
        ax.axvline(0, color="grey", lw=0.8)
    axes[0].set_yticks(range(len(hyps)), [f"{h['id']}: {h['contrast']}, {'+'.join(map(str, h['players']))}p "
                                         f"({h['outcome']})" for h in hyps], fontsize=8)
    axes[0].invert_yaxis()
    axes[0].set_xlabel("paired effect on the acting player's win share")
    axes[1].set_xlabel("paired effect on points (o: own, s: the rival's)")
    axes[0].legend(loc="best", fontsize=7)
    axes[1].legend(loc="best", fontsize=6)
    fig.suptitle("Denying a rival's laboratory completion, per seed, 95% intervals (filled: rejected after Holm "
                 "on the hypothesis's outcome)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# -- the command -------------------------------------------------------------------------------------------
def add_args(p):
    from virus_envs import configs

    p.add_argument("--config", default=configs.path("studies", "contamination_denial.yaml"),
                   help="study YAML (default: the shipped configs/studies/contamination_denial.yaml)")
    p.add_argument("--games", type=int, default=None, help="games per seed and player count (override)")
    p.add_argument("--rollouts", type=int, default=None, help="rollouts per arm (override)")
    p.add_argument("--continuation", default=None, help="agent spec playing the branches out (override)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--docs", default=None, help="docs folder whose <name>.md gets the tables ('' = none)")
    p.add_argument("--resume", action="store_true",
                   help="play only the games not yet in <out>/interventions.jsonl (a stopped run goes on)")
    p.set_defaults(func=cmd)


def cmd(args, echo=print) -> dict:
    import dataclasses

    import virus_envs
    from virus_envs import agents

    cfg = load_config(args.config)
    for key in ("rollouts", "continuation", "workers", "out", "docs"):
        v = getattr(args, key, None)
        if v is not None:
            cfg = dataclasses.replace(cfg, **{key: v})
    if args.games is not None and args.games < 1:
        raise ValueError("--games must be at least 1")
    g = virus_envs.game(GAME, cfg.players[0])
    for spec in (cfg.base, cfg.continuation):
        agents.make(spec, g)                     # a bad spec is named before any game
    res = run_study(cfg, echo, games=args.games, resume=getattr(args, "resume", False))
    if cfg.docs:
        docs = Path(cfg.docs)
        echo(f"tables written to {write_docs(res, str(docs), cfg.name)}")
        (docs / f"{cfg.name}.json").write_text(json.dumps(res, indent=1))
        shutil.copyfile(Path(cfg.out) / "interventions.jsonl", docs / f"{cfg.name}_interventions.jsonl")
        echo(f"figure {plot(res, str(docs / f'{cfg.name}.png'))}")
    return res
