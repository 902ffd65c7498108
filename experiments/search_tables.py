"""The search agents' tables of docs/agents/strength.md and docs/agents/search.md, as templates over stored eval rows.

Each row of these tables is one `virus-arena eval` run stored by name in docs/results/search_strength.json (or
docs/results/virus_cards_4p_remeasured.json): a table row here is the names of the stored rows it shows and a
template of the page's line, whose fields (`{wr}`, `{cpu:.3f}`, `{sp[wr]}` for a row that shows several runs) are
filled from them. Numbers are rounded half up as they read in the file (0.1455 -> 0.146: the file keeps four
decimals). The words of a line (what a spec is, when a machine was idle) are the page's; a figure the stored rows
do not hold is named in `TYPED`. `experiments/agents_tables.py` registers every table of `TABLES`.
"""
from __future__ import annotations

import re
import string
from decimal import ROUND_HALF_UP, Decimal, localcontext

_ITERS = re.compile(r"^ismcts\?iters=(\d+)")
STRENGTH = "docs/agents/strength.md"
SEARCH = "docs/agents/search.md"
ROWS = "docs/results/search_strength.json"
REMEASURED = "docs/results/virus_cards_4p_remeasured.json"


class HalfUp(string.Formatter):
    """str.format with a float's fixed-point fields rounded half up from the digits it reads."""

    def format_field(self, value, spec):
        if isinstance(value, float) and spec.endswith("f"):
            with localcontext() as ctx:
                ctx.rounding = ROUND_HALF_UP
                return format(Decimal(repr(value)), spec)
        return super().format_field(value, spec)


FMT = HalfUp()


def fields(r: dict, rates: dict | None = None) -> dict:
    """What a table line may show of one stored eval row: its numbers (formatted by the template) and the texts
    `wr` ('wins/games = rate [lo, hi]'), `ci` ('rate [lo, hi]'), `seats` ('12, 14, 14, 13') and `seats_of`
    ('12/20, 14/20'); per game (`seconds_a_game`, `decisions_a_game`), in minutes, and `bench_s`, the iterations
    over the IS-MCTS rate of `virus-arena bench` at that game and count (`search_figures.rates`)."""
    f = {"name": r["name"], "agent": r["agent"], "opponent": r.get("opponent"), "players": r["players"]}
    if "games" in r:
        g, w = r["games"], r["wins"]
        lo, hi = r["ci95"]
        seats = [r["by_seat"][s] for s in sorted(r["by_seat"] or {}, key=int)]   # None: not recorded
        f.update(games=g, wins=f"{w:g}", win_rate=float(r["win_rate"]), lo=float(lo), hi=float(hi),
                 lo_pct=100 * lo, hi_pct=100 * hi, seed=r["seed"], baseline=r["baseline"],
                 seats=", ".join(f"{s['wins']:g}" for s in seats),
                 seats_of=", ".join(f"{s['wins']:g}/{s['games']}" for s in seats))
        f["ci"] = FMT.format("{0:.3f} [{1:.3f}, {2:.3f}]", f["win_rate"], f["lo"], f["hi"])
        f["wr"] = f"{f['wins']}/{g} = {f['ci']}"
    for k in ("seconds", "cpu_seconds"):
        if k in r:
            f[k] = r[k]
            f[k.replace("seconds", "minutes")] = r[k] / 60
            if "games" in r:
                f[f"{k}_a_game"] = r[k] / r["games"]
    c = r.get("agent_cpu_per_decision")
    if c:
        f.update(cpu=float(c["mean"]), cpu_max=float(c["max"]), decisions=c["decisions"])
        if "games" in r:
            f["decisions_a_game"] = c["decisions"] / r["games"]
    s = r.get("mean_scores")
    if s:
        f.update(score=float(s["agent"]), score_other=float(s["best_other_seat"]))
    m = _ITERS.match(r["agent"])
    if m:
        f["iters"] = int(m.group(1))
        if rates and (r["game"], r["players"]) in rates:
            f["bench_s"] = f["iters"] / rates[(r["game"], r["players"])]
    return f


