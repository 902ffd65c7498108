"""The Roll & Write rules as per-game kernels over integer rows (compiled by numba when installed).

This is `game.py`'s rules, line for line, on a flat int32 row per game instead of Python lists, so
that B games step in one compiled loop. Each function names the method of `RollWriteState` it
mirrors; the rulebook sentences are quoted there (and again here where a line implements one).
`batched.py` builds the tables from a `RollWriteGame` and owns the arrays; the test
`tests/roll_write/test_rw_batched.py` plays both engines side by side on the same seeds and actions.

Row layout of one game (`S[i]`, int32; offsets below). Pending decisions are one int each,
seat * 16 + kind * 8 + (colour + 1) (kind 0 = extra cross-off, 1 = circle a wildcard; colour -1 =
any disease); cures found during a placement are seat * 4 + colour, in the order they were found.
Dice come from a numpy-identical PCG64 per game (`core/pcg64.py`, row `RS[i]`), so a game seeded
with s rolls exactly what `RollWriteGame.new_initial_state(seed=s)` rolls.
"""
from __future__ import annotations

import numpy as np

from ..core import pcg64
from ..core.jit import njit

# -- the row of one game ------------------------------------------------------------------------
RND, PRIO, STARTER, PTAKEN, PLACED, WDIE, TURNS, TERM, TRUNC, PLEN, FOUNDN = range(11)
TRIAL = 11        # 8 trial slots (card-major: blue left, blue right, red left, ...)
TOWN = 19         # their owners (-1 = empty)
LAB = 27          # up to 4 laboratory slots
LOWN = 31         # their owners
RES = 35          # reserve: 4 seats x 7 (index = die value)
CONTAM = 63       # contaminated samples card this round: 4 x 7
GRID = 91         # disease grids: 4 seats x 4 colours, bitmask over box values
LABROW = 107      # laboratory row bitmask per seat
WILD = 111        # circled, unused wildcards per seat
WUSED = 115       # crossed-off wildcards per seat
VSUM = 119        # virus tube total per seat
CURE = 123        # 4 seats x 4 colours: 0 open, 1 speed bonus, 2 crossed out
FOUND = 139       # up to 16 (seat, colour) grids completed during the placement being resolved
PEND = 155        # pending decisions, front first
QCAP = 32         # enough: a placement queues <= 2, each extra cross-off replaces itself by <= 2 (28 lines)
VIRUS = PEND + QCAP   # virus tube: 4 seats x MAXR round totals
MAXR = 16
ROW = VIRUS + 4 * MAXR
K_EXTRA, K_CIRCLE = 0, 1

# -- the parameter vector P (one game config) --------------------------------------------------
(P_N, P_DICE, P_PERROUND, P_SLOTS, P_L, P_T, P_TCONTAM, P_CROSS0, P_CIRCLE, P_ROUNDS, P_MAXTURNS, P_WTC,
 P_WBOXES, P_WSTART, P_SPEED, P_WPTS, P_FIRST, P_A, P_OBS, P_LR, P_K, P_CARD0, P_CARD1, P_AUTORESET,
 O_GRID, O_LAB, O_WILD, O_VIRUS, O_CURE, O_RES, O_CON, O_TRIAL, O_TRIALOWN, O_LABSLOT, O_LABOWN,
 O_LABCARDS, O_ROUND, O_PRIO, O_PTAKEN, O_DEC, O_XCOL, O_CHG, NUM_P) = range(43)
