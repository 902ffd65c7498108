"""Game records: one JSON object per line (a tournament's games.jsonl, `virus-arena play --record`).

A record holds what replays the game (`env_id`, `num_players`, `config`, `seed`, `actions`) and
what it gave (`seats`, `scores`, `returns`, `truncated`, `length`; a tournament adds `index`,
`deal`, `rotation`). Everything read back is checked, and each mistake is one line naming the file,
the line and the field:

    runs/t/games.jsonl: line 7: key 'actions[3]' must be an integer, got '5'
    runs/t/games.jsonl: line 9: field 'returns' is [1.0, -1.0], replaying its actions gives [-1.0, 1.0]

`check_fields` checks the types (a pydantic model) and the lengths; `replay` plays the actions
again on the engine (each must be legal); `check_outcome` compares what the record says with the
replayed game (a record that ends before the game does must say `complete: false`, or, for a game
an outside bot forfeited, `forfeit`: its seat must be the one to decide where the actions stop,
and the returns those of `arena.forfeit_returns`).
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, StrictBool, StrictFloat, StrictInt, StrictStr

from virus_envs.experiments import configfile

__all__ = ["GameRecord", "check_fields", "replay", "check_outcome", "read_lines"]

_Num = StrictInt | StrictFloat


class ForfeitRecord(BaseModel):
    """How a game was cut: the seat that forfeited, the kind of fault, in words, and after how many actions."""

    model_config = ConfigDict(extra="allow", strict=True)

    seat: NonNegativeInt
    kind: Literal["timeout", "crash", "garbage", "illegal"]
    reason: StrictStr
    decision: NonNegativeInt


class GameRecord(BaseModel):
    """The fields of a record that are checked (others, such as `seconds`, are kept as they are)."""

    model_config = ConfigDict(extra="allow", strict=True)

    env_id: StrictStr
    num_players: Annotated[StrictInt, Field(ge=1)]
    config: dict[str, Any] = Field(default_factory=dict)
    seed: NonNegativeInt
    actions: list[Annotated[StrictInt, Field(ge=0)]]
    seats: list[StrictStr] | None = None
    scores: list[_Num] | None = None
    returns: list[_Num] | None = None
    truncated: StrictBool | None = None
    complete: StrictBool | None = None
    length: NonNegativeInt | None = None
    index: NonNegativeInt | None = None
    deal: NonNegativeInt | None = None
    rotation: NonNegativeInt | None = None
    forfeit: ForfeitRecord | None = None
    sides: list[StrictStr] | None = None     # a game of sides (State.sides()): checked against the replay


def read_lines(path: str) -> list[tuple[int, str]]:
    """(line number, text) of the non-blank lines of a file; ValueError naming the file if it cannot be read."""
    try:
        with open(path) as f:
            return [(i + 1, ln) for i, ln in enumerate(f) if ln.strip()]
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file of JSON lines") from None


def parse(text: str, where: str) -> dict:
    """One line as a dict; ValueError naming `where`."""
    try:
        rec = json.loads(text)
    except ValueError:
        raise ValueError(f"{where}: not JSON") from None
    if not isinstance(rec, dict):
        raise ValueError(f"{where}: not a game record (a JSON object), got {type(rec).__name__}")
    return rec


def check_types(rec: dict, where: str) -> None:
    """The types of a record's fields (GameRecord); ValueError naming where and the field."""
    try:
        GameRecord.model_validate(rec)
    except configfile.ValidationError as e:
        raise ValueError(configfile.one_line(where, e, GameRecord)) from None


def check_fields(rec: dict, where: str, game=None):
    """Types and lengths of a record's fields; returns the game it replays on (`game` if given: the caller
    has checked that the record's env_id, num_players and config are that game's). ValueError naming where
    and the field."""
    import virus_envs

    check_types(rec, where)
    if game is None:
        try:
            game = virus_envs.game(rec["env_id"], num_players=rec["num_players"], **rec.get("config", {}))
        except ValueError as e:
            field = "env_id" if "env id" in str(e) else "num_players" if "num_players" in str(e) else "config"
            raise ValueError(f"{where}: field {field!r}: {e}") from None
    n = game.num_players
    for key in ("seats", "scores", "returns", "sides"):
        value = rec.get(key)
        if value is not None and len(value) != n:
            raise ValueError(f"{where}: field {key!r} has {len(value)} entries for {n} players")
    return game


