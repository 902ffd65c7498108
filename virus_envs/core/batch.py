"""What every batched engine shares: B games in arrays, reset, step, masks, observation, returns.

A game's batched engine (`roll_write/batched.py`, `virus_cards/batched.py`, `virus_co/batched.py`)
subclasses `BatchEngine`, sets `K` to its kernels module and `GAME` to its Game class, and builds its
table vector `TB`. The kernels module provides `reset_batch(S, RS, SEEDS, seeds, M, TB)`,
`step_batch(S, RS, SEEDS, actions, M, TB, done, fseed, fscores, freturns, ftrunc, partial)` (returning
the first illegal game or -1), `outcome_batch(S, TB, scores_out, returns_out)` (behind `_outcome()`,
for `scores()` / `returns()`) and its row width `ROW`. The subclass sets `game` (from `_game(...)`) and
`observation_shape`, and provides `is_terminal()`, `current_player()`, `_observe(seats, out)` (behind
`observation(seats)`), `scores()`, `to_dict(i)` and `load(i, state)` (which may end with `_put`; the
kernels then provide `legal_mask(S, i, M, TB)`); `state(i)` is
`game.state_from_dict(to_dict(i))`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import pcg64
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
    GAME = None         # the game's Game class

    def _game(self, num_players, game, config):
        """The Game the batch plays: `game` as given, or GAME(num_players, **config); never both."""
        if game is None:
            return self.GAME(num_players, **config)
        if num_players is not None or config:
            raise ValueError("give either game= or num_players/config, not both")
        if not isinstance(game, self.GAME):
            raise ValueError(f"game must be a {self.GAME.__name__}, got {type(game).__name__}")
        return game

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

    def observation(self, seats=None, out: np.ndarray | None = None) -> np.ndarray:
        """(B, obs_size) float32: observation(seats[i]) of each game (default: its current player, or seat 0
        in a finished game)."""
        seats = self._seats(seats)
        if out is None:
            out = np.empty((self.B,) + self.observation_shape, dtype=np.float32)
        self._observe(seats, out)
        return out

    def _observe(self, seats: np.ndarray, out: np.ndarray) -> None:
        """Write each game's observation for seats[i] into out[i] (the game's observation kernel)."""
        raise NotImplementedError

    def _seats(self, seats) -> np.ndarray:
        """The seats argument of observation(): default each game's current player (seat 0 when over)."""
        if seats is None:
            seats = np.maximum(self.current_player(), 0)
        seats = np.ascontiguousarray(np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.B,)))
        if ((seats < 0) | (seats >= self.num_players)).any():
            raise ValueError(f"seats must be in 0..{self.num_players - 1}")
        return seats

    def returns(self) -> np.ndarray:
        """(B, n) returns (0 until a game ends; without autoreset a finished game keeps them)."""
        return self._outcome()[1]

    def _outcome(self):
        """(scores, returns) of every game as it stands, each (B, n), from the kernels' outcome_batch."""
        sc = np.zeros((self.B, self.num_players))
        r = np.zeros_like(sc)
        self.K.outcome_batch(self.S, self.TB, sc, r)
        return sc, r

    def _check_slot(self, i) -> int:
        """`load`'s first step in every game: the slot must be an int in 0..B-1 (a ValueError naming it)."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.B:
            raise ValueError(f"slot must be an int in 0..{self.B - 1}, got {i!r}")
        return int(i)

    def _put(self, i: int, row: np.ndarray, rng_state: dict) -> None:
        """Slot i becomes a loaded game (`load`'s end): its row, its generator; the mask is recomputed, the
        seed becomes -1 (unknown: the game did not start from a seed here)."""
        pcg64.from_state_dict(rng_state, self.RS[i])
        self.S[i] = row
        self.SEEDS[i] = -1
        self.K.legal_mask(self.S, i, self.M, self.TB)
        self._ready = True

    def state(self, i: int):
        """Game i as a scalar state of `game` (a copy: the batch goes on without it)."""
        return self.game.state_from_dict(self.to_dict(i))
