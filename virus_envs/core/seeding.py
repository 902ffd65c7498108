"""Seeding: every chance event of a state comes from the state's own numpy Generator."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from .chance import ChanceTape

_MASK = (1 << 63) - 1


#: while set (see `chance_tape`), every Generator an engine makes or clones is this ChanceTape
_TAPE: ChanceTape | None = None


@contextmanager
def chance_tape(tape: ChanceTape):
    """Explicit chance: inside this block every Generator the engine makes (make_rng) or copies (clone_rng)
    is `tape`, so each of its draws comes from the tape or stops at a chance node (core.chance)."""
    global _TAPE
    old, _TAPE = _TAPE, tape
    try:
        yield tape
    finally:
        _TAPE = old


def make_rng(seed) -> np.random.Generator:
    """A PCG64 Generator; seed None draws fresh OS entropy. Inside `chance_tape(t)`: the tape t."""
    if _TAPE is not None:
        return _TAPE
    if isinstance(seed, ChanceTape):
        return seed
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    return np.random.Generator(np.random.PCG64(None if seed is None else int(seed)))


def rng_to_dict(rng: np.random.Generator) -> dict:
    """JSON-safe snapshot of a Generator (ints stay ints: JSON keeps big ints exactly)."""
    return rng.bit_generator.state


def rng_from_dict(d: dict) -> np.random.Generator:
    """Inverse of rng_to_dict."""
    bitgen = getattr(np.random, d["bit_generator"])()
    bitgen.state = d
    return np.random.Generator(bitgen)


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent Generator in the same state (inside `chance_tape(t)`: the tape t; a tape's copy is a new
    empty tape: between explicit-chance steps a state holds one, and every step gets its own tape)."""
    if _TAPE is not None:
        return _TAPE
    if isinstance(rng, ChanceTape):
        return ChanceTape()
    return rng_from_dict(rng.bit_generator.state)


def derive_seed(rng: np.random.Generator) -> int:
    """A fresh non-negative 63-bit seed drawn from rng (for child games, tournaments)."""
    return int(rng.integers(0, _MASK, dtype=np.int64))