def replay(rec: dict, where: str, game=None, on_step=None):
    """The record's actions played again from its seed; returns the final state.

    `on_step(k, state, action)` is called before each action (to print it). ValueError naming
    where and the decision if an action is not legal or comes after the end of the game."""
    if game is None:
        game = check_fields(rec, where)
    s = game.new_initial_state(seed=rec["seed"])
    actions = rec["actions"]
    for k, a in enumerate(actions):
        if s.is_terminal():
            raise ValueError(f"{where}: field 'actions': the game is over after {k} decisions, "
                             f"but {len(actions) - k} more actions follow")
        if not (a < game.num_actions and s.legal_action_mask()[a]):
            raise ValueError(f"{where}: field 'actions': decision {k} (action {a}) is not legal in the replayed "
                             f"game (another engine, config or seed?)")
        if on_step is not None:
            on_step(k, s, a)
        s.apply_action(a)
    return s


def _same(a, b) -> bool:
    return len(a) == len(b) and bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                                 rtol=0, atol=1e-9))


def check_outcome(rec: dict, s, where: str) -> None:
    """What the record says against the replayed final state `s`; ValueError naming where and the field."""
    k = len(rec["actions"])
    if rec.get("forfeit") is not None:
        return _check_forfeit(rec, s, where)
    if not s.is_terminal():
        if rec.get("complete") is False:
            return                         # an abandoned game, said so: nothing to compare
        raise ValueError(f"{where}: the record ends after {k} decisions, before the game is over (an unfinished "
                         f"game; a game abandoned on purpose says \"complete\": false)")
    if rec.get("complete") is False:
        raise ValueError(f"{where}: field 'complete' is false, but the game is over after its {k} decisions")
    truncated = bool(getattr(s, "is_truncated", lambda: False)())
    replayed = {"scores": [float(x) for x in s.scores()], "returns": [float(x) for x in s.returns()]}
    for key, value in replayed.items():
        if rec.get(key) is not None and not _same(rec[key], value):
            raise ValueError(f"{where}: field {key!r} is {rec[key]}, replaying its actions gives {value}")
    if rec.get("truncated") is not None and rec["truncated"] != truncated:
        raise ValueError(f"{where}: field 'truncated' is {rec['truncated']}, replaying its actions gives {truncated}")
    if rec.get("sides") is not None and rec["sides"] != s.sides():
        raise ValueError(f"{where}: field 'sides' is {rec['sides']}, replaying its actions gives {s.sides()}")
    if rec.get("length") is not None and rec["length"] != k:
        raise ValueError(f"{where}: field 'length' is {rec['length']}, the record has {k} actions")


def _check_forfeit(rec: dict, s, where: str) -> None:
    """A game cut by a forfeit: the replayed game is not over, the forfeiting seat is the one to decide there,
    and the returns are `forfeit_returns` of that seat (the scores: the points at the cut)."""
    from virus_envs.experiments.arena import forfeit_returns

    f, k = rec["forfeit"], len(rec["actions"])
    if s.is_terminal():
        raise ValueError(f"{where}: field 'forfeit': the game is over after its {k} decisions, nothing was "
                         f"left to forfeit")
    if f["decision"] != k:
        raise ValueError(f"{where}: field 'forfeit.decision' is {f['decision']}, the record has {k} actions")
    if f["seat"] != s.current_player():
        raise ValueError(f"{where}: field 'forfeit.seat' is {f['seat']}, but seat {s.current_player()} is the one "
                         f"to decide after the record's {k} actions")
    expected = {"returns": forfeit_returns(s.game, f["seat"], s.sides()), "scores": [float(x) for x in s.scores()]}
    for key, value in expected.items():
        if rec.get(key) is not None and not _same(rec[key], value):
            raise ValueError(f"{where}: field {key!r} is {rec[key]}, a forfeit by seat {f['seat']} at decision "
                             f"{k} gives {value}")
    if rec.get("truncated"):
        raise ValueError(f"{where}: field 'truncated' is true, but a forfeited game is not truncated")
    if rec.get("length") is not None and rec["length"] != k:
        raise ValueError(f"{where}: field 'length' is {rec['length']}, the record has {k} actions")
    if rec.get("complete") is not None:
        raise ValueError(f"{where}: field 'complete' is set in a forfeited game (a forfeit says 'forfeit' only)")
