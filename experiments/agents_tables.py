"""The tables of the agents documentation (docs/agents.md, docs/agents/*.md), printed from the stored results.

    python -m virus_envs.experiments.agents_tables --list              # every table: name, page, files it reads
    python -m virus_envs.experiments.agents_tables NAME [NAME ...]     # the Markdown of those tables
    python -m virus_envs.experiments.agents_tables --check             # every page's table against its command

No game is played: a table is read from the stored files (docs/results/*.json, docs/studies/*.json) and printed
as its page has it, with the formatting of the module that wrote the file where it has one (`seed_report`,
`crossplay`, `best_response`, `model_compare`). On its page a table follows a line
"Reproduce: `python -m virus_envs.experiments.agents_tables NAME`"; tests/learned/test_agents_tables.py checks
that every such table equals this command's output, so a page edited by hand or a stored file changed without its
page fails. A table whose figures exist only in a run's log (no stored file) is not printed here: its page says
"from the run's log, no stored file". A few figures inside printed tables are typed too (a row of
`baselines_summary`, some scores and CPU figures of docs/agents/strength.md): `--list` and the table's Reproduce
line name them (`LOG_ROWS`). The strength and search pages' tables are templates over stored eval rows,
experiments/search_tables.py.

Errors are one line naming the file and, for a missing field, the field (`runs[0].val_games`).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Callable

from virus_envs.experiments.search_tables import TABLES as SEARCH_TABLES, TYPED as SEARCH_TYPED

#: the checkout: docs/ sits beside experiments/
ROOT = Path(__file__).resolve().parents[1]
COMMAND = "python -m virus_envs.experiments.agents_tables"


class TableError(ValueError):
    """A table cannot be printed: an unknown name, a missing or bad stored file, a missing field."""


# -- stored files, read with the path of every field --------------------------------------------------------------
class _Dict(dict):
    """A JSON object that names its file and its own path when a field is missing."""

    def __init__(self, items, file: str, path: str):
        super().__init__(items)
        self._file, self._path = file, path

    def __missing__(self, key):
        raise TableError(f"{self._file}: field {self._path + ('.' if self._path else '') + str(key)!r} missing")


class _List(list):
    def __init__(self, items, file: str, path: str):
        super().__init__(items)
        self._file, self._path = file, path

    def __getitem__(self, i):
        try:
            return super().__getitem__(i)
        except IndexError:
            raise TableError(f"{self._file}: field '{self._path}[{i}]' missing") from None


def _wrap(x, file: str, path: str = ""):
    if isinstance(x, dict):
        return _Dict({k: _wrap(v, file, f"{path}.{k}" if path else str(k)) for k, v in x.items()}, file, path)
    if isinstance(x, list):
        return _List([_wrap(v, file, f"{path}[{i}]") for i, v in enumerate(x)], file, path)
    return x


def load(rel: str, root: Path = ROOT):
    """A stored JSON file (path relative to the checkout), its objects naming their fields in errors."""
    path = Path(root) / rel
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise TableError(f"{rel}: not found") from None
    try:
        return _wrap(json.loads(text), rel)
    except json.JSONDecodeError as e:
        raise TableError(f"{rel}: not JSON ({e.msg}, line {e.lineno})") from None


# -- the registry ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    name: str
    page: str                       # the page it stands on, relative to the checkout
    files: tuple                    # the stored files it reads, relative to the checkout
    render: Callable                # render(*loaded files) -> Markdown
    about: str = ""


TABLES: dict[str, Table] = {}
#: figures of a table that no stored file holds (typed from a run's log), by table
LOG_ROWS: dict[str, str] = {}


def table(name: str, page: str, *files: str, about: str = ""):
    def register(fn):
        if name in TABLES:
            raise ValueError(f"table {name!r} registered twice")
        TABLES[name] = Table(name, page, files, fn, about)
        return fn
    return register


def render(name: str, root: Path = ROOT) -> str:
    """The Markdown of one table (ending with a newline)."""
    t = TABLES.get(name)
    if t is None:
        raise TableError(f"unknown table {name!r} (`{COMMAND} --list` shows the {len(TABLES)} known)")
    data = [load(f, root) for f in t.files]
    try:
        text = t.render(*data)
    except (TypeError, ValueError, AttributeError) as e:
        if isinstance(e, TableError):
            raise
        raise TableError(f"{', '.join(t.files)}: a field holds a value of the wrong kind ({e})") from None
    return text if text.endswith("\n") else text + "\n"


def page_table(name: str, root: Path = ROOT) -> str:
    """The table on its page: the lines starting with '|' right after the line naming this table's command."""
    t = TABLES[name]
    lines = (Path(root) / t.page).read_text().split("\n")
    mark = f"`{COMMAND} {name}`"
    at = [i for i, line in enumerate(lines) if mark in line]
    if len(at) != 1:
        raise TableError(f"{t.page}: {len(at)} lines name {mark} (expected one, just above the table)")
    i = at[0] + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    rows = []
    while i < len(lines) and lines[i].startswith("|"):
        rows.append(lines[i])
        i += 1
    if not rows:
        raise TableError(f"{t.page}: no table right below the line naming {mark}")
    return "\n".join(rows) + "\n"


