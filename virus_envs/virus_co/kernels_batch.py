"""The batch entry points of the Virus & Co kernels: reset, step (autoreset), outcome of B games at once.

The rules they call are `kernels.py`'s (one game's row at a time); `batched.py` owns the arrays
(`core/batch.py`'s BatchEngine calls `reset_batch` and `step_batch` and sizes its rows by `ROW`).
"""
from __future__ import annotations

from ..core import pcg64
from ..core.jit import njit
from .kernels import ROW  # noqa: F401  (BatchEngine's row width)
from .kernels import P_A, P_AUTORESET, P_N, TERM, TOTALS, TRUNC, apply_action, init_game, legal_mask


# -- outcome ------------------------------------------------------------------------------------------------------
@njit
def write_outcome(S, i, TB, scores_out, returns_out):
    """scores() (the totals) and returns() of game i: +1 sole best, 1/k to k tied best, -1 to the others;
    0 to all before the end and on truncation."""
    n = TB[P_N]
    best = -(1 << 40)
    for p in range(n):
        t = S[i, TOTALS + p]
        scores_out[i, p] = t
        returns_out[i, p] = 0.0
        if t > best:
            best = t
    if not S[i, TERM] or S[i, TRUNC]:
        return
    k = 0
    for p in range(n):
        if S[i, TOTALS + p] == best:
            k += 1
    for p in range(n):
        returns_out[i, p] = 1.0 / k if S[i, TOTALS + p] == best else -1.0


# -- batch entry points -----------------------------------------------------------------------------------------
@njit
def reset_batch(S, RS, SEEDS, seeds, M, TB):
    """Every game i starts afresh with seeds[i]; masks written."""
    for i in range(S.shape[0]):
        init_game(S, RS, SEEDS, i, seeds[i], TB)
        legal_mask(S, i, M, TB)


@njit
def step_batch(S, RS, SEEDS, actions, M, TB, done, fseed, fscores, freturns, ftrunc, partial):
    """One action per game (-1 for a finished game that waits for reset; with `partial`, -1 also lets a
    game wait). Returns the index of the first illegal action, or -1; nothing changes unless every
    action is legal. A game that ends has its seed, scores, returns and truncation written to the f*
    outputs and, with autoreset, starts its next game (seed pcg64.next_seed of the last)."""
    B = S.shape[0]
    A = TB[P_A]
    for i in range(B):
        a = actions[i]
        if S[i, TERM] or (partial and a == -1):
            if a != -1:
                return i
        elif a < 0 or a >= A or not M[i, a]:
            return i
    for i in range(B):
        done[i] = False
        if S[i, TERM] or actions[i] == -1:
            continue
        apply_action(S, RS, i, actions[i], TB)
        if S[i, TERM]:
            done[i] = True
            fseed[i] = SEEDS[i]
            ftrunc[i] = S[i, TRUNC] != 0
            write_outcome(S, i, TB, fscores, freturns)
            if TB[P_AUTORESET]:
                init_game(S, RS, SEEDS, i, pcg64.next_seed(SEEDS[i]), TB)
        legal_mask(S, i, M, TB)
    return -1


@njit
def outcome_batch(S, TB, scores_out, returns_out):
    for i in range(S.shape[0]):
        write_outcome(S, i, TB, scores_out, returns_out)
