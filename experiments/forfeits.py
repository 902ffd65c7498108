"""Forfeits of outside bots in a tournament's results and report, and the bots' limits in tournament files and
on the command line (docs/bots.md).

A forfeited game's record carries `forfeit` (seat, kind, reason, decision, agent); `counts` and `listing` put
them into results.json, `report_lines` into report.md. `LimitsEntry` is the `limits:` key of a tournament file;
`add_limit_arguments` / `limit_args` are the command line's `--decision-seconds`, ... .
"""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from virus_envs.agents.base import Forfeit

__all__ = ["counts", "listing", "report_lines", "LimitsEntry", "add_limit_arguments", "limit_args"]


def counts(specs: list, records: list[dict]) -> dict:
    """agent -> {kind: games it forfeited that way} (every kind listed, 0 included)."""
    out = {a: {k: 0 for k in Forfeit.KINDS} for a in specs}
    for rec in records:
        ff = rec.get("forfeit")
        if ff is not None:
            out[rec["seats"][ff["seat"]]][ff["kind"]] += 1
    return out


def listing(records: list[dict]) -> list[dict]:
    """Every forfeited game: index, agent, seat, kind, reason, decision."""
    return [{"index": r["index"], "agent": r["seats"][r["forfeit"]["seat"]], "seat": r["forfeit"]["seat"],
             "kind": r["forfeit"]["kind"], "reason": r["forfeit"]["reason"], "decision": r["forfeit"]["decision"]}
            for r in sorted(records, key=lambda r: r["index"]) if r.get("forfeit") is not None]



def report_lines(res: dict, examples: int = 3) -> list[str]:
    """The report's section on forfeits: per agent and kind, then the first reasons of each agent."""
    games = res.get("forfeits") or []
    if not games:
        return []
    rule = ("the team loses (every seat -1)" if res.get("cooperative") else
            "the seat at fault loses (-1) and every other seat shares the win (1/(n-1) each)")
    lines = ["", "## Forfeits", "", f"{len(games)} game(s) were cut by an outside bot's fault: {rule}. A forfeited "
             "game counts in the win rates, returns and ratings; its points at the cut are left out of the mean "
             "score.", "", "| agent | forfeited | " + " | ".join(Forfeit.KINDS) + " |",
             "|---|---:|" + "---:|" * len(Forfeit.KINDS)]
    for a in res["agents"]:
        c = a.get("forfeits") or {}
        if sum(c.values()):
            lines.append(f"| {a['agent']} | {sum(c.values())} | " + " | ".join(str(c.get(k, 0)) for k in Forfeit.KINDS)
                         + " |")
    lines += ["", "First reasons:", ""]
    shown: dict = {}
    for g in games:
        if shown.get(g["agent"], 0) < examples:
            shown[g["agent"]] = shown.get(g["agent"], 0) + 1
            lines.append(f"- game {g['index']}, seat {g['seat']} ({g['agent']}), decision {g['decision']}: "
                         f"{g['kind']}: {g['reason']}")
    return lines



class LimitsEntry(BaseModel):
    """`limits:` of a tournament file (or of one entry): the outside bots' limits (agents/botproc.py BotLimits)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    decision_seconds: Annotated[float, Field(gt=0)] | None = None
    game_seconds: Annotated[float, Field(gt=0)] | None = None
    hello_seconds: Annotated[float, Field(gt=0)] | None = None
    memory_mb: NonNegativeInt | None = None
    cpu_seconds: NonNegativeInt | None = None

    def given(self) -> dict:
        return {k: v for k, v in self.model_dump().items() if v is not None}



#: the command line's names of the outside bots' limits (docs/bots.md)
_LIMIT_FLAGS = {"decision_seconds": "--decision-seconds", "game_seconds": "--game-seconds",
                "hello_seconds": "--hello-seconds", "memory_mb": "--bot-memory-mb", "cpu_seconds": "--bot-cpu-seconds"}


def add_limit_arguments(parser) -> None:
    """The outside bots' limits (cmd: agents); each overrides the tournament file's `limits`."""
    g = parser.add_argument_group("outside bots (cmd: agents); a fault forfeits the game, see docs/bots.md")
    g.add_argument("--decision-seconds", type=float, help="wall time per decision (default 10)")
    g.add_argument("--game-seconds", type=float, help="wall time of a bot's decisions over one game (default 600)")
    g.add_argument("--hello-seconds", type=float, help="time to answer a game's hello, start included (default 30)")
    g.add_argument("--bot-memory-mb", type=int, help="RLIMIT_AS of each bot process (default: none)")
    g.add_argument("--bot-cpu-seconds", type=int, help="RLIMIT_CPU of each bot process, over its life (default: none)")


def limit_args(args) -> dict:
    """The limits given on the command line; ValueError naming the option."""
    from virus_envs.agents.botproc import BotLimits

    out = {k: getattr(args, flag[2:].replace("-", "_")) for k, flag in _LIMIT_FLAGS.items()
           if getattr(args, flag[2:].replace("-", "_"), None) is not None}
    for k, v in out.items():
        try:
            BotLimits.from_dict({k: v})
        except ValueError as e:
            raise ValueError(f"{_LIMIT_FLAGS[k]}: {str(e).split(': ', 1)[-1]}") from None
    return out