# the table vector TB: P first (so TB[P_N] is the player count), then the game's tables
T_FULL = 64           # 4 grid masks, then the laboratory row's
T_BLM = 72            # box_lines masks [colour, value, 2]
T_BLI = T_BLM + 104   # their icon colours
T_BLN = T_BLI + 104   # how many lines pass through a box [colour, value]
T_LABADV = T_BLN + 52     # laboratory advantage by value
T_SLOTRES = T_LABADV + 13     # result of die v in lab slot j beside o [j, v, o] (0 = not allowed)
T_WILDID = T_SLOTRES + 196    # action id of "wildcard x->y" [x, y]
T_PTS = T_WILDID + 49         # research points by boxes crossed
T_LABPOS = T_PTS + 13         # column of a laboratory value in the observation's lab_row (-1: none)
T_KIND = T_LABPOS + 13        # action table: kind, first and second argument (at most MAXA actions)
MAXA = 160
T_A1 = T_KIND + MAXA
T_A2 = T_A1 + MAXA
NUM_TB = T_A2 + MAXA
# action kinds (actions.py)
PLACE, WILDK, CROSS, CIRCLE = 0, 1, 2, 3


@njit(inline=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(inline=True)
def current_player(S, i, n):
    """RollWriteState.current_player: the pending decision's seat, else the turn player; -1 at the end."""
    if S[i, TERM]:
        return -1
    if S[i, PLEN] > 0:
        return S[i, PEND] // 16
    return (S[i, STARTER] + S[i, PLACED]) % n


# -- pending decisions ----------------------------------------------------------------------------
@njit(inline=True)
def _push_front(S, i, e0, e1, k):
    if k == 0:
        return
    m = S[i, PLEN]
    for t in range(m - 1, -1, -1):
        S[i, PEND + t + k] = S[i, PEND + t]
    S[i, PEND] = e0
    if k == 2:
        S[i, PEND + 1] = e1
    S[i, PLEN] = m + k


@njit(inline=True)
def _push_back(S, i, e):
    S[i, PEND + S[i, PLEN]] = e
    S[i, PLEN] += 1


@njit(inline=True)
def _pop_front(S, i):
    m = S[i, PLEN]
    for t in range(1, m):
        S[i, PEND + t - 1] = S[i, PEND + t]
    S[i, PEND + m - 1] = 0
    S[i, PLEN] = m - 1


# -- rules ------------------------------------------------------------------------------------------
@njit(inline=True)
def _start_round(S, RS, i, TB):
    """_start_round: 'Roll the dice!' once per round; 'Starting with the player who has the priority access card'."""
    n, L = TB[P_N], TB[P_L]
    S[i, STARTER] = S[i, PRIO]
    S[i, PTAKEN] = 0
    S[i, PLACED] = 0
    for k in range(8):
        S[i, TRIAL + k] = 0
        S[i, TOWN + k] = -1
    for k in range(L):
        S[i, LAB + k] = 0
        S[i, LOWN + k] = -1
    for k in range(28):
        S[i, CONTAM + k] = 0
        S[i, RES + k] = 0
    # rng.integers(1, 7, size=(n, dice)): C order, one bounded draw each
    for p in range(n):
        for _ in range(TB[P_DICE]):
            v = 1 + pcg64.bounded(RS, i, 6)
            S[i, RES + 7 * p + v] += 1


@njit
def init_game(S, RS, SEEDS, i, seed, TB):
    """RollWriteState._init: empty sheets, one wildcard circled each, priority with first_player, first roll."""
    for k in range(ROW):
        S[i, k] = 0
    pcg64.seed_row(RS, i, seed)
    SEEDS[i] = seed
    n = TB[P_N]
    fp = TB[P_FIRST]
    if fp < 0:
        fp = pcg64.bounded(RS, i, n)
    S[i, PRIO] = fp
    S[i, STARTER] = fp
    for p in range(n):
        S[i, WILD + p] = TB[P_WSTART]
    _start_round(S, RS, i, TB)


@njit(inline=True)
def _contaminate(S, i, p, v):
    S[i, CONTAM + 7 * p + v] += 1


@njit(inline=True)
def _cross(S, i, p, c, v, TB):
    """_cross: a completed row/column queues its extra cross-off first (chains are resolved at once)."""
    gm = S[i, GRID + 4 * p + c] | (1 << v)
    S[i, GRID + 4 * p + c] = gm
    if gm == TB[T_FULL + c]:
        S[i, FOUND + S[i, FOUNDN]] = 4 * p + c
        S[i, FOUNDN] += 1
    k, e0, e1 = 0, 0, 0
    for t in range(TB[T_BLN + 13 * c + v]):
        m = TB[T_BLM + 26 * c + 2 * v + t]
        if gm & m == m:
            e = 16 * p + K_EXTRA * 8 + TB[T_BLI + 26 * c + 2 * v + t] + 1
            if k == 0:
                e0 = e
            else:
                e1 = e
            k += 1
    _push_front(S, i, e0, e1, k)


@njit(inline=True)
def _cross_lab(S, i, p, res, TB):
    """_cross_lab: the laboratory box and its advantage ('You must carry out the ... advantage')."""
    S[i, LABROW + p] |= 1 << res
    adv = TB[T_LABADV + res]
    if adv == 1:
        _push_back(S, i, 16 * p + K_EXTRA * 8 + 0)       # any disease
    elif adv == 2:
        _push_back(S, i, 16 * p + K_CIRCLE * 8 + 1)


@njit(inline=True)
def _place(S, i, p, t, v, TB):
    """_place: put p's die showing v on target t and cross off what it gives."""
    S[i, RES + 7 * p + v] -= 1
    if t < 4:
        if S[i, TRIAL + 2 * t] == 0:
            S[i, TRIAL + 2 * t] = v
            S[i, TOWN + 2 * t] = p
            _cross(S, i, p, t, v, TB)
        else:
            # "cross off ... the value of the sum of both dice"
            S[i, TRIAL + 2 * t + 1] = v
            S[i, TOWN + 2 * t + 1] = p
            _cross(S, i, p, t, S[i, TRIAL + 2 * t] + v, TB)
        return
    if t == TB[P_TCONTAM]:
        _contaminate(S, i, p, v)
        return
    j = t - 4
    if S[i, PTAKEN] == 0:
        # "the first player to place a die on one of the laboratory cards takes the priority access card"
        S[i, PTAKEN] = 1
        S[i, PRIO] = p
    S[i, LAB + j] = v
    S[i, LOWN + j] = p
    if TB[P_SLOTS] == 1:
        _cross_lab(S, i, p, TB[T_SLOTRES + 49 * j + 7 * v + 0], TB)
        return
    o = j ^ 1
    if S[i, LAB + o] == 0:
        return      # "You must wait until someone completes the card"
    res = S[i, LAB + (j & ~1)] + S[i, LAB + (j | 1)]
    _cross_lab(S, i, p, res, TB)
    q = S[i, LOWN + o]
    # "If you placed first and ... you cannot cross off the resulting box, you cross off nothing."
    if q != p and not (S[i, LABROW + q] >> res) & 1:
        _cross_lab(S, i, q, res, TB)


@njit(inline=True)
def _check_cures(S, i, n):
    """_check_cures: every finder of an unclaimed colour gets the speed bonus; the others cross the box out."""
    fn = S[i, FOUNDN]
    for c in range(4):
        finders = 0
        for k in range(fn):
            e = S[i, FOUND + k]
            if e % 4 == c and S[i, CURE + 4 * (e // 4) + c] == 0:
                finders |= 1 << (e // 4)
        if finders:
            for q in range(n):
                S[i, CURE + 4 * q + c] = 1 if (finders >> q) & 1 else 2
    for k in range(fn):
        S[i, FOUND + k] = 0
    S[i, FOUNDN] = 0


@njit(inline=True)
def _end_round(S, RS, i, TB):
    """_end_round: lone laboratory dice contaminated, virus tubes written, next round or the end."""
    n = TB[P_N]
    if TB[P_SLOTS] == 2:
        # "Do the same with dice that were left alone in a double laboratory slot"
        for j in range(0, TB[P_L], 2):
            for h in range(2):
                a, b = j + h, j + 1 - h
                if S[i, LAB + a] and not S[i, LAB + b]:
                    _contaminate(S, i, S[i, LOWN + a], S[i, LAB + a])
                    S[i, LAB + a] = 0
                    S[i, LOWN + a] = -1
    r = S[i, RND]
    for p in range(n):
        tot = 0
        for v in range(1, 7):
            tot += v * S[i, CONTAM + 7 * p + v]
        S[i, VIRUS + MAXR * p + r] = tot
        S[i, VSUM + p] += tot
    S[i, RND] = r + 1
    if r + 1 >= TB[P_ROUNDS]:
        S[i, TERM] = 1
    else:
        _start_round(S, RS, i, TB)


@njit(inline=True)
def _settle(S, RS, i, TB):
    """_settle: drop decisions that cannot be carried out; a resolved placement claims cures and moves on."""
    n = TB[P_N]
    while S[i, PLEN] > 0:
        e = S[i, PEND]
        q, kind, col = e // 16, (e // 8) % 2, e % 8 - 1
        ok = False
        if kind == K_EXTRA:
            if col < 0:
                for c in range(4):
                    if TB[T_FULL + c] & ~S[i, GRID + 4 * q + c]:
                        ok = True
            else:
                ok = (TB[T_FULL + col] & ~S[i, GRID + 4 * q + col]) != 0
        else:
            ok = S[i, WILD + q] + S[i, WUSED + q] < TB[P_WBOXES]
        if ok:
            return
        _pop_front(S, i)
    if S[i, WDIE]:
        return
    if S[i, FOUNDN]:
        _check_cures(S, i, n)
    S[i, PLACED] += 1
    if S[i, PLACED] >= TB[P_PERROUND]:
        _end_round(S, RS, i, TB)


@njit
def apply_action(S, RS, i, a, TB):
    """RollWriteState._apply: carry out a legal action, then resolve what follows until a decision is needed."""
    p = current_player(S, i, TB[P_N])
    kind = TB[T_KIND + a]
    if kind == PLACE:
        S[i, WDIE] = 0
        _place(S, i, p, TB[T_A2 + a], TB[T_A1 + a], TB)
    elif kind == WILDK:
        # "cross off a wildcard you previously circled to change the value of one of your dice"
        x, y = TB[T_A1 + a], TB[T_A2 + a]
        S[i, RES + 7 * p + x] -= 1
        S[i, RES + 7 * p + y] += 1
        S[i, WILD + p] -= 1
        S[i, WUSED + p] += 1
        S[i, WDIE] = y
    elif kind == CROSS:
        _pop_front(S, i)
        _cross(S, i, p, TB[T_A1 + a], TB[T_A2 + a], TB)
    else:   # "circle an empty box in your wildcard tube"
        _pop_front(S, i)
        S[i, WILD + p] += 1
    _settle(S, RS, i, TB)
    S[i, TURNS] += 1
    if not S[i, TERM] and S[i, TURNS] >= TB[P_MAXTURNS]:
        S[i, TERM] = 1
        S[i, TRUNC] = 1


@njit
def legal_mask(S, i, M, TB):
    """RollWriteState._compute_mask into M[i] (all False at the end of a game)."""
    for a in range(TB[P_A]):
        M[i, a] = False
    if S[i, TERM]:
        return
    n = TB[P_N]
    p = current_player(S, i, n)
    if S[i, PLEN] > 0:
        e = S[i, PEND]
        kind, col = (e // 8) % 2, e % 8 - 1
        if kind == K_CIRCLE:
            M[i, TB[P_CIRCLE]] = True
            return
        for c in range(4):
            if col >= 0 and c != col:
                continue
            free = TB[T_FULL + c] & ~S[i, GRID + 4 * p + c]
            for v in range(1, 13):
                if (free >> v) & 1:
                    M[i, TB[P_CROSS0] + 12 * c + v - 1] = True
        return
    wd = S[i, WDIE]
    vm = 0
    if wd:
        vm = 1 << wd
    else:
        for v in range(1, 7):
            if S[i, RES + 7 * p + v]:
                vm |= 1 << v
    T = TB[P_T]
    cards = 0            # die values some trial or laboratory slot takes now
    for c in range(4):
        a0 = S[i, TRIAL + 2 * c]
        free = TB[T_FULL + c] & ~S[i, GRID + 4 * p + c]
        if a0 == 0:
            ok = free
        elif S[i, TRIAL + 2 * c + 1] == 0:
            ok = free >> a0          # bit v: the box a0 + v ("the sum of both dice")
        else:
            continue                 # "If the card has both slots occupied, you cannot place your die on it"
        cards |= ok
        ok &= vm
        for v in range(1, 7):
            if (ok >> v) & 1:
                M[i, (v - 1) * T + c] = True
    labfree = TB[T_FULL + 4] & ~S[i, LABROW + p]
    two = TB[P_SLOTS] == 2
    for j in range(TB[P_L]):
        if S[i, LAB + j]:
            continue
        o = 0
        if two:
            o = S[i, LAB + (j ^ 1)]
            if o == 0:
                cards |= 126
                for v in range(1, 7):
                    if (vm >> v) & 1:
                        M[i, (v - 1) * T + 4 + j] = True     # first die: nothing to cross yet
                continue
        # "You must be able to cross off the resulting box and meet the condition"
        ok = 0
        for v in range(1, 7):
            r = TB[T_SLOTRES + 49 * j + 7 * v + o]
            if r and (labfree >> r) & 1:
                ok |= 1 << v
        cards |= ok
        ok &= vm
        for v in range(1, 7):
            if (ok >> v) & 1:
                M[i, (v - 1) * T + 4 + j] = True
    wtc = TB[P_WTC] != 0
    if wtc or not wd:
        tc = TB[P_TCONTAM]
        for v in range(1, 7):
            if (vm >> v) & 1:
                M[i, (v - 1) * T + tc] = True        # contaminated samples: always possible
    if not wd and S[i, WILD + p] > 0:
        for x in range(1, 7):
            if (vm >> x) & 1:
                for y in range(1, 7):
                    if y != x and (wtc or (cards >> y) & 1):
                        M[i, TB[T_WILDID + 7 * x + y]] = True


@njit
def score_of(S, i, p, TB):
    """RollWriteState.score_of: research + speed bonuses + 3 per circled wildcard - virus tube."""
    s = 0
    cures = 0
    for c in range(4):
        s += TB[T_PTS + _popcount(S[i, GRID + 4 * p + c])]
        if S[i, CURE + 4 * p + c] == 1:
            cures += 1
    return s + TB[P_SPEED] * cures + TB[P_WPTS] * S[i, WILD + p] - S[i, VSUM + p]


@njit
def _rank_key(S, i, p, score):
    """(points, laboratory boxes, -contamination) as one int: the rulebook's order of tie-breaks."""
    return (score * 1024 + _popcount(S[i, LABROW + p])) * 1024 + (1023 - S[i, VSUM + p])


@njit
def write_outcome(S, i, TB, scores_out, returns_out):
    """scores() and returns() of game i into row i of the outputs.

    "Whoever has scored the most points has won"; ties: most laboratory boxes, then lowest
    contamination, then the tied players "share the victory" (1/k each, -1 to the others)."""
    n = TB[P_N]
    best = -(1 << 60)
    for p in range(n):
        sc = score_of(S, i, p, TB)
        scores_out[i, p] = sc
        returns_out[i, p] = 0.0
        best = max(best, _rank_key(S, i, p, sc))
    if not S[i, TERM] or S[i, TRUNC]:
        return
    k = 0
    for p in range(n):
        if _rank_key(S, i, p, score_of(S, i, p, TB)) == best:
            k += 1
    for p in range(n):
        if _rank_key(S, i, p, score_of(S, i, p, TB)) == best:
            returns_out[i, p] = 1.0 / k
        else:
            returns_out[i, p] = -1.0


# -- batch entry points ---------------------------------------------------------------------------------
@njit
def reset_batch(S, RS, SEEDS, seeds, M, TB):
    """Every game i starts afresh with seeds[i]; masks written."""
    for i in range(S.shape[0]):
        init_game(S, RS, SEEDS, i, seeds[i], TB)
        legal_mask(S, i, M, TB)


@njit
def step_batch(S, RS, SEEDS, actions, M, TB, done, fseed, fscores, freturns, ftrunc, partial):
    """One action per game (-1 for a finished game that waits for reset; with `partial`, -1 also lets a
    game wait while others move). Returns the index of the first illegal action, or -1; nothing is
    changed unless every action is legal. A game that ends has its
    seed, scores, returns and truncation written to the f* outputs and, with autoreset, starts its next
    game (seed pcg64.next_seed of the last)."""
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


@njit
def observe_batch(S, seats, TB, FS, OUT):
    """RollWriteState.observation(seats[i]) for every game into OUT (zeroed here): seat-relative float32."""
    n, L = TB[P_N], TB[P_L]
    Lr, K = TB[P_LR], TB[P_K]
    ws, ds, cs = FS[0], FS[1], FS[2]
    for i in range(S.shape[0]):
        o = OUT[i]
        for k in range(TB[P_OBS]):
            o[k] = 0.0
        p = seats[i]
        for r in range(n):           # player blocks: observer first, then clockwise
            q = (p + r) % n
            for c in range(4):
                gm = S[i, GRID + 4 * q + c]
                for v in range(1, 13):
                    if (gm >> v) & 1:
                        o[TB[O_GRID] + 48 * r + 12 * c + v - 1] = 1.0
                cu = S[i, CURE + 4 * q + c]
                if cu:
                    o[TB[O_CURE] + 8 * r + 2 * c + cu - 1] = 1.0
            lr = S[i, LABROW + q]
            for v in range(1, 13):
                if (lr >> v) & 1 and TB[T_LABPOS + v] >= 0:
                    o[TB[O_LAB] + Lr * r + TB[T_LABPOS + v]] = 1.0
            o[TB[O_WILD] + 2 * r] = S[i, WILD + q] * ws
            o[TB[O_WILD] + 2 * r + 1] = S[i, WUSED + q] * ws
            o[TB[O_VIRUS] + r] = S[i, VSUM + q] * cs
            for v in range(1, 7):
                o[TB[O_RES] + 6 * r + v - 1] = S[i, RES + 7 * q + v] * ds
                o[TB[O_CON] + 6 * r + v - 1] = S[i, CONTAM + 7 * q + v] * ds
        for k in range(8):
            v = S[i, TRIAL + k]
            if v:
                o[TB[O_TRIAL] + 6 * k + v - 1] = 1.0
                o[TB[O_TRIALOWN] + n * k + (S[i, TOWN + k] - p) % n] = 1.0
        for j in range(L):
            v = S[i, LAB + j]
            if v:
                o[TB[O_LABSLOT] + 6 * j + v - 1] = 1.0
                o[TB[O_LABOWN] + n * j + (S[i, LOWN + j] - p) % n] = 1.0
        o[TB[O_LABCARDS] + TB[P_CARD0]] = 1.0
        o[TB[O_LABCARDS] + K + TB[P_CARD1]] = 1.0
        o[TB[O_PRIO] + (S[i, PRIO] - p) % n] = 1.0
        if S[i, PTAKEN]:
            o[TB[O_PTAKEN]] = 1.0
        if S[i, TERM]:
            continue
        o[TB[O_ROUND] + S[i, RND]] = 1.0
        if S[i, PLEN] > 0:
            e = S[i, PEND]
            if (e // 8) % 2 == K_EXTRA:
                o[TB[O_DEC] + 2] = 1.0
                col = e % 8 - 1
                o[TB[O_XCOL] + (4 if col < 0 else col)] = 1.0
            else:
                o[TB[O_DEC] + 3] = 1.0
        elif S[i, WDIE]:
            o[TB[O_DEC] + 1] = 1.0
            o[TB[O_CHG] + S[i, WDIE] - 1] = 1.0
        else:
            o[TB[O_DEC]] = 1.0

