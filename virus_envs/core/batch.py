"""What every batched engine shares: the arrays of B games, reset, step, masks, random actions.

A game's batched engine (`roll_write/batched.py`, `virus_cards/batched.py`) subclasses `BatchEngine`,
sets `K` to its kernels module and builds its table vector `TB`; the kernels module provides
`reset_batch(S, RS, SEEDS, seeds, M, TB)` and `step_batch(S, RS, SEEDS, actions, M, TB, done, fseed,
fscores, freturns, ftrunc, partial)` (returning the first illegal game or -1) and its row width `ROW`;
the subclass provides `is_terminal()`, `current_player()`, `observation(...)`, `to_dict(i)`,
`load(i, state)`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .errors import IllegalActionError
from .jit import HAVE_NUMBA, njit


class BatchStep(NamedTuple):
    """What `step` returns; arrays are the batch's own buffers, overwritten by the next step (copy to keep)."""

    done: np.ndarray        # (B,) bool: game i ended with this action (and was reset, with autoreset)
    seeds: np.ndarray       # (B,) int64: the seed of each game that ended (valid where done)
    scores: np.ndarray      # (B, n) float: its final scores (valid where done)
    returns: np.ndarray     # (B, n) float: its returns (0 if truncated) (valid where done)
    truncated: np.ndarray   # (B,) bool: it ended by max_turns (valid where done)


@njit
def random_actions(M, u, out):
    """A uniformly drawn legal action per game (u[i] uniform in [0, 1)); -1 where nothing is legal."""
    B, A = M.shape
    for i in range(B):
        cnt = 0
        for a in range(A):
            if M[i, a]:
                cnt += 1
        if cnt == 0:
            out[i] = -1
            continue
        k = int(u[i] * cnt)
        if k >= cnt:
            k = cnt - 1
        for a in range(A):
            if M[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def check_batch_size(batch_size) -> int:
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    return int(batch_size)


class BatchEngine:
    """B games of one config in integer rows `S` (B, K.ROW), PCG64 rows `RS`, masks `M`; see the module docstring."""

    K = None            # the game's kernels module

    def _arrays(self, batch_size: int, num_players: int, num_actions: int, autoreset: bool) -> None:
        self.B = B = batch_size
        self.num_players = n = num_players
        self.num_actions = num_actions
        self.autoreset = bool(autoreset)
        self.compiled = HAVE_NUMBA
        self.S = np.zeros((B, self.K.ROW), dtype=np.int32)
        self.RS = np.zeros((B, 6), dtype=np.uint64)
        self.SEEDS = np.zeros(B, dtype=np.int64)
        self.M = np.zeros((B, num_actions), dtype=np.bool_)
        self._done = np.zeros(B, dtype=np.bool_)
        self._fseed = np.zeros(B, dtype=np.int64)
        self._fscores = np.zeros((B, n), dtype=np.float64)
        self._freturns = np.zeros((B, n), dtype=np.float64)
        self._ftrunc = np.zeros(B, dtype=np.bool_)
        self._ready = False

    def reset(self, seeds) -> None:
        """Start every game afresh: seeds is one non-negative int (game i gets seeds + i) or B of them."""
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
            seeds = np.arange(self.B, dtype=np.int64) + int(seeds)
        arr = np.asarray(list(seeds) if not isinstance(seeds, np.ndarray) else seeds)
        if arr.shape != (self.B,) or arr.dtype.kind not in "iu":
            raise ValueError(f"seeds must be one int or {self.B} ints, got shape {arr.shape} of {arr.dtype}")
        if (arr < 0).any() or (arr >= 1 << 63).any():
            raise ValueError("seeds must be non-negative ints below 2**63")
        self.K.reset_batch(self.S, self.RS, self.SEEDS, arr.astype(np.int64), self.M, self.TB)
        self._done[:] = False
        self._ready = True

    def step(self, actions, partial: bool = False) -> BatchStep:
        """One action per game for its current player (-1 for a finished game without autoreset).
        partial=True: -1 means "this game waits" (self-play: only the games where an opponent is to move).

        An illegal action raises IllegalActionError naming the game, and no game moves."""
        if not self._ready:
            raise ValueError("call reset(seeds) before step")
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.B,):
            raise ValueError(f"actions must have shape ({self.B},), got {a.shape}")
        bad = self.K.step_batch(self.S, self.RS, self.SEEDS, a, self.M, self.TB, self._done, self._fseed,
                                self._fscores, self._freturns, self._ftrunc, bool(partial))
        if bad >= 0:
            over = bool(self.is_terminal()[bad])
            raise IllegalActionError(int(a[bad]), "game over" if over else "batched game",
                                     int(self.current_player()[bad]),
                                     f"game {bad} of the batch: " + ("finished, expects -1" if over
                                                                     else "not allowed by the rules here"))
        return BatchStep(self._done, self._fseed, self._fscores, self._freturns, self._ftrunc)

    def legal_action_mask(self) -> np.ndarray:
        """(B, num_actions) bool, read-only: each game's legal actions (all False in a finished game)."""
        m = self.M.view()
        m.flags.writeable = False
        return m

    @property
    def seeds(self) -> np.ndarray:
        """(B,) the seed each game in the batch was started with (-1: loaded with `load`)."""
        return self.SEEDS.copy()

    def random_actions(self, rng: np.random.Generator, out: np.ndarray | None = None) -> np.ndarray:
        """(B,) a uniformly drawn legal action per game (-1 in a finished game)."""
        if out is None:
            out = np.empty(self.B, dtype=np.int64)
        random_actions(self.M, rng.random(self.B), out)
        return out

    def _seats(self, seats) -> np.ndarray:
        """The seats argument of observation(): default each game's current player (seat 0 when over)."""
        if seats is None:
            seats = np.maximum(self.current_player(), 0)
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.B,)))
        if ((seats < 0) | (seats >= self.num_players)).any():
            raise ValueError(f"seats must be in 0..{self.num_players - 1}")
        return seats
