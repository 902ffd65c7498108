"""The Roll & Write heuristic over a whole batch: the decision of `agents/roll_write_heuristic.py` for every game
of a `RollWriteBatch` in one compiled loop.

    from virus_envs.roll_write.batched import RollWriteBatch
    from virus_envs.roll_write.batched_heuristic import BatchedHeuristic
    b = RollWriteBatch(1024, num_players=2); b.reset(seeds=0)
    h = BatchedHeuristic(b, "heuristic")            # any spec of that agent: "heuristic:cautious", "heuristic?deny=1"
    b.step(h())                                      # each game's current player moves as the heuristic would

Same decisions, bit for bit: the kernels below restate `RollWriteHeuristic` method by method (the name of
each is in its docstring) on the batch's integer rows instead of `decision.view`, with the same floating-point
operations in the same order, the same walk over the legal actions (ascending ids, first best kept) and the
same tie margins. The scalar agent builds the tables (smoothed points, laboratory advantages, the wildcard's
cost) and checks the parameters, so both read one source. `tests/roll_write/test_rw_batched_heuristic.py`
plays thousands of decisions of both side by side and compares every action.

The heuristic reads only public information (everything on the table), as the scalar one reads only its view.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..core.jit import njit
from .kernels import (CURE, GRID, LAB, LABROW, LOWN, P_A, P_N, P_SLOTS, P_SPEED, P_T, P_TCONTAM, P_WTC, PLACE, PLEN,
                      PTAKEN, RES, T_A1, T_A2, T_BLI, T_BLM, T_BLN, T_FULL, T_KIND, T_SLOTRES, TERM, TRIAL, WDIE,
                      WILD, WILDK, _popcount, current_player)

# the heuristic's table vector HT (float64)
H_SMOOTH = 0          # smoothed research points by boxes crossed (13)
H_MAKE = 13           # chance of making a box value with the dice (13)
H_ADV = 26            # value of a laboratory box by its value (13)
H_EXTRA = 39          # one extra cross-off
H_WILDCOST = 40       # what spending a wildcard must win: its value + save_wildcard
H_LOWGAIN = 41
H_DENY = 42
H_CONTAM = 43         # contaminate_below (0 = never)
NUM_H = 44


@njit(inline=True)
def _box_gain(S, i, p, c, b, TB, HT):
    """RollWriteHeuristic.box_gain: smoothed points of crossing box b of colour c."""
    g = S[i, GRID + 4 * p + c]
    ng = g | (1 << b)
    k = _popcount(g)
    gain = HT[H_SMOOTH + k + 1] - HT[H_SMOOTH + k]
    for t in range(TB[T_BLN + 13 * c + b]):
        m = TB[T_BLM + 26 * c + 2 * b + t]
        icon = TB[T_BLI + 26 * c + 2 * b + t]
        if ng & m == m and TB[T_FULL + icon] & ~S[i, GRID + 4 * p + icon]:
            gain += HT[H_EXTRA]
        elif _popcount(ng & m) == _popcount(m) - 1:
            gain += 0.25                                   # one box from a line
    open_cure = S[i, CURE + 4 * p + c] == 0
    if ng == TB[T_FULL + c] and open_cure:
        gain += TB[P_SPEED]
    elif open_cure and k >= 8:
        gain += 0.4
    return gain


@njit(inline=True)
def _lab_gain(labrow, r, TB, HT):
    """RollWriteHeuristic.lab_gain: smoothed points of crossing laboratory box r (0 if not possible)."""
    if r and not (labrow >> r) & 1 and (TB[T_FULL + 4] >> r) & 1:
        return HT[H_ADV + r]
    return 0.0


@njit(inline=True)
def _place_gain(S, i, p, v, t, TB, HT, check):
    """RollWriteHeuristic.place_gain: (possible, smoothed points) of placing p's die v on target t; `possible`
    is False only when check is set and the scalar method answers None."""
    if t == TB[P_TCONTAM]:
        return True, -float(v)
    if t < 4:
        a0 = S[i, TRIAL + 2 * t]
        if S[i, TRIAL + 2 * t + 1]:
            return not check, 0.0
        box = v if a0 == 0 else a0 + v
        if check and (box > 12 or not ((TB[T_FULL + t] & ~S[i, GRID + 4 * p + t]) >> box) & 1):
            return False, 0.0
        return True, _box_gain(S, i, p, t, box, TB, HT)
    j = t - 4
    if S[i, LAB + j]:
        return not check, 0.0
    prio = 0.3 if not S[i, PTAKEN] else 0.0
    labrow = S[i, LABROW + p]
    if TB[P_SLOTS] == 1:
        r = TB[T_SLOTRES + 49 * j + 7 * v]
        if check and (r == 0 or (labrow >> r) & 1):
            return False, 0.0
        return True, _lab_gain(labrow, r, TB, HT) + prio
    ov = S[i, LAB + (j ^ 1)]
    if ov:
        r = TB[T_SLOTRES + 49 * j + 7 * v + ov]      # the card's result, left die first
        if check and (r == 0 or (labrow >> r) & 1):
            return False, 0.0
        gain = _lab_gain(labrow, r, TB, HT) + prio
        owner = S[i, LOWN + (j ^ 1)]
        if owner != p and HT[H_DENY] != 0.0:
            lq = S[i, LABROW + owner]
            rival = (_lab_gain(lq, r, TB, HT) if not (lq >> r) & 1 else 0.0) + ov
            gain -= HT[H_DENY] * rival
        return True, gain
    # first die: will anyone (still to play this round) complete it? seats in order, their die values ascending
    tot = 0.0
    cnt = 0
    for q in range(TB[P_N]):
        lq = S[i, LABROW + q]
        for w in range(1, 7):
            have = S[i, RES + 7 * q + w]
            if have == 0 or (q == p and w == v and have < 2):
                continue
            r = TB[T_SLOTRES + 49 * j + 7 * v + w]
            if r and not (lq >> r) & 1:
                tot += _lab_gain(labrow, r, TB, HT)
                cnt += 1
    if cnt == 0:
        return True, -0.8 * v + prio
    return True, 0.6 * (tot / cnt) - 0.4 * v + prio


@njit(inline=True)
def _decide(S, M, TB, HT, i, top_of, known):
    """RollWriteHeuristic.act for the current player of game i (top_of, known: scratch rows of 7)."""
    p = current_player(S, i, TB[P_N])
    A = TB[P_A]
    first, cnt = -1, 0
    for a in range(A):
        if M[i, a]:
            if first < 0:
                first = a
            cnt += 1
    if cnt == 1:
        return first
    best, best_a = -1e9, first
    if S[i, PLEN] > 0:                               # extra cross-off: extra_choice
        for a in range(A):
            if M[i, a]:
                b = TB[T_A2 + a]
                v = _box_gain(S, i, p, TB[T_A1 + a], b, TB, HT) + 1.5 * (0.2 - HT[H_MAKE + b])
                if v > best:
                    best, best_a = v, a
        return best_a
    tc = TB[P_TCONTAM]
    below = HT[H_CONTAM]
    for a in range(A):
        if not M[i, a] or TB[T_KIND + a] != PLACE:
            continue
        v, t = TB[T_A1 + a], TB[T_A2 + a]
        _, gain = _place_gain(S, i, p, v, t, TB, HT, False)
        rel = gain + v                                   # over the baseline: contaminate it
        if t != tc and below != 0.0 and v < below and gain < HT[H_LOWGAIN]:
            rel = -1e6                                   # deliberate contamination instead
        if rel > best:
            best, best_a = rel, a
    if S[i, WDIE] == 0 and S[i, WILD + p] > 0:
        for y in range(7):
            known[y] = False
        tmax = TB[P_T] if TB[P_WTC] else tc
        for a in range(A):
            if not M[i, a] or TB[T_KIND + a] != WILDK:
                continue
            x, y = TB[T_A1 + a], TB[T_A2 + a]
            if not known[y]:
                top = -1e9
                for t in range(tmax):
                    ok, gain = _place_gain(S, i, p, y, t, TB, HT, True)
                    if ok and gain > top:
                        top = gain
                top_of[y] = top
                known[y] = True
            rel = top_of[y] + x - HT[H_WILDCOST]
            if rel > best + 1e-9:
                best, best_a = rel, a
    return best_a


@njit
def heuristic_batch(S, M, TB, HT, active, out):
    """out[i] = the heuristic's action for game i's current player where active[i], else -1 (also at the end)."""
    top_of = np.empty(7)                       # best placement of a die changed to y (per decision)
    known = np.zeros(7, dtype=np.bool_)
    for i in range(S.shape[0]):
        if not active[i] or S[i, TERM]:
            out[i] = -1
        else:
            out[i] = _decide(S, M, TB, HT, i, top_of, known)


def heuristic_tables(agent) -> np.ndarray:
    """HT of a scalar RollWriteHeuristic: its tables and parameters as the kernels read them."""
    from virus_envs.agents import roll_write_heuristic as rwh

    if type(agent) is not rwh.RollWriteHeuristic:
        raise ValueError(f"the batched heuristic plays RollWriteHeuristic specs only, not {type(agent).__name__}")
    P = agent.params
    for k in ("contaminate_below", "low_gain", "save_wildcard", "deny"):
        if isinstance(P[k], bool) or not isinstance(P[k], numbers.Real):
            raise ValueError(f"heuristic parameter {k!r} must be a number, got {P[k]!r}")
    HT = np.zeros(NUM_H, dtype=np.float64)
    HT[H_SMOOTH:H_SMOOTH + 13] = rwh._SMOOTH
    HT[H_MAKE:H_MAKE + 13] = rwh._MAKE
    HT[H_ADV:H_ADV + 13] = agent.adv_value
    HT[H_EXTRA] = rwh._EXTRA_VALUE
    HT[H_WILDCOST] = agent.wild_value + P["save_wildcard"]
    HT[H_LOWGAIN] = P["low_gain"]
    HT[H_DENY] = P["deny"]
    HT[H_CONTAM] = P["contaminate_below"]
    return HT


class BatchedHeuristic:
    """The Roll & Write heuristic `spec` as a batched policy over `batch` (a RollWriteBatch)."""

    def __init__(self, batch, spec: str = "heuristic"):
        from virus_envs import agents

        if not isinstance(spec, str) or agents.parse_spec(spec)[0] != "heuristic":
            raise ValueError(f"the batched heuristic takes a 'heuristic' agent spec, got {spec!r}")
        self.batch = batch
        self.spec = spec
        self.HT = heuristic_tables(agents.make(spec, batch.game))
        self._out = np.empty(batch.B, dtype=np.int64)
        self._all = np.ones(batch.B, dtype=np.bool_)

    def __call__(self, active=None) -> np.ndarray:
        """(B,) each game's action for its current player (-1 where the game is over or not `active`); the
        array is reused by the next call."""
        b = self.batch
        act = self._all if active is None else np.ascontiguousarray(active, dtype=np.bool_)
        if act.shape != (b.B,):
            raise ValueError(f"active must have shape ({b.B},), got {act.shape}")
        heuristic_batch(b.S, b.M, b.TB, self.HT, act, self._out)
        return self._out
