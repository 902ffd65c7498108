"""The Virus & Co rules as per-game kernels over integer rows (compiled by numba when installed).

This is `game.py`'s rules, method for method, on a flat int32 row per game instead of Python lists,
so that B games step in one compiled loop. Each function names the method of `VirusCoState` it
mirrors; the rulebook sentences are quoted there (and again here where a line implements one).
`batched.py` builds the table vector from a `VirusCoGame` and owns the arrays; the observation
kernel is in `kernels_obs.py`, the batch entry points (reset, step with autoreset) in `kernels_batch.py`;
`tests/virus_co/test_vco_batched.py` plays both engines side by side.

Every list of the scalar state becomes a fixed-capacity slice of the row with a length (the order
of the list kept: displays in the order the viruses came, hands and the box sorted, the used pile
in the order the cards were spent). Chance: the deal of each round is numpy's `permutation` on a
numpy-identical PCG64 per game (`core/pcg64.py`, row `RS[i]`), so a game seeded with s deals
exactly what `VirusCoGame.new_initial_state(seed=s)` deals.
"""
from __future__ import annotations

import numpy as np

from ..core import pcg64
from ..core.jit import njit
from .actions import A_CIRC, A_KEEP, A_PASS, A_PILL0, A_RISK0, A_SEAT0, A_TAKE
from .cards import (KIND_SYRINGE, R_DIAGNOSIS, R_DOCTOR, R_GUINEA, R_INFECTION, R_INJECTION, R_MEDICARE, R_NURSE,
                    R_PLAGUE2, R_PLAGUE3, R_PRESCRIPTION, R_RECALL, R_TRIAL, R_USEBY)
from .tables import (ICU_ILLNESS, ICU_POINTS, ICU_SYRINGES, PH_DIAG, PH_FEE, PH_GIVE_PILL, PH_GIVE_TO, PH_GUINEA,
                     PH_INFECTION, PH_NURSE, PH_PASS, PH_PAY, PH_PAY_PHARM, PH_PLAGUE, PH_RETURN_PILL, PH_RISK_BACK,
                     PH_RISK_OFFER, PH_RISK_PASS, PH_RISK_TARGET, PH_SYRINGE, PH_TURN, PH_WARD, RISK_MIN_ILLNESS)

# -- capacities ------------------------------------------------------------------------------------
MAXN = 6          # seats
CCAP = 64         # cards of a catalogue (38 virus cards + 20 risk cards)
SCAP = 38         # cards of one stack
VCAP = 44         # viruses in one display (every card of value > 0: 38 virus cards + 6 Plague cards at most)
SYCAP = 3         # syringes in one display: "A third syringe ... leads straight to the INTENSIVE CARE UNIT"
HCAP = 20         # risk cards in a hand, in front of a seat, in the box, in the used pile
MAXR = 16         # rounds
NT = 13           # risk types

# -- the row of one game (S[i], int32) ---------------------------------------------------------------
(RND, TURNS, TRUNC, TERM, ACTIVE, CUR, PH, DOCTOR, CIRC, GIVER, REQ, RC, ISSUER, KEEPER, PEND, PAYNEED, GIVECOL,
 FEETO, FEEPH, ICU, NQ, NQC, NUSED, NRBOX) = range(24)
_o = 24


def _take(k):
    global _o
    a = _o
    _o += k
    return a


PILLS = _take(3 * MAXN)       # supply per seat and colour
STAKE = _take(3 * MAXN)       # put-up stake per seat and colour
PHARM = _take(3)
BOX = _take(3)
PAYSTART = _take(3)
PAYADD = _take(3)
PUB = _take(NT)               # risk cards turned over this round per type
NURSE = _take(MAXN)
DIAG = _take(MAXN)
TOTALS = _take(MAXN)
QUEUE = _take(MAXN)           # seats that must return a pill, front first
QCOL = _take(3)               # Guinea Pig colours still to take, front first
NSTACK = _take(2)             # cards in each stack
STACK = _take(2 * SCAP)       # each stack bottom first: the face-up card is the last
NVIR = _take(MAXN)
VIR = _take(MAXN * VCAP)      # each display's viruses, in the order they came
NSYRS = _take(MAXN)
SYR = _take(MAXN * SYCAP)     # each display's syringes (cards and Injections)
NHAND = _take(MAXN)
HAND = _take(MAXN * HCAP)     # risk hands, sorted
NFRONT = _take(MAXN)
FRONT = _take(MAXN * HCAP)    # Nurse, Diagnosis, Mr. Doctor before their keeper
RBOX = _take(HCAP)            # "return these to the box without looking at them", sorted
USED = _take(HCAP)            # risk cards whose effect is spent
ON = _take(CCAP)              # per card: the virus a syringe lies on (-1)
NSYR = _take(CCAP)            # per card: syringes on it
HIST = _take(MAXR * MAXN)     # round scores
ROW = _o

