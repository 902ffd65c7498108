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


class LazyGenerator:
    """A numpy Generator built only when first used, from a seed or from a snapshot of another's state.

    Building a PCG64 Generator costs about as much as copying a whole state or two engine steps, and
    most copies a search makes never meet chance (a VIRUS! world draws from a deck already dealt), so
    `clone_rng` and `lazy_rng` defer it. Every attribute is the built Generator's: its draws are bit
    for bit those of the Generator made at once."""

    __slots__ = ("_src", "_gen")

    def __init__(self, src):
        self._src = src         # a seed (int) or a bit-generator state (dict); never mutated once here
        self._gen = None

    def generator(self) -> np.random.Generator:
        """The Generator itself (built now if not yet)."""
        g = self._gen
        if g is None:
            src = self._src
            g = self._gen = rng_from_dict(src) if src.__class__ is dict else np.random.Generator(np.random.PCG64(src))
        return g

    def snapshot(self):
        """What an equal copy is built from: the seed or state given, or the built Generator's state now."""
        return self._src if self._gen is None else self._gen.bit_generator.state

    def __getattr__(self, name):
        if name[:2] == "__":
            raise AttributeError(name)
        return getattr(self.generator(), name)

    def __reduce__(self):
        return LazyGenerator, (self.snapshot(),)


def lazy_rng(seed: int):
    """`make_rng(seed)`, built when first drawn from (inside `chance_tape(t)`: the tape t, at once)."""
    if _TAPE is not None:
        return _TAPE
    return LazyGenerator(int(seed))


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent Generator in the same state, built when first drawn from (LazyGenerator); inside
    `chance_tape(t)`: the tape t; a tape's copy is a new empty tape: between explicit-chance steps a state
    holds one, and every step gets its own tape."""
    if _TAPE is not None:
        return _TAPE
    if isinstance(rng, ChanceTape):
        return ChanceTape()
    if rng.__class__ is LazyGenerator:
        return LazyGenerator(rng.snapshot())
    return LazyGenerator(rng.bit_generator.state)


def derive_seed(rng: np.random.Generator) -> int:
    """A fresh non-negative 63-bit seed drawn from rng (for child games, tournaments)."""
    return int(rng.integers(0, _MASK, dtype=np.int64))