def nth_table(markdown: str, k: int) -> str:
    """The k-th table (0-based) of a text holding several."""
    blocks, cur = [], []
    for line in markdown.split("\n") + [""]:
        if line.startswith("|"):
            cur.append(line)
        elif cur:
            blocks.append("\n".join(cur) + "\n")
            cur = []
    return blocks[k]


def half_up(x: float, digits: int) -> str:
    """x rounded half up at `digits` decimals as it reads (0.695 -> 0.70, where '.2f' gives 0.69), as the pages
    typed from counts."""
    return str(Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _game(env_id: str, n: int) -> str:
    from virus_envs.experiments.search_figures import _NAMES

    return f"{_NAMES[env_id]} {n}p"


# -- docs/agents/baselines.md -------------------------------------------------------------------------------------
def _beats(r: dict, n: int) -> str:
    base = 1 / n
    lo, hi = r["ci95"]
    if lo > base:
        return "yes, clearly"
    if hi < base:
        return f"no (below, interval under 1/{n})"
    return f"no (below, interval contains 1/{n})" if r["win_rate"] < base else f"not shown (interval contains 1/{n})"


@table("baselines_summary", "docs/agents/baselines.md", "docs/results/virus_cards_seeds.json",
       "docs/results/virus_cards_4p_seeds.json", "docs/results/virus_co_seeds.json",
       "docs/results/roll_write_shipped_test.json", "docs/results/virus_co_shipped_test.json",
       about="the shipped models on the test deals against random and heuristic")
def baselines_summary(vc2, vc4, co, rw, co_test):
    from virus_envs.experiments.seed_report import cell

    def shipped(seeds):
        run = next(r for r in seeds["runs"] if r["seed"] == seeds["shipped_seed"])
        return run["test"]

    def means(seeds, what):
        sp = seeds["spread"]
        return f"{what}: mean {sp['random']['mean']:.3f} and {sp['heuristic']['mean']:.3f}"

    rw_test = {r["opponent"]: r for e in rw["evaluations"] if e["name"] == "test" for r in e["rows"]}
    rows = [("VIRUS!", 2, shipped(vc2), means(vc2, "the three seeds")),
            ("VIRUS!", 4, shipped(vc4), means(vc4, "the three seeds")),
            ("Virus & Co", 4, {r["opponent"]: r for r in co_test["rows"]}, means(co, "the retrained seeds")),
            ("Roll & Write", 2, rw_test, "the three retrained seeds, none shipped: see its section, "
                                         "[roll_write.md](roll_write.md)")]
    lines = ["| game | players | vs `random`: win rate [95% CI] | vs `heuristic`: win rate [95% CI] | 1/N | "
             "beats random? | beats heuristic? |", "|---|---:|---|---|---:|---|---|"]
    for game, n, test, note in rows:
        ra, rh = test["random"], test["heuristic"]
        games = {r.get("games", 1000) for r in (ra, rh)}
        deals = "test deals" + ("" if games == {1000} else f", {'/'.join(map(str, sorted(games)))} games")
        lines.append(f"| {game} ({deals}; {note}) | {n} | {cell(ra, ra['ci95'][0] > 1 / n)} | "
                     f"{cell(rh, rh['ci95'][0] > 1 / n)} | {1 / n:.3f} | {_beats(ra, n)} | {_beats(rh, n)} |")
    return "\n".join(lines)


# -- docs/agents/virus_cards.md, virus_co.md, roll_write.md: the seed reports -----------------------------------
def _seed_tables(game: str, page: str, file: str, choice: str | None = None):
    def full(seeds, *rest):
        from virus_envs.experiments import seed_report

        label = "shipped"
        if choice is not None and rest[0]["decision"]["ships"] != "candidate":
            label = "candidate"                 # the median run lost the choice on the validation deals
        text, data = seed_report.report(seed_report.runs_from_json(seeds), seeds["choose_by"], label=label)
        if data["shipped_seed"] != seeds["shipped_seed"]:
            raise TableError(f"{file}: field 'shipped_seed' is {seeds['shipped_seed']}, but the median by "
                             f"validation is seed {data['shipped_seed']}")
        return text

    files = (file,) + ((choice,) if choice else ())
    for k, (part, about) in enumerate((("test", "every run's test figures per opponent and seat"),
                                       ("spread", "mean and spread over the runs per opponent"),
                                       ("runs", "each run's steps, checkpoint, validation figures, the median")),
                                      ):
        table(f"{game}_seeds_{part}", page, *files, about=f"{game}, three training seeds: {about}")(
            lambda *d, k=k: nth_table(full(*d), k))


_seed_tables("virus_cards_2p", "docs/agents/virus_cards.md", "docs/results/virus_cards_seeds.json")
_seed_tables("virus_cards_4p", "docs/agents/virus_cards.md", "docs/results/virus_cards_4p_seeds.json")
_seed_tables("virus_co_4p", "docs/agents/virus_co.md", "docs/results/virus_co_seeds.json")
_seed_tables("roll_write_2p", "docs/agents/roll_write.md", "docs/results/roll_write_seeds.json",
             "docs/results/roll_write_choice.json")


# -- the choices on the validation deals ------------------------------------------------------------------------
def _choice_table(name: str, page: str, file: str, rows: list):
    """rows: (sample label, model label, key of `results`); the criterion of the `decision.ships` model on the
    deciding (2000-game) sample is bold."""
    def run(data):
        from virus_envs.experiments.seed_report import cell

        lines = ["| validation sample | model | vs `random` [95% CI] | vs `heuristic` [95% CI] | criterion (mean) |",
                 "|---|---|---|---|---:|"]
        for sample, model, key in rows:
            res = data["results"][key]
            by = {r["opponent"]: r for r in res["rows"]}
            crit = f"{res['criterion']:.3f}"
            if key == f"{data['decision']['ships']}_2000":
                crit = f"**{crit}**"
            lines.append(f"| {sample} | {model} | {cell(by['random'])} | {cell(by['heuristic'])} | {crit} |")
        return "\n".join(lines)
    table(name, page, file, about="the choice on the validation deals: both models, both samples, the criterion")(run)


_DECIDES = "2000 games a opponent (**decides**)"
_choice_table("virus_cards_2p_choice", "docs/agents/virus_cards.md", "docs/results/virus_cards_choice.json", [
    (_DECIDES, "candidate (seed 2)", "candidate_2000"), (_DECIDES, "previous (`ee13840`)", "current_2000"),
    ("the split's 300 (chose the candidate's checkpoint)", "candidate (seed 2)", "candidate_300"),
    ("the split's 300 (chose the candidate's checkpoint)", "previous (`ee13840`)", "current_300")])
_choice_table("virus_cards_4p_choice", "docs/agents/virus_cards.md", "docs/results/virus_cards_4p_choice.json", [
    (_DECIDES, "candidate (seed 1)", "candidate_2000"),
    (_DECIDES, "previous (500K PPO, `82f4465`)", "current_2000"),
    ("the split's 300 (chose the candidate's checkpoint)", "candidate (seed 1)", "candidate_300"),
    ("the split's 300 (chose the candidate's checkpoint)", "previous (500K PPO, `82f4465`)", "current_300")])
_choice_table("virus_co_4p_choice", "docs/agents/virus_co.md", "docs/results/virus_co_choice.json", [
    (_DECIDES, "previous", "previous_2000"), (_DECIDES, "retrained", "retrained_2000"),
    ("the split's 300 (chose the retrained checkpoint)", "previous", "previous_300"),
    ("the split's 300 (chose the retrained checkpoint)", "retrained", "retrained_300")])


def test_rows_markdown(rows: list, bold: frozenset = frozenset()) -> str:
    """Evaluation rows (`virus-arena train --evaluate`'s eval.json) as 'opponent | win rate | seat ...'; a row that
    repeats an earlier one game for game is folded into it ('(= `other`)'); `bold` holds (opponent, seat or None)."""
    from virus_envs.experiments.seed_report import cell

    seats = sorted({s for r in rows for s in r["by_seat"]}, key=int)
    lines = ["| opponent | win rate [95% CI] | " + " | ".join(f"seat {s}" for s in seats) + " |",
             "|---|---|" + "---|" * len(seats)]
    kept, same = [], {}
    for r in rows:
        twin = next((k for k in kept if (k["games"], k["wins"], k["by_seat"]) == (r["games"], r["wins"], r["by_seat"])),
                    None)
        if twin is not None:
            same.setdefault(twin["opponent"], []).append(r["opponent"])
        else:
            kept.append(r)
    for r in kept:
        o = r["opponent"]
        name = f"`{o}`" + "".join(f" (= `{x}`)" for x in same.get(o, []))
        lines.append(f"| {name} | {cell(r, (o, None) in bold)} | "
                     + " | ".join(cell(r["by_seat"][s], (o, s) in bold) for s in seats) + " |")
    return "\n".join(lines)


@table("baselines_coop", "docs/agents/baselines.md", "docs/results/virus_lab_reference.json",
       about="the co-operative game: the shipped learned team, the heuristic team and a random team on the test deals")
def baselines_coop(ref):
    from virus_envs.experiments.seed_report import cell

    test = {r["team"]: r for r in ref["rows"] if r["split"] == "test"}
    learned = next(r for t, r in test.items() if t.startswith("ppo:"))
    heur, rand = test["heuristic"], test["random"]
    above_random = learned["ci95"][0] > rand["ci95"][1]
    below_heur = learned["ci95"][1] < heur["ci95"][0]
    return "\n".join([
        "| game | Heroes | learned team [95% CI] | `heuristic` team | `random` team | beats random? | beats heuristic? |",
        "|---|---:|---|---|---|---|---|",
        f"| Virus (co-operative), difficulty 1 (test deals, {learned['games']} each) | 1 | {cell(learned, True)} | "
        f"{cell(heur)} | {cell(rand)} | {'yes (interval above random' + chr(39) + 's)' if above_random else 'not shown'} | "
        f"{'no, far below' if below_heur else 'not shown'} |"])


@table("virus_lab_reference", "docs/agents/virus_lab.md", "docs/results/virus_lab_reference.json",
       about="the co-operative game's teams on the validation and test deals (3000 each)")
def virus_lab_reference(ref):
    from virus_envs.experiments.seed_report import cell

    teams = list(dict.fromkeys(r["team"] for r in ref["rows"]))
    by = {(r["team"], r["split"]): r for r in ref["rows"]}
    lines = ["| team (every seat) | validation deals (seed 7000003) | test deals (seed 9000011) |", "|---|---|---|"]
    for t in teams:
        cells = []
        for split in ("validation", "test"):
            r = by.get((t, split))
            cells.append(f"{r['wins']:g}/{r['games']} = {cell(r)}" if r else "not played")
        lines.append(f"| `{t}` | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


@table("virus_lab_clone_capacity", "docs/agents/virus_lab.md", "docs/results/virus_lab_clone_capacity.json",
       about="the lab clone: network size and epochs against held-out agreement and team wins on validation deals")
def virus_lab_clone_capacity(cap):
    lines = ["| actor | epochs | training agreement | held-out agreement | explore | move | team wins, 1000 "
             "validation deals [95% CI] |", "|---|---:|---:|---:|---:|---:|---|"]
    for name, v in cap["variants"].items():
        net = f"{'-'.join(map(str, v['arch']))} {v['activation']}"
        for r in v["rows"]:
            k, t = r["by_kind"], r["team_val"]
            lines.append(f"| {net} (`{name}`) | {r['epoch']} | {r['train_acc']:.3f} | {r['val_acc']:.3f} | "
                         f"{k['explore']['acc']:.2f} | {k['move']['acc']:.2f} | {t['wins']}/{t['games']} = "
                         f"{t['win_rate']:.3f} [{t['ci95'][0]:.3f}, {t['ci95'][1]:.3f}] |")
    return "\n".join(lines)


@table("roll_write_2p_shipped_test", "docs/agents/roll_write.md", "docs/results/roll_write_shipped_test.json",
       about="the shipped Roll & Write model on the test deals, per opponent and seat")
def roll_write_shipped_test(data):
    rows = next(e for e in data["evaluations"] if e["name"] == "test")["rows"]
    return test_rows_markdown(rows, frozenset({("heuristic", None), ("heuristic:spoiler", "1")}))


@table("virus_co_4p_shipped_test", "docs/agents/virus_co.md", "docs/results/virus_co_shipped_test.json",
       about="the shipped Virus & Co model (the previous one when measured) on the test deals, per opponent and seat")
def virus_co_shipped_test(data):
    return test_rows_markdown(data["rows"])


@table("virus_cards_2p_prev_test", "docs/agents/virus_cards.md", "docs/results/virus_cards_2p_prev_test.json",
       about="VIRUS! 2p, the kept previous model (ppo_prev.zip) on the test deals, per opponent and seat")
def virus_cards_prev_test(data):
    return test_rows_markdown(data["rows"])


@table("virus_cards_4p_cloning", "docs/agents/virus_cards.md", "docs/results/virus_cards_4p_runs.json",
       about="VIRUS! 4p, the three runs: the clone's held-out accuracy and the validation points, best.zip's in bold")
def virus_cards_4p_cloning(data):
    runs = data["runs"]
    steps = sorted({v["step"] for v in runs[0]["validation"]})
    names = ["0 (clone)" if s == 0 else f"{round(s / 1e5) * 100}K" for s in steps]
    chance = runs[0]["cloning"][0]["chance_acc"]
    lines = [f"| training seed | held-out accuracy of the clone (chance {chance:.2f}) | vs `heuristic`: "
             + " | ".join(names) + " | vs `random`: " + " | ".join(n.split(" ")[0] for n in names) + " | `best.zip` |",
             "|---:|" + "---:|" * (1 + 2 * len(steps)) + "---|"]
    for r in runs:
        best = int(r["best_checkpoint"].removesuffix(".zip").split("_")[1])
        val = {(v["opponent"], v["step"]): v["win_rate"] for v in r["validation"]}
        cells = [f"**{val[(o, s)]:.3f}**" if s == best else f"{val[(o, s)]:.3f}"
                 for o in ("heuristic", "random") for s in steps]
        lines.append(f"| {r['seed']} | {r['cloning'][-1]['val_acc']:.3f} | " + " | ".join(cells) + " | "
                     + ("the clone (step 0)" if best == 0 else f"step {best:,}") + " |")
    return "\n".join(lines)


# -- docs/agents/crossplay.md --------------------------------------------------------------------------------
@table("crossplay_virus_cards_2p", "docs/agents/crossplay.md", "docs/results/crossplay_virus_cards_2p.json",
       about="VIRUS! 2p cross-play matrix on the test deals")
@table("crossplay_virus_co_4p", "docs/agents/crossplay.md", "docs/results/crossplay_virus_co_4p.json",
       about="Virus & Co 4p cross-play matrix (one against three) on the test deals")
def crossplay_matrix(data):
    from virus_envs.experiments.crossplay import one_vs_rest_markdown

    return one_vs_rest_markdown(data)


def _parity(row: str, readings: dict, adjusted: bool = False):
    def run(data):
        from virus_envs.experiments.crossplay import against_parity_markdown

        return against_parity_markdown(data, row, readings, rate=lambda x: half_up(x, 3), adjusted=adjusted)
    return run


table("crossplay_virus_cards_2p_tests", "docs/agents/crossplay.md", "docs/results/crossplay_virus_cards_2p.json",
      about="the pre-registered tests of the ppo:builtin row against 1/2, Holm over its six cells")(_parity(
    "ppo:builtin", {"ppo:builtin_prev": "H1 holds: parity", "heuristic": "H2 holds", "heuristic:aggressive": "H2 holds",
                    "heuristic:defensive": "H2 holds", "random": "H2 holds",
                    "ismcts?iters=200": "H3: no difference shown"}))
table("crossplay_virus_co_4p_tests", "docs/agents/crossplay.md", "docs/results/crossplay_virus_co_4p.json",
      about="the pre-registered tests of the ppo:builtin row against 1/4, Holm over its six cells")(_parity(
    "ppo:builtin", {"heuristic": "H1 holds", "heuristic:bold": "H1 holds", "heuristic:cautious": "H1 holds",
                    "random": "H1 holds", "ismcts?iters=20": "H2 not shown at 40 games",
                    "ppo:builtin_prev": "H3 not shown: parity"}))

table("crossplay_roll_write_2p", "docs/agents/crossplay.md", "docs/results/crossplay_roll_write_2p.json",
      about="Roll & Write 2p cross-play matrix on the test deals")(crossplay_matrix)
table("crossplay_roll_write_2p_tests", "docs/agents/crossplay.md", "docs/results/crossplay_roll_write_2p.json",
      about="the pre-registered tests of the ppo:builtin row against 1/2, raw and Holm-adjusted p over its six cells")(
    _parity("ppo:builtin", {"heuristic": "H1 holds", "heuristic:cautious": "H1 holds", "random": "H1 holds",
                            "heuristic:spoiler": "H2: above 1/2", "ismcts?iters=50": "H3: below 1/2",
                            "ismcts?iters=200": "H3: below 1/2"}, adjusted=True))


@table("crossplay_roll_write_2p_seats", "docs/agents/crossplay.md", "docs/results/crossplay_roll_write_2p.json",
       about="the ppo:builtin row of the Roll & Write 2p matrix by its seat (first, second player)")
def crossplay_roll_write_2p_seats(data):
    from virus_envs.experiments.crossplay import by_seat_markdown

    return by_seat_markdown(data, "ppo:builtin", rate=lambda x: half_up(x, 2))


#: the agents of the VIRUS! 4p matrix in the page's order (the stored rows are `virus-arena eval` rows)
VIRUS_CARDS_4P_AGENTS = ["ismcts?iters=50", "heuristic", "heuristic:aggressive", "ppo:builtin"]


def _eval_cells(rows) -> list:
    return [{"row": r["agent"], "col": r["opponent"], "games": r["games"], "wins": r["wins"],
             "win_rate": r["win_rate"], "ci95": r["ci95"]} for r in rows]


@table("crossplay_virus_cards_4p", "docs/agents/crossplay.md", "docs/results/crossplay_virus_cards_4p.json",
       about="VIRUS! 4p cross-play matrix on seed 2026 (against the 500K model), 60 games a cell")
def crossplay_virus_cards_4p(data):
    from virus_envs.experiments.crossplay import one_vs_rest_markdown

    return one_vs_rest_markdown({"agents": VIRUS_CARDS_4P_AGENTS, "players": data["rows"][0]["players"],
                                 "cells": _eval_cells(data["rows"])})


@table("crossplay_virus_cards_4p_new_model", "docs/agents/crossplay.md", "docs/results/crossplay_virus_cards_4p.json",
       "docs/results/virus_cards_4p_remeasured.json",
       about="VIRUS! 4p: the six cross-play cells with ppo:builtin, the 500K model beside the model shipped since")
def crossplay_virus_cards_4p_new_model(old, new):
    from virus_envs.experiments.crossplay import cell_text

    before = {(c["row"], c["col"]): c for c in _eval_cells(old["rows"])}
    cells = [c for c in _eval_cells(r for r in new["rows"] if r["name"].startswith("cp_"))]
    n = new["rows"][0]["players"]
    games = {c["games"] for c in cells}
    lines = [f"| cell ({'/'.join(map(str, sorted(games)))} games, {'/'.join(str(g // n) for g in sorted(games))} "
             f"deals) | against the 500K model (above) | against the new model |", "|---|---|---|"]
    for c in cells:
        lines.append(f"| `{c['row']}` vs `{c['col']}` | {cell_text(before[(c['row'], c['col'])])} | {cell_text(c)} |")
    return "\n".join(lines)


# -- docs/agents/exploitability.md ----------------------------------------------------------------------------
@table("br_roll_write_2p", "docs/agents/exploitability.md", "docs/results/best_response_roll_write_2p.json",
       about="a best response against the shipped model: win rate and margin above 1/N, all seats and per seat")
@table("br_virus_cards_2p", "docs/agents/exploitability.md", "docs/results/best_response_virus_cards_2p.json",
       about="a best response against the shipped model: win rate and margin above 1/N, all seats and per seat")
@table("br_virus_co_4p", "docs/agents/exploitability.md", "docs/results/best_response_virus_co_4p.json",
       about="a best response against the shipped model: win rate and margin above 1/N, all seats and per seat")
def best_response_margin(rep):
    from virus_envs.experiments.best_response import margin_markdown

    return margin_markdown(rep)


@table("br_side_by_side", "docs/agents/exploitability.md", "docs/results/best_response_roll_write_2p.json",
       "docs/results/best_response_virus_cards_2p.json", "docs/results/best_response_virus_co_4p.json",
       "docs/results/league_roll_write_2p.json",
       about="the three best responses side by side, with each one's and its target's figure against heuristic")
def br_side_by_side(rw, vc, co, league):
    def against_heuristic(rows):
        return next(r for r in rows if r["opponent"] == "heuristic")["win_rate"]

    lines = ["| game | target's budget | best response's steps | win rate vs target [95% CI] | 1/N | margin [95% CI] | "
             "vs `heuristic`: best response / target |", "|---|---:|---:|---|---:|---|---|"]
    for rep in (rw, vc, co):
        others = rep["the_best_response_against_others"]
        if "the_target_on_the_same_deals" in others:
            target = others["the_target_on_the_same_deals"]["rows"]
        else:           # Roll & Write: the target on the same 400 test games, in the league's exploratory rows
            target = league["exploratory"]["rows"]["x_builtin_heur"]
        budget, steps = rep["target_budget_steps"], rep["steps"]
        cut = f" ({steps / budget:.0%} of the budget, time cut)" if rep["stopped_by_time"] else ""
        lo, hi = rep["margin_ci95"]
        margin = f"{rep['margin']:+.3f}"
        lines.append(f"| {_game(rep['env_id'], rep['num_players'])} | {budget / 1e6:.1f}M | {steps / 1e6:.2f}M{cut} | "
                     f"{rep['win_rate']:.3f} [{rep['ci95'][0]:.3f}, {rep['ci95'][1]:.3f}] | {rep['baseline']:.2f} | "
                     + (f"**{margin}**" if lo > 0 else margin) + f" [{lo:+.3f}, {hi:+.3f}] | "
                     f"{half_up(against_heuristic(others['rows']), 3)} / {half_up(against_heuristic(target), 3)} |")
    return "\n".join(lines)


@table("league_curve", "docs/agents/exploitability.md", "docs/results/league_roll_write_2p.json",
       about="the Roll & Write league run's validation curve, the chosen checkpoint in bold")
def league_curve(data):
    run = data["league_run"]
    br = "ppo:" + data["pool_best_response"]["file"]
    best = int(run["best_checkpoint"].removesuffix(".zip").split("_")[1])
    pts = run["validation_curve"]
    lines = ["| steps | " + " | ".join("0" if p["step"] == 0 else f"{p['step'] / 1e6:.1f}M" for p in pts) + " |",
             "|---|" + "---:|" * len(pts)]
    for label, key in (("vs the stored best response", br), ("vs `heuristic`", "heuristic")):
        lines.append(f"| {label} | " + " | ".join(f"**{half_up(p[key], 2)}**" if p["step"] == best else
                                                   half_up(p[key], 2) for p in pts) + " |")
    return "\n".join(lines)


@table("league_q1", "docs/agents/exploitability.md", "docs/results/best_response_roll_write_2p.json",
       "docs/results/league_roll_write_2p.json",
       about="Q1: a fresh best response against the shipped model and against the league's best.zip")
def league_q1(before, league):
    after = league["Q1_best_response"]
    lines = ["| target | best-response win rate [95% CI] | margin above 1/2 [95% CI] | seat 0 | seat 1 |",
             "|---|---|---|---:|---:|"]
    for label, rep, bold in ((f"`{before['target']}` (run above, {before['steps']:,} steps)", before, False),
                             (f"league `best.zip` ({after['steps']:,} steps)", after, True)):
        b = "**" if bold else ""
        lines.append(f"| {label} | {b}{rep['win_rate']:.3f}{b} [{rep['ci95'][0]:.3f}, {rep['ci95'][1]:.3f}] | "
                     f"{b}{rep['margin']:+.3f}{b} [{rep['margin_ci95'][0]:+.3f}, "
                     f"{rep['margin_ci95'][1]:+.3f}] | " + " | ".join(f"{rep['by_seat'][s]['win_rate']:.3f}"
                                                                   for s in ("0", "1")) + " |")
    return "\n".join(lines)


@table("league_q2", "docs/agents/exploitability.md", "docs/results/league_roll_write_2p.json",
       about="Q2: the league model against the shipped one, held-out opponents, same test deals (model_compare)")
def league_q2(data):
    from virus_envs.experiments.model_compare import markdown

    return nth_table(markdown(data["Q2_held_out"], "league", "`ppo:builtin`"), 0)


# -- docs/agents/lab_teams.md -------------------------------------------------------------------------------
def team_eval_markdown(data: dict, a: str, b: str, last: str) -> str:
    """`tools/vl_team_eval.py`'s JSON as a table: per cell both teams' wins (percent, 95% Wilson interval), the paired
    difference in points with its interval and p, and the deals that changed hands; a percentage has the decimals
    one deal needs (100 / deals points)."""
    lines = [f"| Heroes | difficulty | deals | `{data['a']}` | `{data['b']}` | {a} - {b}, paired [95% CI], p | {last} |",
             "|---:|---:|---:|---|---|---|---|"]
    for c in data["cells"]:
        k = max(1, math.ceil(-math.log10(100 / c["deals"]) - 1e-9))

        def team(t):
            return (f"{t['wins']} = {100 * t['rate']:.{k}f}% [{100 * t['ci95'][0]:.{k}f}, "
                    f"{100 * t['ci95'][1]:.{k}f}]")
        d = c["a_minus_b"]
        if c.get("changed") == 0:
            diff = "0 (identical games)"
        else:
            diff = (f"{100 * d['mean']:+.{k}f} points [{100 * d['ci95'][0]:+.{k}f}, {100 * d['ci95'][1]:+.{k}f}], "
                    f"p = {d['p']:.2g}")
        counts = ([str(c["changed"])] if "changed" in c else []) + [str(c["gained"]), str(c["lost"])]
        lines.append(f"| {c['heroes']} | {c['difficulty']} | {c['deals']} | {team(c['a'])} | {team(c['b'])} | {diff} | "
                     + " / ".join(counts) + " |")
    return "\n".join(lines)


table("lab_tactician", "docs/agents/lab_teams.md", "docs/results/virus_lab_tactician_eval.json",
      about="heuristic:tactician against the plain team, paired on the test deals (seed 77)")(
    lambda d: team_eval_markdown(d, "tactician", "plain",
                                 "deals won only by the tactician / only by the plain team"))
table("lab_coop", "docs/agents/lab_teams.md", "docs/studies/virus_lab_coop.json",
      about="heuristic:coop against the plain team, paired on the pre-registered test deals (seed 4711)")(
    lambda d: team_eval_markdown(d, "coop", "plain", "deals changed / won only by coop / only by plain"))


# -- docs/agents/strength.md and search.md: templates over the stored eval rows (experiments/search_tables.py) ------
def _search_table(name: str, spec: tuple):
    page, about, files, head, lines = spec

    def run(*data):
        from virus_envs.experiments import search_tables
        from virus_envs.experiments.search_figures import rates

        rows = {r["name"]: r for d in data for r in (d if isinstance(d, list) else d["rows"])}
        return search_tables.markdown(head, lines, rows, rates(list(rows.values())), ", ".join(files))
    table(name, page, *files, about=about)(run)


for _name, _spec in SEARCH_TABLES.items():
    _search_table(_name, _spec)
LOG_ROWS.update(SEARCH_TYPED)


# -- the command line ------------------------------------------------------------------------------------------
def listing() -> str:
    lines = []
    for t in TABLES.values():
        lines.append(f"{t.name}  ({t.page}): {t.about}")
        lines.append(f"    reads {', '.join(t.files)}")
        if t.name in LOG_ROWS:
            lines.append(f"    not stored: {LOG_ROWS[t.name]}")
    return "\n".join(lines)


def check(root: Path = ROOT, names=None) -> list[str]:
    """The tables (default: all) whose page differs from the command's output, each with its first differing line."""
    bad = []
    for name in names or TABLES:
        try:
            want, have = render(name, root), page_table(name, root)
        except TableError as e:
            bad.append(f"{name}: {e}")
            continue
        if want != have:
            w, h = want.split("\n"), have.split("\n")
            i = next(i for i in range(max(len(w), len(h))) if (w[i:i + 1] or [""]) != (h[i:i + 1] or [""]))
            bad.append(f"{name} ({TABLES[name].page}), line {i + 1} of the table:\n  page:    "
                       f"{(h[i:i + 1] or ['(none)'])[0]}\n  command: {(w[i:i + 1] or ['(none)'])[0]}")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="tables to print (see --list)")
    ap.add_argument("--list", action="store_true", help="every table: name, page, the files it reads")
    ap.add_argument("--check", action="store_true", help="compare every page's table with its command's output")
    ap.add_argument("--root", default=str(ROOT), help="the checkout holding docs/ (default: this one)")
    args = ap.parse_args(argv)
    root = Path(args.root)
    try:
        if args.list:
            print(listing())
        if args.check:
            bad = check(root)
            for b in bad:
                print(b)
            print(f"{len(TABLES) - len(bad)} of {len(TABLES)} tables equal their command's output")
            if bad:
                return 1
        if not (args.list or args.check or args.names):
            ap.print_usage()
            return 2
        print("\n".join(render(n, root) for n in args.names), end="")
    except TableError as e:
        raise SystemExit(f"agents_tables: {e}") from None
    return 0


if __name__ == "__main__":
    # the module itself, not this __main__ copy: experiments/search_tables.py raises the module's TableError
    from virus_envs.experiments.agents_tables import main as _main

    sys.exit(_main())