# -- the table vector TB (one game config) -----------------------------------------------------------
(P_N, P_NV, P_SIZE, P_ROUNDS, P_MAXTURNS, P_FIRST, P_FEE, P_INJON, P_CROSSG, P_A, P_OBS, P_AUTORESET,
 P_DR, P_DW, P_NH, P_NI, P_NPRESC, P_NGUINEA) = range(18)
O_BASE = 20                   # the 28 observation field offsets (encoding.layout order)
NUM_O = 28
MAXA = 96
T_KIND = 64
T_VAL = T_KIND + CCAP
T_CROSS = T_VAL + CCAP
T_RT = T_CROSS + CCAP
T_SHOWN = T_RT + CCAP         # pills shown [card, colour]
T_CA = T_SHOWN + 3 * CCAP     # card -> action id (-1)
T_VIDX = T_CA + CCAP          # card -> index among the cards of value > 0 (-1)
T_AC = T_VIDX + CCAP          # action -> card id (-1)
T_PRESC = T_AC + MAXA         # Prescription's colours
T_GUINEA = T_PRESC + 3        # Guinea Pig's colours
T_START = T_GUINEA + 3        # pills per seat and for the pharmacy, per colour
T_TOTAL = T_START + 3         # pills in the game per colour
NUM_TB = T_TOTAL + 3


# -- small list helpers -------------------------------------------------------------------------------
@njit(inline=True)
def _del_at(S, i, base, cnt, k):
    """del list[k] of the list at S[i, base:base+S[i, cnt]]."""
    m = S[i, cnt]
    for t in range(k + 1, m):
        S[i, base + t - 1] = S[i, base + t]
    S[i, base + m - 1] = 0
    S[i, cnt] = m - 1


@njit(inline=True)
def _push(S, i, base, cnt, v):
    S[i, base + S[i, cnt]] = v
    S[i, cnt] += 1


@njit(inline=True)
def _insert_sorted(S, i, base, cnt, v):
    m = S[i, cnt]
    k = m
    while k > 0 and S[i, base + k - 1] > v:
        S[i, base + k] = S[i, base + k - 1]
        k -= 1
    S[i, base + k] = v
    S[i, cnt] = m + 1


@njit(inline=True)
def _pill_sum(S, i, q):
    return S[i, PILLS + 3 * q] + S[i, PILLS + 3 * q + 1] + S[i, PILLS + 3 * q + 2]


@njit(inline=True)
def _eff(v, k):
    """EFF[value][syringes]: "The first syringe on a virus halves its value, rounding up. The second ... ZERO." """
    if k == 0:
        return v
    if k == 1:
        return (v + 1) // 2
    return 0


@njit(inline=True)
def illness(S, i, p, TB):
    """VirusCoState.illness: recomputed from the display."""
    s = 0
    for k in range(S[i, NVIR + p]):
        v = S[i, VIR + VCAP * p + k]
        s += _eff(TB[T_VAL + v], S[i, NSYR + v])
    return s


