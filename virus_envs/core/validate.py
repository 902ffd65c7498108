"""Checks for `Game.state_from_dict`: a loaded dict is refused with a ValueError naming the field.

A state dict comes from `State.to_dict()` and may have been edited, truncated or written for
another game. `check_envelope` covers what every game shares (the dict itself, `env_id`,
`num_players`, the set of fields, the `rng`); each game's `Game._validate_dict(d)` then checks
its own fields with the helpers below: lengths against `num_players`, integer ranges, and the
conservation of components (no card duplicated, none vanished).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import numpy as np


def fail(env_id: str, field: str, what: str) -> ValueError:
    """The one message shape: `state dict for <env>: field '<field>' <what>`."""
    return ValueError(f"state dict for {env_id}: field {field!r} {what}")


def check_envelope(game, d, keys: Iterable[str]) -> None:
    """The dict, its `env_id` and `num_players`, exactly the expected fields, and a loadable `rng`."""
    env = game.env_id
    if not isinstance(d, dict):
        raise ValueError(f"state dict for {env}: expected a dict, got {type(d).__name__}")
    if "env_id" not in d:
        raise fail(env, "env_id", "is missing")
    if d["env_id"] != env:
        raise fail(env, "env_id", f"is {d['env_id']!r}: this dict is for another game")
    if "num_players" not in d:
        raise fail(env, "num_players", "is missing")
    if d["num_players"] != game.num_players:
        raise fail(env, "num_players", f"is {d['num_players']!r}, but this game has {game.num_players} players")
    keys = set(keys)
    for k in sorted(keys - set(d)):
        raise fail(env, k, "is missing")
    for k in sorted(set(d) - keys):
        raise fail(env, k, "is not a field of this game's state")
    if "rng" in keys:
        check_rng(env, d["rng"])


def check_rng(env: str, r) -> None:
    """A bit-generator snapshot as written by seeding.rng_to_dict."""
    if not isinstance(r, dict) or not isinstance(r.get("bit_generator"), str) \
            or not hasattr(np.random, r["bit_generator"]):
        raise fail(env, "rng", "is not a bit-generator state (a dict with 'bit_generator' and 'state')")
    try:
        bg = getattr(np.random, r["bit_generator"])()
        bg.state = r
    except Exception as e:   # numpy's own message says which part is wrong
        raise fail(env, "rng", f"cannot be loaded: {e}") from None


def check_int(env: str, field: str, v, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool) in [lo, hi]."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise fail(env, field, f"must be an int, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        span = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
        raise fail(env, field, f"must be in {span}, got {v!r}")
    return int(v)


def check_bool(env: str, field: str, v) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise fail(env, field, f"must be a bool, got {v!r}")
    return bool(v)


def check_list(env: str, field: str, v, length: int | None = None) -> list:
    """A list, of the given length when one is given (e.g. one entry per seat)."""
    if not isinstance(v, list):
        raise fail(env, field, f"must be a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise fail(env, field, f"must have {length} entries (one per seat or slot), got {len(v)}")
    return v


def check_ints(env: str, field: str, v, length: int | None = None, lo: int | None = None,
               hi: int | None = None) -> list:
    """A list of ints, each in [lo, hi]."""
    check_list(env, field, v, length)
    for i, x in enumerate(v):
        check_int(env, f"{field}[{i}]", x, lo, hi)
    return v


def check_conserved(env: str, what: str, where: dict[str, Iterable[int]], expected: Counter | dict) -> None:
    """Every component exactly as often as the game has it.

    `where` maps a field name to the component ids found there; `expected` maps an id to how many
    copies exist. A duplicate names the fields holding it; a missing one says so.
    """
    seen: Counter = Counter()
    places: dict[int, list[str]] = {}
    for field, ids in where.items():
        for c in ids:
            seen[c] += 1
            places.setdefault(c, []).append(field)
    for c, k in seen.items():
        if c not in expected:
            raise fail(env, places[c][0], f"holds {what} {c!r}, which this game does not have")
        if k > expected[c]:
            raise fail(env, places[c][-1], f"holds {what} {c!r} once too often: {k} copies in "
                                           f"{', '.join(sorted(set(places[c])))}, the game has {expected[c]}")
    for c, k in expected.items():
        if seen.get(c, 0) < k:
            raise ValueError(f"state dict for {env}: {what} {c!r} has vanished: {seen.get(c, 0)} of {k} "
                             f"copies found in {', '.join(where)}")
