"""Chance made explicit: a stand-in for the state's numpy Generator that reads its outcomes from a tape.

Every engine draws its chance from `state.rng` (core.seeding). For frameworks that want chance as
explicit nodes (OpenSpiel's EXPLICIT_STOCHASTIC), `ChanceTape` replaces that Generator: each
elementary uniform draw takes the next outcome from the tape, and when the tape is used up it
raises `NeedChance`, saying how many equally likely outcomes the next draw has. The caller makes
that draw a chance node, appends the chosen outcome and runs the same step again on a fresh copy.

Elementary draws:
- `integers(low, high, size)`: one draw per element, `high - low` outcomes each (outcome j gives
  `low + j`). A draw over more than `SEED_RANGE` values is a seed for a child Generator, not a
  game event: it returns `low` and takes nothing from the tape.
- `shuffle(x)` / `permutation(x)`: Fisher-Yates from the end; the draw for position i has i + 1
  outcomes (which of the first i + 1 items goes to position i). Every permutation is equally
  likely, as with numpy's own shuffle (the same distribution, not numpy's bit stream).
- `random()` and other continuous draws have no finite outcome set: they raise
  `ContinuousChance`, and a game that uses them must be exposed as sampled chance instead.
"""
from __future__ import annotations

import numpy as np

#: a uniform integer draw over more values than this seeds a child Generator (not a game event)
SEED_RANGE = 1 << 20


class NeedChance(Exception):
    """The tape is used up: the next draw has `outcomes` equally likely results (`low` is the first value)."""

    def __init__(self, outcomes: int, low: int, kind: str):
        super().__init__(outcomes, low, kind)      # args rebuild it (copies, pickles)
        self.outcomes, self.low, self.kind = outcomes, low, kind

    def __str__(self):
        return f"next chance draw ({self.kind}) has {self.outcomes} outcomes"


class ContinuousChance(Exception):
    """The engine asked for a draw with no finite set of outcomes."""


class ChanceTape:
    """A Generator stand-in whose outcomes come from `tape` (list of outcome indices)."""

    def __init__(self, tape: list[int] | None = None):
        self.tape = [] if tape is None else tape
        self.pos = 0

    def _draw(self, outcomes: int, low: int, kind: str) -> int:
        if outcomes <= 1:
            return 0
        if self.pos == len(self.tape):
            raise NeedChance(outcomes, low, kind)
        j = self.tape[self.pos]
        if not 0 <= j < outcomes:
            raise ValueError(f"chance outcome {j} out of range for a draw of {outcomes} ({kind})")
        self.pos += 1
        return j

    # -- the numpy Generator methods the engines use -------------------------------------------
    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + (1 if endpoint else 0)
        span = high - low
        if span <= 0:
            raise ValueError(f"integers: empty range [{low}, {high})")
        if span > SEED_RANGE:      # a seed for a child Generator: no game event
            return low if size is None else np.full(size, low, dtype=dtype)
        if size is None:
            return np.int64(low + self._draw(span, low, "integer"))
        out = np.empty(size, dtype=dtype)
        flat = out.reshape(-1)
        for i in range(flat.size):
            flat[i] = low + self._draw(span, low, "integer")
        return out

    def shuffle(self, x) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self._draw(i + 1, 0, "shuffle")
            if j != i:
                x[i], x[j] = x[j], x[i]

    def permutation(self, x):
        arr = np.arange(x) if isinstance(x, (int, np.integer)) else np.array(x, copy=True)
        self.shuffle(arr)
        return arr

    def choice(self, a, size=None, replace=True, p=None):
        if p is not None:
            raise ContinuousChance("choice with probabilities p has no equally likely outcomes")
        pool = np.arange(a) if isinstance(a, (int, np.integer)) else np.asarray(a)
        if size is None:
            return pool[self._draw(len(pool), 0, "choice")]
        if not replace:
            return self.permutation(pool)[:size]
        return np.array([pool[self._draw(len(pool), 0, "choice")] for _ in range(int(np.prod(size)))]).reshape(size)

    def random(self, *a, **k):
        raise ContinuousChance("random(): a continuous draw has no finite outcome set")

    uniform = normal = standard_normal = binomial = random

    @property
    def bit_generator(self):
        raise ContinuousChance("a chance tape has no bit generator state (it is not a Generator to save)")