def several(fs: dict) -> dict:
    """A line showing several runs (alias -> fields): each by its alias, and the worst win rate, the range of the
    mean CPU a decision ('0.12-0.16', or one figure) and the largest CPU a decision over them."""
    out = dict(fs, worst=min(f["win_rate"] for f in fs.values()))
    cpus = [f for f in fs.values() if "cpu" in f]
    if cpus:
        lo, hi = (FMT.format("{0:.2f}", x) for x in (min(f["cpu"] for f in cpus), max(f["cpu"] for f in cpus)))
        out.update(cpu_range=lo if lo == hi else f"{lo}-{hi}", cpu_max=max(f["cpu_max"] for f in cpus))
    return out


def markdown(head: tuple, lines: list, rows: dict, rates: dict, file: str) -> str:
    """The table: its header lines, then each line's template filled from its stored rows (None: the line as it
    stands, a row with no stored run)."""
    from virus_envs.experiments.agents_tables import TableError

    out = list(head)
    for refs, template in lines:
        if refs is None:
            out.append(template)
            continue
        if isinstance(refs, str):
            refs = {"": refs}
        missing = [n for n in refs.values() if n not in rows]
        if missing:
            raise TableError(f"{file}: no row named {missing[0]!r}")
        fs = {a: fields(rows[n], rates) for a, n in refs.items()}
        values = fs[""] if "" in fs else several(fs)
        try:
            out.append(FMT.format(template, **values))
        except KeyError as e:
            raise TableError(f"{file}: row {', '.join(refs.values())} has no {e.args[0]!r}") from None
    return "\n".join(out)


def _h(*lines):
    return tuple(lines)


#: figures on these pages that no stored row holds, by table (typed into the template from the runs' logs)
TYPED = {
    "strength_variants": "the Roll & Write rows: from docs/rules/roll_write.md, no stored file",
    "strength_rw4_expectimax": "the CPU a decision (0.05 s, max 0.2 s): from the run's log, no stored file",
    "strength_rw4_expectimax_vs_variants": "the scores of six rows: from the runs' logs, no stored file",
    "strength_rw4_robust_test": "the scores of the spoiler and cautious controls: from the runs' logs, no stored file",
    "strength_lab4": "the range of search decisions a game (271-487, 291-485): from the run's log, no stored file",
}

_T = "| {games} | {wr} |"
_SCORES = ("{sp[score]:.1f}/{sp[score_other]:.1f}, {ca[score]:.1f}/{ca[score_other]:.1f}, "
           "{he[score]:.1f}/{he[score_other]:.1f} | {cpu_range} s ({cpu_max:.2f}) |")