@njit(inline=True)
def next_pills(need, b, y, r, ab, ay, ar):
    """payment.next_pills as a bit mask (bit c: colour c may be added next): colours that keep some legal
    way (exact, else a minimal overpay) of paying `need` from (b, y, r) open, given (ab, ay, ar) added."""
    if need <= 0:
        return 0
    exact = False
    for nr in range(min(r, (need + 2) // 3) + 1):
        for ny in range(min(y, (need + 1) // 2) + 1):
            for nb in range(min(b, need) + 1):
                if nb + 2 * ny + 3 * nr == need:
                    exact = True
    out = 0
    for nr in range(min(r, (need + 2) // 3) + 1):
        for ny in range(min(y, (need + 1) // 2) + 1):
            for nb in range(min(b, need) + 1):
                tot = nb + 2 * ny + 3 * nr
                ok = False
                if tot == need:
                    ok = True
                elif tot > need and not exact:
                    low = 1 if nb else (2 if ny else 3)
                    ok = tot - low < need
                if ok and nb >= ab and ny >= ay and nr >= ar:
                    if nb > ab:
                        out |= 1
                    if ny > ay:
                        out |= 2
                    if nr > ar:
                        out |= 4
    return out


# -- set-up -------------------------------------------------------------------------------------------
@njit
def _deal(S, RS, i, TB, start):
    """_deal: shuffle the virus cards into two stacks, deal the risk cards, give the pills."""
    n, nv, size = TB[P_N], TB[P_NV], TB[P_SIZE]
    for q in range(MAXN):
        for c in range(3):
            S[i, PILLS + 3 * q + c] = TB[T_START + c] if q < n else 0
            S[i, STAKE + 3 * q + c] = 0
    for c in range(3):
        S[i, PHARM + c] = TB[T_START + c]
        S[i, BOX + c] = TB[T_TOTAL + c] - (n + 1) * TB[T_START + c]
    deck = np.arange(nv)                        # rng.permutation(NV)
    pcg64.shuffle(RS, i, deck, nv)
    half = nv // 2
    S[i, NSTACK] = half
    S[i, NSTACK + 1] = nv - half
    for k in range(half):
        S[i, STACK + k] = deck[k]
    for k in range(nv - half):
        S[i, STACK + SCAP + k] = deck[half + k]
    nr = size - nv
    risks = np.arange(nr)                       # rng.permutation(len(RISK_IDS)) + NV
    pcg64.shuffle(RS, i, risks, nr)
    k = nr // n
    for q in range(MAXN):
        S[i, NHAND + q] = 0
        S[i, NFRONT + q] = 0
        S[i, NVIR + q] = 0
        S[i, NSYRS + q] = 0
        S[i, NURSE + q] = -1 if q < n else 0
        S[i, DIAG + q] = -1 if q < n else 0
    for q in range(n):
        for j in range(k):
            _insert_sorted(S, i, HAND + HCAP * q, NHAND + q, risks[q * k + j] + nv)
    S[i, NRBOX] = 0
    for j in range(n * k, nr):
        _insert_sorted(S, i, RBOX, NRBOX, risks[j] + nv)
    S[i, NUSED] = 0
    for t in range(NT):
        S[i, PUB + t] = 0
    for c in range(CCAP):
        S[i, ON + c] = -1 if c < size else 0
        S[i, NSYR + c] = 0
    for f in (DOCTOR, CIRC, GIVER, RC, ISSUER, KEEPER, PEND, GIVECOL, FEETO, FEEPH):
        S[i, f] = -1
    S[i, REQ] = 0
    S[i, PAYNEED] = 0
    for c in range(3):
        S[i, PAYSTART + c] = 0
        S[i, PAYADD + c] = 0
    S[i, NQ] = 0
    S[i, NQC] = 0
    S[i, ACTIVE] = start
    S[i, CUR] = start
    S[i, PH] = PH_TURN


@njit
def init_game(S, RS, SEEDS, i, seed, TB):
    """VirusCoGame.new_initial_state(seed): the first player (config, or drawn), round 1 dealt."""
    for k in range(ROW):
        S[i, k] = 0
    pcg64.seed_row(RS, i, seed)
    SEEDS[i] = seed
    fp = TB[P_FIRST]
    if fp < 0:
        fp = pcg64.bounded(RS, i, TB[P_N])      # rng.integers(num_players)
    S[i, ICU] = -1
    _deal(S, RS, i, TB, fp)


# -- the mask ---------------------------------------------------------------------------------------------
@njit
def legal_mask(S, i, M, TB):
    """VirusCoState._compute_mask into M[i] (all False in a finished game)."""
    n = TB[P_N]
    for a in range(TB[P_A]):
        M[i, a] = False
    if S[i, TERM]:
        return
    ph = S[i, PH]
    p = S[i, CUR]
    if ph == PH_TURN:
        for s in range(2):
            if S[i, NSTACK + s]:
                M[i, A_TAKE + s] = True
                M[i, A_CIRC + s] = True
        if S[i, NHAND + p] and illness(S, i, p, TB) >= RISK_MIN_ILLNESS:
            for k in range(S[i, NHAND + p]):
                M[i, A_RISK0 + TB[T_RT + S[i, HAND + HCAP * p + k]]] = True
    elif ph == PH_PASS:
        c = S[i, CIRC]
        giver = S[i, GIVER]
        if TB[T_CROSS + c]:
            # "Viruses with the cross symbol may be passed across the table to any fellow player."
            for q in range(n):
                if q != p and (TB[P_CROSSG] or q != giver):
                    M[i, A_SEAT0 + (q - p) % n - 1] = True
        else:
            # "... only ever be passed to your left or right neighbour, but never straight back"
            for q in ((p - 1) % n, (p + 1) % n):
                if q != giver:
                    M[i, A_SEAT0 + (q - p) % n - 1] = True
    elif ph == PH_WARD:
        M[i, A_KEEP] = True
        need = S[i, REQ] - (S[i, STAKE + 3 * p] + 2 * S[i, STAKE + 3 * p + 1] + 3 * S[i, STAKE + 3 * p + 2])
        if need <= 0:
            M[i, A_PASS] = True
        else:
            nx = next_pills(need, S[i, PILLS + 3 * p], S[i, PILLS + 3 * p + 1], S[i, PILLS + 3 * p + 2], 0, 0, 0)
            for c in range(3):
                if (nx >> c) & 1:
                    M[i, A_PILL0 + c] = True
    elif ph == PH_PAY or ph == PH_PAY_PHARM:
        nx = next_pills(S[i, PAYNEED], S[i, PAYSTART], S[i, PAYSTART + 1], S[i, PAYSTART + 2],
                   S[i, PAYADD], S[i, PAYADD + 1], S[i, PAYADD + 2])
        for c in range(3):
            if (nx >> c) & 1:
                M[i, A_PILL0 + c] = True
    elif ph == PH_SYRINGE:
        for k in range(S[i, NVIR + p]):
            M[i, TB[T_CA + S[i, VIR + VCAP * p + k]]] = True
    elif ph == PH_RISK_OFFER:
        M[i, A_KEEP] = True
        for c in range(3):
            if S[i, PILLS + 3 * p + c]:
                M[i, A_PILL0 + c] = True
    elif ph == PH_RISK_BACK:
        M[i, A_KEEP] = True
        nx = next_pills(2, S[i, PILLS + 3 * p], S[i, PILLS + 3 * p + 1], S[i, PILLS + 3 * p + 2], 0, 0, 0)
        for c in range(3):
            if (nx >> c) & 1:
                M[i, A_PILL0 + c] = True
    elif (ph == PH_RISK_TARGET or ph == PH_RISK_PASS or ph == PH_NURSE or ph == PH_DIAG or ph == PH_PLAGUE
          or ph == PH_GIVE_TO):
        for k in range(n - 1):
            M[i, A_SEAT0 + k] = True
    elif ph == PH_INFECTION:
        # infection_choices: a virus in another player's display with no syringe on it
        for q in range(n):
            if q != p:
                for k in range(S[i, NVIR + q]):
                    v = S[i, VIR + VCAP * q + k]
                    if S[i, NSYR + v] == 0:
                        M[i, TB[T_CA + v]] = True
    elif ph == PH_GIVE_PILL or ph == PH_RETURN_PILL or ph == PH_FEE:
        for c in range(3):
            if S[i, PILLS + 3 * p + c]:
                M[i, A_PILL0 + c] = True
    elif ph == PH_GUINEA:
        col = S[i, QCOL]
        for k in range(1, n):
            if S[i, PILLS + 3 * ((p + k) % n) + col]:
                M[i, A_SEAT0 + k - 1] = True


# -- rule pieces ---------------------------------------------------------------------------------------------
@njit
def round_scores(S, i, TB, icu, out):
    """VirusCoState.round_scores into out[0:n]: pills - illness (+ Nurse, Diagnosis); -13 in intensive care."""
    for q in range(TB[P_N]):
        if q == icu:   # "always receives 13 minus points"
            out[q] = ICU_POINTS
            continue
        s = (S[i, PILLS + 3 * q] + 2 * S[i, PILLS + 3 * q + 1] + 3 * S[i, PILLS + 3 * q + 2]) - illness(S, i, q, TB)
        if S[i, NURSE + q] >= 0:
            s += TB[P_NI] if S[i, NURSE + q] == icu else TB[P_NH]
        if S[i, DIAG + q] >= 0:
            s += TB[P_DR] if S[i, DIAG + q] == icu else TB[P_DW]
        out[q] = s


@njit
def _round_end(S, RS, i, TB, icu):
    """_round_end: score the round; deal the next one (started by the slip's holder) or end the game."""
    S[i, DOCTOR] = -1   # "The card remains in effect until a player lands in the INTENSIVE CARE UNIT"
    n = TB[P_N]
    sc = np.zeros(MAXN, dtype=np.int64)
    round_scores(S, i, TB, icu, sc)
    r = S[i, RND]
    for q in range(n):
        S[i, TOTALS + q] += sc[q]
        S[i, HIST + MAXN * r + q] = sc[q]
    S[i, ICU] = icu
    S[i, RND] = r + 1
    if r + 1 >= TB[P_ROUNDS]:
        S[i, TERM] = 1
        S[i, CUR] = -1
        S[i, KEEPER] = -1
        S[i, PEND] = -1
        return
    _deal(S, RS, i, TB, S[i, ACTIVE])


@njit
def _end_turn(S, RS, i, TB):
    """_end_turn: "The next player takes the referral slip ... and is then on turn"."""
    S[i, KEEPER] = -1
    S[i, TURNS] += 1
    S[i, ACTIVE] = (S[i, ACTIVE] + 1) % TB[P_N]
    if S[i, TURNS] >= TB[P_MAXTURNS]:
        S[i, TRUNC] = 1
        S[i, TERM] = 1
        S[i, CUR] = -1
        return
    if S[i, NSTACK] == 0 and S[i, NSTACK + 1] == 0:
        _round_end(S, RS, i, TB, -1)   # assumption: the round also ends when both stacks are used up
        return
    S[i, CUR] = S[i, ACTIVE]
    S[i, PH] = PH_TURN


@njit
def _icu_check(S, RS, i, TB, p):
    """_icu_check: "more than 12 illness points ... lands immediately in the INTENSIVE CARE UNIT"."""
    if illness(S, i, p, TB) > ICU_ILLNESS:
        _round_end(S, RS, i, TB, p)
        return True
    return False


@njit
def _syringe(S, RS, i, TB, p, s, on_virus):
    """_syringe: on one of p's viruses, or alone if p has none; the third means intensive care."""
    if S[i, NSYRS + p] + 1 >= ICU_SYRINGES:
        _push(S, i, SYR + SYCAP * p, NSYRS + p, s)
        _round_end(S, RS, i, TB, p)
        return
    if on_virus and S[i, NVIR + p]:
        S[i, PEND] = s
        S[i, CUR] = p
        S[i, PH] = PH_SYRINGE
        return
    _push(S, i, SYR + SYCAP * p, NSYRS + p, s)   # "must still place the syringe card in front of him or her"
    _end_turn(S, RS, i, TB)


@njit
def _keep_card(S, RS, i, TB, p, c, from_stack):
    """_keep_card: a virus card into p's display (pharmacy pills if it came from a stack)."""
    if TB[T_KIND + c] == KIND_SYRINGE:
        _syringe(S, RS, i, TB, p, c, True)
        return
    _push(S, i, VIR + VCAP * p, NVIR + p, c)
    if from_stack:  # "receives from the pharmacy the pills depicted on the card, as far as they are in stock"
        for col in range(3):
            sh = TB[T_SHOWN + 3 * c + col]
            ph = S[i, PHARM + col]
            k = sh if sh < ph else ph
            S[i, PHARM + col] = ph - k
            S[i, PILLS + 3 * p + col] += k
    if not _icu_check(S, RS, i, TB, p):
        _end_turn(S, RS, i, TB)


@njit
def _circ_keep(S, RS, i, TB, p):
    """_circ_keep: the keeper takes back the own stake, all other stakes go to the pharmacy."""
    for q in range(TB[P_N]):
        for c in range(3):
            st = S[i, STAKE + 3 * q + c]
            if q == p:
                S[i, PILLS + 3 * q + c] += st
            else:
                S[i, PHARM + c] += st
            S[i, STAKE + 3 * q + c] = 0
    c = S[i, CIRC]
    S[i, CIRC] = -1
    S[i, GIVER] = -1
    S[i, REQ] = 0
    _keep_card(S, RS, i, TB, p, c, False)


@njit
def _hand_over(S, i, TB, giver, receiver, then):
    """_hand_over (with mr_doctor="fee_on_pass" the giver first pays Mr. Doctor a pill)."""
    if TB[P_FEE] and receiver == S[i, DOCTOR] and _pill_sum(S, i, giver) > 0:
        S[i, FEETO] = receiver
        S[i, FEEPH] = then
        S[i, CUR] = giver
        S[i, PH] = PH_FEE
        return
    S[i, CUR] = receiver
    S[i, PH] = then


@njit
def _pay_pill(S, i, p, c):
    """_pay_pill: one pill into p's stake (circulation) or to the pharmacy (risk card back at its issuer)."""
    S[i, PILLS + 3 * p + c] -= 1
    if S[i, PH] == PH_PAY:
        S[i, STAKE + 3 * p + c] += 1
    else:
        S[i, PHARM + c] += 1
    S[i, PAYADD + c] += 1
    if S[i, PAYADD] + 2 * S[i, PAYADD + 1] + 3 * S[i, PAYADD + 2] >= S[i, PAYNEED]:
        if S[i, PH] == PH_PAY:
            S[i, REQ] += 1   # "the required stake does not increase by the surplus value"
            S[i, PH] = PH_PASS
        else:
            S[i, PH] = PH_RISK_PASS
        S[i, PAYNEED] = 0
        for k in range(3):
            S[i, PAYSTART + k] = 0
            S[i, PAYADD + k] = 0


@njit
def _start_payment(S, i, p, need):
    S[i, PAYNEED] = need
    for k in range(3):
        S[i, PAYSTART + k] = S[i, PILLS + 3 * p + k]
        S[i, PAYADD + k] = 0


@njit
def _next_return(S, RS, i, TB):
    """_next_return: the next player who must return a pill to the pharmacy ("if they have one")."""
    while S[i, NQ] and _pill_sum(S, i, S[i, QUEUE]) == 0:
        _del_at(S, i, QUEUE, NQ, 0)
    if S[i, NQ]:
        S[i, CUR] = S[i, QUEUE]
        S[i, PH] = PH_RETURN_PILL
    else:
        _end_turn(S, RS, i, TB)


@njit
def _next_guinea(S, RS, i, TB):
    """_next_guinea: the next pill shown that some fellow player can give; pills nobody holds are forgone."""
    n = TB[P_N]
    k = S[i, KEEPER]
    while S[i, NQC]:
        col = S[i, QCOL]
        for j in range(1, n):
            if S[i, PILLS + 3 * ((k + j) % n) + col]:
                S[i, CUR] = k
                S[i, PH] = PH_GUINEA
                return
        _del_at(S, i, QCOL, NQC, 0)
    _end_turn(S, RS, i, TB)


@njit
def _reveal(S, RS, i, TB, p):
    """_reveal: keep the risk card, "turns it over, reads it aloud, and carries out its effect immediately"."""
    n = TB[P_N]
    c = S[i, RC]
    S[i, RC] = -1
    S[i, ISSUER] = -1
    S[i, KEEPER] = p
    S[i, CUR] = p
    t = TB[T_RT + c]
    S[i, PUB + t] += 1
    if t == R_INFECTION:
        _push(S, i, USED, NUSED, c)
        found = False
        for q in range(n):
            if q != p:
                for k in range(S[i, NVIR + q]):
                    if S[i, NSYR + S[i, VIR + VCAP * q + k]] == 0:
                        found = True
        if found:
            S[i, PH] = PH_INFECTION
        else:
            _end_turn(S, RS, i, TB)
    elif t == R_DIAGNOSIS:
        _push(S, i, FRONT + HCAP * p, NFRONT + p, c)
        S[i, PH] = PH_DIAG
    elif t == R_DOCTOR:
        _push(S, i, FRONT + HCAP * p, NFRONT + p, c)
        S[i, DOCTOR] = p
        _end_turn(S, RS, i, TB)
    elif t == R_INJECTION:
        _syringe(S, RS, i, TB, p, c, TB[P_INJON] != 0)
    elif t == R_MEDICARE:
        _push(S, i, USED, NUSED, c)
        S[i, NQ] = 1
        S[i, QUEUE] = p
        _next_return(S, RS, i, TB)
    elif t == R_NURSE:
        _push(S, i, FRONT + HCAP * p, NFRONT + p, c)
        S[i, PH] = PH_NURSE
    elif t == R_TRIAL:
        _push(S, i, USED, NUSED, c)
        if _pill_sum(S, i, p):
            S[i, PH] = PH_GIVE_PILL
        else:
            _end_turn(S, RS, i, TB)
    elif t == R_PLAGUE2:
        _push(S, i, VIR + VCAP * p, NVIR + p, c)
        if not _icu_check(S, RS, i, TB, p):
            _end_turn(S, RS, i, TB)
    elif t == R_PLAGUE3:
        S[i, PEND] = c
        S[i, PH] = PH_PLAGUE
    elif t == R_RECALL:
        _push(S, i, USED, NUSED, c)
        S[i, NQ] = n - 1
        for k in range(1, n):
            S[i, QUEUE + k - 1] = (p + k) % n
        _next_return(S, RS, i, TB)
    elif t == R_PRESCRIPTION:
        _push(S, i, USED, NUSED, c)
        for k in range(TB[P_NPRESC]):   # "take the two pills shown from the pharmacy, if available"
            col = TB[T_PRESC + k]
            if S[i, PHARM + col]:
                S[i, PHARM + col] -= 1
                S[i, PILLS + 3 * p + col] += 1
        _end_turn(S, RS, i, TB)
    elif t == R_GUINEA:
        _push(S, i, USED, NUSED, c)
        S[i, NQC] = TB[P_NGUINEA]
        for k in range(TB[P_NGUINEA]):
            S[i, QCOL + k] = TB[T_GUINEA + k]
        _next_guinea(S, RS, i, TB)
    elif t == R_USEBY:   # "your left and right neighbours"
        _push(S, i, USED, NUSED, c)
        S[i, NQ] = 2
        S[i, QUEUE] = (p + 1) % n
        S[i, QUEUE + 1] = (p - 1) % n
        _next_return(S, RS, i, TB)


# -- transitions -------------------------------------------------------------------------------------------------
@njit
def apply_action(S, RS, i, a, TB):
    """VirusCoState._apply (the action is legal)."""
    n = TB[P_N]
    ph = S[i, PH]
    p = S[i, CUR]
    seat = (p + a - A_SEAT0 + 1) % n
    if ph == PH_TURN:
        if a < A_CIRC:                      # 1. take a virus card and keep it
            s = a - A_TAKE
            S[i, NSTACK + s] -= 1
            c = S[i, STACK + SCAP * s + S[i, NSTACK + s]]
            S[i, STACK + SCAP * s + S[i, NSTACK + s]] = 0
            _keep_card(S, RS, i, TB, p, c, True)
        elif a < A_RISK0:                   # 2. put a virus card into circulation
            s = a - A_CIRC
            S[i, NSTACK + s] -= 1
            S[i, CIRC] = S[i, STACK + SCAP * s + S[i, NSTACK + s]]
            S[i, STACK + SCAP * s + S[i, NSTACK + s]] = 0
            S[i, GIVER] = -1
            S[i, REQ] = 1   # "The first player who takes the card and passes it on must use a pill of value 1"
            S[i, PH] = PH_PASS
        else:                               # 3. put a risk card into circulation
            t = a - A_RISK0
            k = 0
            while TB[T_RT + S[i, HAND + HCAP * p + k]] != t:
                k += 1
            S[i, RC] = S[i, HAND + HCAP * p + k]
            _del_at(S, i, HAND + HCAP * p, NHAND + p, k)
            S[i, ISSUER] = p
            S[i, PH] = PH_RISK_TARGET
    elif ph == PH_PASS:
        S[i, GIVER] = p
        _hand_over(S, i, TB, p, seat, PH_WARD)
    elif ph == PH_WARD:
        if a == A_KEEP:
            _circ_keep(S, RS, i, TB, p)
        elif a == A_PASS:
            # "only needs to top up his or her existing stake by the difference": the difference is nothing
            S[i, REQ] += 1
            S[i, PH] = PH_PASS
        else:
            need = S[i, REQ] - (S[i, STAKE + 3 * p] + 2 * S[i, STAKE + 3 * p + 1] + 3 * S[i, STAKE + 3 * p + 2])
            _start_payment(S, i, p, need)
            S[i, PH] = PH_PAY
            _pay_pill(S, i, p, a - A_PILL0)
    elif ph == PH_PAY or ph == PH_PAY_PHARM:
        _pay_pill(S, i, p, a - A_PILL0)
    elif ph == PH_SYRINGE:
        v = TB[T_AC + a]
        s = S[i, PEND]
        S[i, PEND] = -1
        S[i, ON + s] = v
        S[i, NSYR + v] += 1
        _push(S, i, SYR + SYCAP * p, NSYRS + p, s)
        _end_turn(S, RS, i, TB)
    elif ph == PH_RISK_TARGET or ph == PH_RISK_PASS:
        _hand_over(S, i, TB, p, seat, PH_RISK_BACK if seat == S[i, ISSUER] else PH_RISK_OFFER)
    elif ph == PH_FEE:
        c = a - A_PILL0
        S[i, PILLS + 3 * p + c] -= 1
        S[i, PILLS + 3 * S[i, DOCTOR] + c] += 1
        S[i, CUR] = S[i, FEETO]
        S[i, PH] = S[i, FEEPH]
        S[i, FEETO] = -1
        S[i, FEEPH] = -1
    elif ph == PH_RISK_OFFER:
        if a == A_KEEP:
            _reveal(S, RS, i, TB, p)
        else:   # "one always pays exactly one pill to the player who put it into circulation"
            c = a - A_PILL0
            S[i, PILLS + 3 * p + c] -= 1
            S[i, PILLS + 3 * S[i, ISSUER] + c] += 1
            S[i, PH] = PH_RISK_PASS
    elif ph == PH_RISK_BACK:
        if a == A_KEEP:
            _reveal(S, RS, i, TB, p)
        else:   # "pays pills of value 2 to the pharmacy"
            _start_payment(S, i, p, 2)
            S[i, PH] = PH_PAY_PHARM
            _pay_pill(S, i, p, a - A_PILL0)
    elif ph == PH_INFECTION:
        v = TB[T_AC + a]
        done = False
        for q in range(n):
            if done:
                break
            for k in range(S[i, NVIR + q]):
                if S[i, VIR + VCAP * q + k] == v:
                    _del_at(S, i, VIR + VCAP * q, NVIR + q, k)
                    done = True
                    break
        _push(S, i, VIR + VCAP * p, NVIR + p, v)
        if not _icu_check(S, RS, i, TB, p):
            _end_turn(S, RS, i, TB)
    elif ph == PH_NURSE:
        S[i, NURSE + p] = seat   # "The NURSE may not nurse herself"
        _end_turn(S, RS, i, TB)
    elif ph == PH_DIAG:
        S[i, DIAG + p] = seat    # "one may not nominate oneself"
        _end_turn(S, RS, i, TB)
    elif ph == PH_PLAGUE:
        _push(S, i, VIR + VCAP * seat, NVIR + seat, S[i, PEND])
        S[i, PEND] = -1
        if not _icu_check(S, RS, i, TB, seat):
            _end_turn(S, RS, i, TB)
    elif ph == PH_GIVE_PILL:
        S[i, GIVECOL] = a - A_PILL0
        S[i, PH] = PH_GIVE_TO
    elif ph == PH_GIVE_TO:
        c = S[i, GIVECOL]
        S[i, GIVECOL] = -1
        S[i, PILLS + 3 * p + c] -= 1
        S[i, PILLS + 3 * seat + c] += 1
        _end_turn(S, RS, i, TB)
    elif ph == PH_RETURN_PILL:
        c = a - A_PILL0
        S[i, PILLS + 3 * p + c] -= 1
        S[i, PHARM + c] += 1
        _del_at(S, i, QUEUE, NQ, 0)
        _next_return(S, RS, i, TB)
    elif ph == PH_GUINEA:
        c = S[i, QCOL]
        _del_at(S, i, QCOL, NQC, 0)
        S[i, PILLS + 3 * seat + c] -= 1
        S[i, PILLS + 3 * p + c] += 1
        _next_guinea(S, RS, i, TB)