TABLES = {
    "strength_variants": (STRENGTH, "the heuristic variants against the plain heuristic, seed 1", (ROWS,), (
        "| game | players | variant | win rate vs `heuristic` [95% CI] | 1/N | chosen |", "|---|---:|---|---|---:|---|"), [
        ("var_vc2_aggr", "| VIRUS! | 2 | `{agent}` | {ci} | {baseline:g} | yes (best point estimate) |"),
        ("var_vc2_def", "| VIRUS! | 2 | `{agent}` | {ci} | {baseline:g} | |"),
        ("var_vc4_aggr", "| VIRUS! | 4 | `{agent}` | {ci} | {baseline:g} | yes (best point estimate) |"),
        ("var_vc4_def", "| VIRUS! | 4 | `{agent}` | {ci} | {baseline:g} | |"),
        ("var_co4_bold", "| Virus & Co | 4 | `{agent}` | **{win_rate:.3f}** [{lo:.3f}, {hi:.3f}] | {baseline:g} | yes |"),
        ("var_co4_caut", "| Virus & Co | 4 | `{agent}` | {ci} | {baseline:g} | |"),
        (None, "| Roll & Write | 2 | `heuristic:spoiler` (`deny=1`) | **0.610** [0.579, 0.639] (1,000 games, "
               "docs/rules/roll_write.md) | 0.5 | yes |"),
        (None, "| Roll & Write | 4 | none beats `heuristic` there (docs/rules/roll_write.md) | | 0.25 | `heuristic` |")]),

    "strength_ismcts_vs_heuristic": (STRENGTH, "IS-MCTS against the best heuristic by budget, seed 2026", (ROWS,), (
        "| game | players | opponent | iterations | games | ismcts win rate [95% CI] | 1/N | wall time (loaded machine) |",
        "|---|---:|---|---:|---:|---|---:|---:|"), [
        ("curve_vc2_50", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        ("curve_vc2_200", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        ("curve_vc2_200_g200", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} (the 60 above included) | {ci} | "
                               "{baseline:.2f} | {minutes:.0f} min (idle machine, 16:30) |"),
        ("curve_vc2_1000", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        ("curve_vc2_1000_g30", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min "
                               "(idle machine, 16:38) |"),
        ("test_vc2_1000", "| VIRUS! | 2 | `{opponent}` | {iters} | {games} (the 30 above included) | **{ci}** | "
                          "{baseline:.2f} | 17:56-19:38 in six processes ({minutes:.0f} process-minutes, "
                          "{cpu_minutes:.0f} min CPU), nice 5, load 8-25 |"),
        ("curve_vc4_50", "| VIRUS! | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min |"),
        ("curve_vc4_200", "| VIRUS! | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min "
                          "(idle machine, 16:28) |"),
        ("curve_vc4_200_g200", "| VIRUS! | 4 | `{opponent}` | {iters} | {games} (the 60 above included) | **{ci}** | "
                               "{baseline:g} | {minutes:.0f} min (load 5-8, 2026-12-02; {cpu_seconds} s CPU) |"),
        (None, "| VIRUS! | 4 | `heuristic:aggressive` | 1000 | — | not finished (see below) | 0.25 | |"),
        ("curve_rw2_50", "| Roll & Write | 2 | `{opponent}` | {iters} | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        ("curve_rw2_200", "| Roll & Write | 2 | `{opponent}` | {iters} | {games} | **{win_rate:.3f}** [{lo:.3f}, {hi:.3f}] | "
                          "{baseline:.2f} | {minutes:.0f} min (idle machine, 16:32) |"),
        (None, "| Roll & Write | 2 | `heuristic:spoiler` | 1000 | — | not finished (see below) | 0.50 | |"),
        ("curve_rw4_50", "| Roll & Write | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min |"),
        ("curve_rw4_200", "| Roll & Write | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min |"),
        ("curve_rw4_1000", "| Roll & Write | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min "
                           "(idle machine, 16:38) |"),
        (None, "| Virus & Co | 4 | `heuristic:bold` | 50 | — | not finished (see below) | 0.25 | |"),
        ("curve_co4_200", "| Virus & Co | 4 | `{opponent}` | {iters} | {games} | {ci} | {baseline:g} | {minutes:.0f} min |"),
        ("curve_co4_200_g100", "| Virus & Co | 4 | `{opponent}` | {iters} | {games} (the 24 above included) | "
                               "**{win_rate:.3f}** [{lo:.3f}, {hi:.3f}] | {baseline:g} | {minutes:.0f} min (idle machine, 16:32) |"),
        (None, "| Virus & Co | 4 | `heuristic:bold` | 1000 | — | not finished (see below) | 0.25 | |")]),

    "strength_ismcts_vs_ppo": (STRENGTH, "IS-MCTS at 200 iterations against the shipped models, seed 2026",
                               (ROWS, REMEASURED), (
        "| game | players | ismcts | opponent | games | ismcts win rate [95% CI] | 1/N | wall time |",
        "|---|---:|---|---|---:|---|---:|---:|"), [
        ("ppo_vc2", "| VIRUS! | 2 | `{agent}` | `{opponent}` when measured: the previous model, `ppo_prev.zip` since "
                    "2026-12-02 | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        ("ppo_vc4_g200", "| VIRUS! | 4 | `{agent}` | `{opponent}` when measured: the 500K model, `ppo_4p_prev.zip` since "
                         "2026-12-02 | {games} | **{ci}** | {baseline:g} | {minutes:.1f} min ({cpu_minutes:.1f} min CPU) |"),
        ("ppo_vc4_g200_new", "| VIRUS! | 4 | `{agent}` | `{opponent}` (`ppo_4p.zip`, the cloned model shipped 2026-12-02) | "
                             "{games} | **{ci}** | {baseline:g} | {minutes:.1f} min ({cpu_minutes:.1f} min CPU) |"),
        ("ppo_rw2", "| Roll & Write | 2 | `{agent}` | `{opponent}` | {games} | {ci} | {baseline:.2f} | {minutes:.0f} min |"),
        (None, "| Virus & Co | 4 | `ismcts?iters=200` | `ppo:builtin` | — | not finished | 0.25 | |"),
        ("lab1_ppo_builtin", "| Virus (board game) (team win rate, difficulty 1) | {players} | `{agent}` | — | {games} | {ci} | "
                             "— | {minutes:.0f} min |")]),

    "strength_rw4_expectimax": (STRENGTH, "Roll & Write 4p: expectimax against the plain heuristic, seed 2026", (ROWS,), (
        "| game | players | agent | opponent | games | win rate [95% CI] | 1/N | CPU a decision | wall time (CPU) |",
        "|---|---:|---|---|---:|---|---:|---:|---:|"), [
        ("test_rw4_expectimax_d1", "| Roll & Write | 4 | `{agent}` | `{opponent}` | {games} | **{ci}** ({wins}/{games}) | "
                                   "{baseline:g} | 0.05 s (max 0.2 s) | 17:59-19:36 in two processes ({minutes:.0f} "
                                   "process-minutes, {cpu_minutes:.0f} min CPU), nice 5, load 8-25 |")]),

    "strength_rw2_expectimax": (STRENGTH, "Roll & Write 2p: expectimax against heuristic:spoiler, seeds 1 and 2026",
                                (ROWS,), (
        "| row | seed | spec | games | win rate [95% CI] | by seat | CPU a decision: mean (max) |",
        "|---|---:|---|---:|---|---|---:|"), [
        ("s1_rw2_expectimax_d1", "| `{name}` | {seed} | `{agent}` (defaults) " + _T + " {seats_of} | {cpu:.3f} s "
                                 "({cpu_max:.2f}) |"),
        ("s1_rw2_expectimax_d1_greedy", "| `{name}` | {seed} | `{agent}` | {games} | {wr} (the default: 16/20 on these "
                                        "20) | {seats_of} | {cpu:.3f} s ({cpu_max:.2f}) |"),
        ("test_rw2_expectimax_d1", "| `{name}` | {seed} | `{agent}` | {games} | **{wr}** | {seats_of} | {cpu:.3f} s "
                                   "({cpu_max:.2f}) |"),
        ("ppo_rw2_expectimax_d1", "| `{name}` | {seed} | `{agent}` against `{opponent}` " + _T + " {seats_of} | "
                                  "{cpu:.3f} s ({cpu_max:.2f}) |"),
        ("ctrl_rw2_heuristic_vs_spoiler", "| `{name}` | {seed} | `{agent}` (control: the plain heuristic in the agent's "
                                          "seat) " + _T + " {seats_of} | |")]),

    "strength_rw4_expectimax_vs_variants": (STRENGTH, "Roll & Write 4p: expectimax against opponents it does not model",
                                            (ROWS,), (
        "| row | agent | opponents (three seats) | games | win rate [95% CI] | by seat | scores | CPU a decision |",
        "|---|---|---|---:|---|---|---|---:|"), [
        ("test_rw4_expectimax_d1_vs_cautious", "| `{name}` | `{agent}` | `{opponent}` | {games} | **{wr}** | {seats} of "
                                               "15 | 26.9 / 22.3 | {cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("ctrl_rw4_heuristic_vs_cautious", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                           "23.3 / 25.7 | |"),
        ("test_rw4_expectimax_d1_vs_spoiler", "| `{name}` | `{agent}` | `{opponent}` | {games} | **{wr}** | {seats} | "
                                              "**-7.4** / 22.1 | {cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("ctrl_rw4_heuristic_vs_spoiler", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                          "19.1 / 25.1 | |"),
        ("diag_rw4_expectimax_d1_oppspoiler_vs_spoiler", "| `{name}` | `{agent}` (told the opponents' variant; **code "
                                                         "before `30ba186`**, see below) | `{opponent}` " + _T +
         " {seats} | 11.7 / 22.3 | {cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("diag_rw4_expectimax_d1_oppspoiler_vs_spoiler_v2", "| `{name}` | the same spec, code of `30ba186` on | "
                                                            "`{opponent}` | {games} | **{wr}** | {seats} | | {cpu:.3f} s "
                                                            "(max {cpu_max:.2f}) |"),
        ("test_rw4_ismcts200_vs_spoiler", "| `{name}` | `{agent}` (no opponent model) | `{opponent}` " + _T +
         " {seats} | 19.5 / 24.6 | {cpu:.3f} s (max {cpu_max:.2f}) | |")]),

    "strength_rw4_robust_choice": (STRENGTH, "Roll & Write 4p: the robust searchers on validation seed 1, by the worst "
                                             "opponent", (ROWS,), (
        "| spec | vs `heuristic:spoiler` | vs `heuristic:cautious` | vs `heuristic` | worst | scores (spoiler, cautious, "
        "heuristic) | CPU a decision, mean (max) |", "|---|---|---|---|---|---|---|"), [
        ({"sp": "s1_rw4_robust_vs_spoiler", "ca": "s1_rw4_robust_vs_cautious", "he": "s1_rw4_robust_vs_heuristic"},
         "| **`{sp[agent]}`** (chosen) | {sp[wr]} | {ca[wr]} | {he[wr]} | **{worst:.3f}** | " + _SCORES),
        ({"sp": "s1_rw4_robustpts_vs_spoiler", "ca": "s1_rw4_robustpts_vs_cautious",
          "he": "s1_rw4_robustpts_vs_heuristic"}, "| `{sp[agent]}` | {sp[wr]} | {ca[wr]} | {he[wr]} | {worst:.3f} | " + _SCORES),
        ({"sp": "s1_rw4_spoilerpts_vs_spoiler", "ca": "s1_rw4_spoilerpts_vs_cautious",
          "he": "s1_rw4_spoilerpts_vs_heuristic"}, "| `{sp[agent]}` | {sp[wr]} | {ca[wr]} | {he[wr]} | {worst:.3f} | " + _SCORES)]),

    "strength_rw4_robust_test": (STRENGTH, "Roll & Write 4p: expectimax?opp=robust on test seed 2026, with the controls",
                                 (ROWS,), (
        "| row | agent | opponents (three seats) | games | win rate [95% CI] | by seat | scores | CPU a decision, mean "
        "(max) | wall (CPU) |", "|---|---|---|---:|---|---|---|---:|---:|"), [
        ("test_rw4_robust_vs_spoiler", "| `{name}` | `{agent}` | `{opponent}` | {games} | **{wr}** | {seats} of 15 | "
                                       "{score:.1f} / {score_other:.1f} | {cpu:.3f} s ({cpu_max:.2f}) | {seconds} s "
                                       "({cpu_seconds} s) |"),
        ("ctrl_rw4_heuristic_vs_spoiler", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                          "19.1 / 25.1 | | |"),
        ("test_rw4_robust_vs_cautious", "| `{name}` | `{agent}` | `{opponent}` | {games} | **{wr}** | {seats} | "
                                        "{score:.1f} / {score_other:.1f} | {cpu:.3f} s ({cpu_max:.2f}) | {seconds} s "
                                        "({cpu_seconds} s) |"),
        ("ctrl_rw4_heuristic_vs_cautious", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                           "23.3 / 25.7 | | |"),
        ("test_rw4_robust_vs_heuristic", "| `{name}` | `{agent}` | `{opponent}` | {games} | **{wr}** | {seats} | "
                                         "{score:.1f} / {score_other:.1f} | {cpu:.3f} s ({cpu_max:.2f}) | {seconds} s "
                                         "({cpu_seconds} s) |"),
        ("ctrl_rw4_heuristic_vs_heuristic", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                            "{score:.1f} / {score_other:.1f} | | {seconds} s ({cpu_seconds} s) |"),
        ("test_rw4_robust_vs_greedy", "| `{name}` | `{agent}` | `{opponent}` " + _T[:-1] + "(games 0-7) | {seats} of 2 | "
                                      "{score:.1f} / {score_other:.1f} | {cpu:.3f} s ({cpu_max:.2f}) | {seconds} s "
                                      "({cpu_seconds} s) |"),
        ("ctrl_rw4_heuristic_vs_greedy", "| `{name}` | `{agent}` (control) | `{opponent}` " + _T + " {seats} | "
                                         "{score:.1f} / {score_other:.1f} | | {seconds} s ({cpu_seconds} s) |")]),

    "strength_rw2_robust": (STRENGTH, "Roll & Write 2p: expectimax?opp=robust against heuristic:spoiler", (ROWS,), (
        "| row | agent | games | win rate [95% CI] | by seat | scores | CPU a decision, mean (max) | wall (CPU) |",
        "|---|---|---:|---|---|---|---:|---:|"), [
        ("test_rw2_robust_vs_spoiler", "| `{name}` | `{agent}` | {games} | **{wr}** | {seats_of} | {score:.1f} / "
                                       "{score_other:.1f} | {cpu:.3f} s ({cpu_max:.2f}) | {seconds} s ({cpu_seconds} s) |"),
        ("test_rw2_expectimax_d1", "| `{name}` (earlier) | `{agent}` " + _T + " {seats_of} | | {cpu:.3f} s "
                                   "({cpu_max:.2f}) | |")]),

    "strength_co4_ppo": (STRENGTH, "Virus & Co 4p: IS-MCTS against the shipped model", (ROWS,), (
        "| row | agent | opponent | games | win rate [95% CI] | by seat | CPU a decision |", "|---|---|---|---:|---|---|---:|"), [
        ("ppo_co4", "| `{name}` | `{agent}` | `{opponent}` (the model of `1820cfb`) | {games} | **{wr}** | {seats} of 10 | "
                    "{cpu:.3f} s (max {cpu_max:.2f}) |")]),

    "strength_vc4_ppo_500k": (STRENGTH, "VIRUS! 4p: IS-MCTS and the heuristic against the 500K model", (ROWS,), (
        "| row | agent (one seat) | opponent (three seats) | games | win rate [95% CI] | by seat | wall (CPU) | CPU a "
        "decision |", "|---|---|---|---:|---|---|---:|---:|"), [
        ("ppo_vc4", "| `{name}` | `{agent}` | `{opponent}` " + _T + " {seats} of 15 | {seconds} s ({cpu_seconds} s) | "
                    "{cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("ppo_vc4_g200", "| `{name}` | `{agent}` | `{opponent}` | {games} (the 60 above included) | **{wr}** | {seats} of "
                         "50 | {seconds} s ({cpu_seconds} s) | {cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("ctrl_vc4_heuristic_vs_ppo", "| `{name}` | `{agent}` (control) | `{opponent}` | {games} (the same games) | {wr} | "
                                      "{seats} of 50 | {seconds} s ({cpu_seconds} s) | {cpu:.4f} s |")]),

    "strength_vc4_ppo_new": (STRENGTH, "VIRUS! 4p: IS-MCTS and the heuristic against the model shipped since 2026-12-02",
                             (REMEASURED,), (
        "| row | agent (one seat) | opponent (three seats) | games | win rate [95% CI] | by seat | wall (CPU) | CPU a "
        "decision |", "|---|---|---|---:|---|---|---:|---:|"), [
        ("ppo_vc4_g200_new", "| `{name}` | `{agent}` | `{opponent}` (new) | {games} | **{wr}** | {seats} of 50 | "
                             "{seconds} s ({cpu_seconds} s) | {cpu:.3f} s (max {cpu_max:.2f}) |"),
        ("ctrl_vc4_heuristic_vs_ppo_new", "| `{name}` | `{agent}` (control) | `{opponent}` (new) | {games} (the same "
                                          "games) | {wr} | {seats} of 50 | {seconds} s ({cpu_seconds} s) | {cpu:.4f} s |")]),

    "strength_lab4": (STRENGTH, "the board game with 4 Heroes: the heuristic and the ismcts?iters=10 teams", (ROWS,), (
        "| Heroes | difficulty | deals | `heuristic` team (same deals) | `ismcts?iters=10` team | search decisions a game "
        "| wall (CPU) a game |", "|---:|---:|---:|---|---|---:|---:|"), [
        ({"h": "lab4_d1_heuristic", "s": "lab4_d1_ismcts10"},
         "| {s[players]} | 1 | {s[games]} | {h[wins]}/{h[games]} [{h[lo_pct]:g}, {h[hi_pct]:.1f}%] (`{h[name]}`) | "
         "{s[wins]}/{s[games]} [{s[lo_pct]:g}, {s[hi_pct]:.1f}%] (`{s[name]}`) | {s[decisions_a_game]:.0f} (271-487) | "
         "{s[seconds_a_game]:.0f} s ({s[cpu_seconds_a_game]:.0f} s) |"),
        ({"h": "lab4_d2_heuristic", "s": "lab4_d2_ismcts10"},
         "| {s[players]} | 2 | {s[games]} | {h[wins]}/{h[games]} [{h[lo_pct]:g}, {h[hi_pct]:.1f}%] (`{h[name]}`) | "
         "{s[wins]}/{s[games]} [{s[lo_pct]:g}, {s[hi_pct]:.1f}%] (`{s[name]}`) | {s[decisions_a_game]:.0f} (291-485) | "
         "{s[seconds_a_game]:.0f} s ({s[cpu_seconds_a_game]:.0f} s) |")]),
}

_C = " | {iters:,} | {bench_s:.3f} |"
TABLES["strength_budget_curves"] = (
    STRENGTH, "IS-MCTS budget curves, every point, with the CPU a decision at the bench rate", (ROWS,), (
        "| game | players | opponent | iterations | ≈ CPU s a decision (bench rate) | games | ismcts win rate [95% CI] | 1/N "
        "| measured CPU a decision (mean) | row |", "|---|---:|---|---:|---:|---:|---|---:|---:|---|"), [
        ("curve_vc2_50", "| VIRUS! | 2 | `{opponent}`" + _C + " {games} | {wr} | {baseline:.2f} | — | `{name}` |"),
        ("curve_vc2_200_g200", "| VIRUS! | 2 | `{opponent}`" + _C + " {games} | {wr} | {baseline:.2f} | — | `{name}` |"),
        ("test_vc2_1000", "| VIRUS! | 2 | `{opponent}`" + _C + " {games} | {wr} | {baseline:.2f} | — | `{name}` |"),
        ("curve_vc4_50", "| VIRUS! | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | — | `{name}` |"),
        ("curve_vc4_200_g200", "| VIRUS! | 4 | `{opponent}`" + _C + " {games} (the 60 of `curve_vc4_200` included) | "
                               "{wr} | {baseline:g} | {cpu:.3f} s | `{name}` (2026-12-02) |"),
        ("curve_vc4_1000", "| VIRUS! | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | {cpu:.3f} s | `{name}` "
                           "(new) |"),
        ("curve_rw2_50", "| Roll & Write | 2 | `{opponent}`" + _C + " {games} | {wr} | {baseline:.2f} | — | `{name}` |"),
        ("curve_rw2_200", "| Roll & Write | 2 | `{opponent}`" + _C + " {games} | {wr} | {baseline:.2f} | — | `{name}` |"),
        ("curve_rw2_1000", "| Roll & Write | 2 | `{opponent}`" + _C + " {games} (cut at 22:39: 34 of the command's 40) | "
                           "{wr} | {baseline:.2f} | {cpu:.3f} s | `{name}` (new) |"),
        ("curve_rw4_50", "| Roll & Write | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | — | `{name}` |"),
        ("curve_rw4_200", "| Roll & Write | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | — | `{name}` |"),
        ("curve_rw4_1000", "| Roll & Write | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | — | `{name}` |"),
        ("test_rw4_ismcts200_vs_spoiler", "| Roll & Write | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | "
                                          "{cpu:.3f} s | `{name}` |"),
        ("curve_co4_50", "| Virus & Co | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | {cpu:.3f} s | `{name}` "
                         "(new) |"),
        ("curve_co4_200_g100", "| Virus & Co | 4 | `{opponent}`" + _C + " {games} | {wr} | {baseline:g} | — | `{name}` |"),
        ("curve_rw2_5000", "| Roll & Write | 2 | `{opponent}`" + _C + " {games} (cut at 01:05: 11 whole deals of the "
                           "command's 30) | {wr} | {baseline:.2f} | {cpu:.3f} s (max {cpu_max:.2f}) | `{name}` (the "
                           "1-second point) |"),
        ("curve_co4_3000", "| Virus & Co | 4 | `{opponent}`" + _C + " {games} (cut at 01:23: 3 whole deals of the "
                           "command's 40) | {wr} | {baseline:g} | {cpu:.3f} s (max {cpu_max:.2f}) | `{name}` (the "
                           "1-second point) |")])

_S1 = " | {games} | {wr} | {minutes:.0f} min ({cpu_minutes:.0f} min CPU) |"
TABLES["search_rw4_choice"] = (
    SEARCH, "Roll & Write 4p: which search, chosen on seed 1 against the plain heuristic", (ROWS,), (
        "| spec | games (whole deals) | wins = win rate [95% CI] | wall time (CPU), all seats | note |",
        "|---|---:|---|---:|---|"), [
        ("s1_rw4_expectimax_d1", "| `expectimax?depth=1` (`leaf=heuristic`, `opp=heuristic`: the defaults)" + _S1 +
         " **chosen**; run stopped after 53 games (all won), the 13 whole deals counted |"),
        ("s1_rw4_expectimax_d1_value", "| `{agent}`" + _S1 + " stopped after 80 games: the leaf at the next decision, "
                                                           "not the round played out, is far weaker |"),
        ("s1_rw4_ismcts200", "| `{agent}` (closed loop, the default tree)" + _S1 + " about the same CPU per decision as "
                                                                                "the chosen expectimax |"),
        ("s1_rw4_ismcts200_history", "| `{agent}` (open loop)" + _S1 + "  |"),
        (None, "| `expectimax?depth=1&opp=greedy` | — | not finished | | stopped after a few games to leave the CPU to "
               "the test runs |"),
        (None, "| `expectimax?depth=2` (either leaf) | — | not played | | 3-13 s a decision at a round's last die: over "
               "the 1 s budget |")])
TABLES["search_rw4_vs_cautious"] = (
    SEARCH, "Roll & Write 4p: the chosen expectimax against heuristic:cautious, seed 1", (ROWS,), (
        "| spec | opponent | games | wins = win rate [95% CI] | wall time (CPU) |", "|---|---|---:|---|---:|"), [
        ("s1_rw4_expectimax_d1_vs_cautious", "| `{agent}` | `{opponent}`" + _S1)])
