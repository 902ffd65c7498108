"""The VIRUS! rules as per-game kernels over integer rows (compiled by numba when installed).

This is `game.py`'s rules, method for method, on a flat int32 row per game instead of Python
lists, so that B games step in one compiled loop. Each kernel names the `VirusCardsState` method it
mirrors; the rulebook sentences are quoted there (and again here where a line implements one).
`batched.py` builds the tables from a `VirusCardsGame` and owns the arrays; the test
`tests/virus_cards/test_vc_batched.py` plays both engines side by side on the same seeds and actions.

Row layout of one game (`S[i]`, int32; offsets below). Lists of the scalar engine become a fixed
capacity and a length: a hand is 3 slots, the cards on an organ 2, deck and discard pile `MAXD`
slots each with the top last (as the lists). `PUB[c]` is bit c of the scalar engine's `pub` (card c
was drawn from a turned-over, public deck). The chance of VIRUS! is the opening shuffle and, with
`first_player=-1`, the first player: drawn from a numpy-identical PCG64 per game (`core/pcg64.py`,
row `RS[i]`), so a game seeded with s deals exactly what `new_initial_state(seed=s)` deals.
"""
from __future__ import annotations

import numpy as np

from ..core import pcg64
from ..core.jit import njit

MAXP = 6          # seats
MAXD = 128        # cards in a deck
NT = 20           # card types (cards.NUM_TYPES)
# -- the row of one game --------------------------------------------------------------------------
TP, STAGE, PA, PC, TURNS, WIN, TRUNC, DPUB, DECKN, DISCN = range(10)
HANDN = 10                  # cards in each hand
HAND = HANDN + MAXP         # 3 per seat, in hand order (-1 empty)
ORG = HAND + 3 * MAXP       # organ card per (seat, colour), -1 if none
ATTN = ORG + 5 * MAXP       # cards on it (0-2)
ATT = ATTN + 5 * MAXP       # those cards, 2 per (seat, colour), in the order they were laid
CODE = ATT + 10 * MAXP      # slot code per (seat, colour) (encoding.slot_code)
HC = CODE + 5 * MAXP        # healthy organs per seat
DECK = HC + MAXP            # deck, bottom first (the top is DECK + DECKN - 1)
DISC = DECK + MAXD          # discard pile, bottom first
PUB = DISC + MAXD           # per card: drawn from a public deck
ROW = PUB + MAXD

# stages (game.py) and card kinds / treatments (cards.py), action payload kinds (actions.py)
PLAY, TRANSPLANT_PICK, CONTAGION_MOVE = 0, 1, 2
ORGAN, VIRUS, MEDICINE, TREATMENT = 0, 1, 2, 3
MULTI = 4
TRANSPLANT, ORGAN_THIEF, CONTAGION, LATEX_GLOVE, MEDICAL_ERROR = 0, 1, 2, 3, 4
A_SLOT, A_PLAYER, A_PLAY, A_DISCARD, A_PICK, A_MOVE = range(6)

# -- the table vector TB (one game config): parameters, observation offsets, then tables ------------
(P_N, P_D, P_MAXTURNS, P_FIRST, P_MEDANY, P_VIROWN, P_CRULE, P_A, P_OBS, P_AUTORESET,
 O_HAND, O_HPUB, O_KNOWN, O_BODIES, O_HSIZES, O_DISCARD, O_DSIZE, O_DPUB, O_DCOUNTS, O_DTOP, O_PHASE,
 O_TFIRST, O_TOACT, O_TURN, NUM_P) = range(25)
T_KIND = 32                   # per card: kind, colour (-1), treatment (-1), type 0..19
T_COL = T_KIND + MAXD
T_TREAT = T_COL + MAXD
T_CTYPE = T_TREAT + MAXD
T_SLOT = T_CTYPE + MAXD       # action ids: play hand h on +r's slot c [h, r, c]
T_PLAYER = T_SLOT + 3 * MAXP * 5      # play h aimed at +r [h, r]
T_PLAY = T_PLAYER + 3 * MAXP          # play h [h]
T_DISC = T_PLAY + 3                   # discard the positions of bits [bits]
T_PICK = T_DISC + 8                   # transplant with +r's c [r, c]
T_MOVE = T_PICK + MAXP * 5            # contagion c -> +r's d [c, r, d]
MAXA = 3 * MAXP * 5 + 3 * MAXP + 3 + 8 + MAXP * 5 + 5 * MAXP * 5
T_AK = T_MOVE + 5 * MAXP * 5          # action payloads: kind and up to three arguments
T_A1 = T_AK + MAXA
T_A2 = T_A1 + MAXA
T_A3 = T_A2 + MAXA
NUM_TB = T_A3 + MAXA
# colour_rule values
RULE_CARD, RULE_CARD_OR_ORGAN, RULE_CARD_AND_ORGAN = 0, 1, 2
DECK_TOP = 6
SLOT_FEATURES = 15


@njit(inline=True)
def _compat(a, b):
    """COMPAT[a][b]: "multicolored cards ... can be applied to all of them"."""
    return a == b or a == MULTI or b == MULTI


@njit(inline=True)
def current_player(S, i):
    """VirusCardsState.current_player: -1 once won or truncated."""
    if S[i, WIN] >= 0 or S[i, TRUNC]:
        return -1
    return S[i, TP]


# -- the body: slot codes kept in step (VirusCardsState._set) ------------------------------------------
@njit(inline=True)
def _code(S, i, TB, p, c):
    """encoding.slot_code: 0 empty; 1 free; 2+v infected; 7+m vaccinated; 12+5*m1+m2 immunized."""
    if S[i, ORG + 5 * p + c] < 0:
        return 0
    na = S[i, ATTN + 5 * p + c]
    if na == 0:
        return 1
    a0 = S[i, ATT + 10 * p + 2 * c]
    if na == 2:
        return 12 + 5 * TB[T_COL + a0] + TB[T_COL + S[i, ATT + 10 * p + 2 * c + 1]]
    return (2 if TB[T_KIND + a0] == VIRUS else 7) + TB[T_COL + a0]


@njit(inline=True)
def _healthy(code):
    """encoding.HEALTHY: present and not infected."""
    return 1 if code == 1 or code >= 7 else 0


@njit
def _set(S, i, TB, p, c, organ, na, a0, a1):
    """_set: the one way a slot changes; keeps the slot code and the healthy count in step."""
    S[i, ORG + 5 * p + c] = organ
    S[i, ATTN + 5 * p + c] = na
    S[i, ATT + 10 * p + 2 * c] = a0 if na > 0 else -1
    S[i, ATT + 10 * p + 2 * c + 1] = a1 if na > 1 else -1
    old = S[i, CODE + 5 * p + c]
    new = _code(S, i, TB, p, c)
    S[i, CODE + 5 * p + c] = new
    S[i, HC + p] += _healthy(new) - _healthy(old)


@njit
def recount(S, i, TB):
    """_recount: slot codes and healthy counts from the organs and the cards on them (after a load)."""
    for p in range(TB[P_N]):
        S[i, HC + p] = 0
        for c in range(5):
            code = _code(S, i, TB, p, c)
            S[i, CODE + 5 * p + c] = code
            S[i, HC + p] += _healthy(code)


@njit(inline=True)
def _discard(S, i, card):
    S[i, DISC + S[i, DISCN]] = card
    S[i, DISCN] += 1


@njit(inline=True)
def _hand_pop(S, i, p, h):
    """hands[p].pop(h)."""
    m = S[i, HANDN + p]
    card = S[i, HAND + 3 * p + h]
    for k in range(h, m - 1):
        S[i, HAND + 3 * p + k] = S[i, HAND + 3 * p + k + 1]
    S[i, HAND + 3 * p + m - 1] = -1
    S[i, HANDN + p] = m - 1
    return card


# -- legality (VirusCardsState._legal_ids and its helpers) ---------------------------------------------
@njit(inline=True)
def _slot_targets(S, i, TB, kind, colour, q):
    """VirusCardsGame.slot_targets as a bit mask over colours: the slots of q's body that a virus or a
    medicine of `colour` may be played on. Cure and Neutralize destroy the card lying on the organ, whose
    colour must match the played card's under colour_rule 'card' (or the organ's / both)."""
    rule = TB[P_CRULE]
    out = 0
    for c in range(5):
        k = S[i, CODE + 5 * q + c]
        if k == 0 or k >= 12:                     # no organ, or immunized
            continue
        if k == 1:                                # free: Infect / Vaccinate
            ok = _compat(colour, c)
        elif (k < 7) == (kind == VIRUS):          # a second virus (Remove) or a second medicine (Immunize)
            ok = _compat(colour, c)
        else:                                     # Cure the virus (k-2) or Neutralize the medicine (k-7)
            on = _compat(colour, k - 2) if k < 7 else _compat(colour, k - 7)
            if rule == RULE_CARD:
                ok = on
            elif rule == RULE_CARD_OR_ORGAN:
                ok = on or _compat(colour, c)
            else:
                ok = on and _compat(colour, c)
        if ok:
            out |= 1 << c
    return out


@njit(inline=True)
def _movable(S, i, t, c):
    """_movable: an organ a treatment may move: present and not immunized."""
    return S[i, ORG + 5 * t + c] >= 0 and S[i, ATTN + 5 * t + c] < 2


@njit(inline=True)
def _transplant_ok(S, i, a, c, b, d):
    """Swap a's organ c with b's organ d: two players, and neither ends with two organs of one colour."""
    if a == b:
        return False
    return c == d or (S[i, ORG + 5 * a + d] < 0 and S[i, ORG + 5 * b + c] < 0)


@njit
def _transplant_first_ok(S, i, n, a, c):
    """_transplant_firsts: organ (a, c) is movable and has at least one legal partner."""
    if not _movable(S, i, a, c):
        return False
    for b in range(n):                       # another movable organ of colour c: a same-colour swap
        if b != a and _movable(S, i, b, c):
            return True
    for b in range(n):
        if b == a:
            continue
        for d in range(5):
            if d != c and _movable(S, i, b, d) and S[i, ORG + 5 * a + d] < 0 and S[i, ORG + 5 * b + c] < 0:
                return True
    return False


@njit
def _contagion_adj(S, i, TB, adj):
    """_contagion_edges as adjacency masks: adj[c] has bit 5*r + d when the virus on my organ c may go onto
    player +r's free organ d. Returns whether there is any edge."""
    n, me = TB[P_N], S[i, TP]
    anyedge = False
    for c in range(5):
        adj[c] = 0
        if S[i, ATTN + 5 * me + c] == 1 and TB[T_KIND + S[i, ATT + 10 * me + 2 * c]] == VIRUS:
            v = TB[T_COL + S[i, ATT + 10 * me + 2 * c]]
            for r in range(1, n):
                t = (me + r) % n
                for d in range(5):
                    if S[i, ORG + 5 * t + d] >= 0 and S[i, ATTN + 5 * t + d] == 0 and _compat(v, d):
                        adj[c] |= np.int64(1) << (5 * r + d)
                        anyedge = True
    return anyedge


@njit(inline=True)
def _popcount(x):
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@njit
def _max_matching(adj):
    """_max_matching's size, by Hall's deficiency formula (the left side has at most 5 organs):
    5 - max over subsets X of own organs of (|X| - |neighbours of X|)."""
    worst = 0
    for sub in range(1, 32):
        nb = np.int64(0)
        k = 0
        for c in range(5):
            if sub >> c & 1:
                nb |= adj[c]
                k += 1
        d = k - _popcount(nb)
        if d > worst:
            worst = d
    return 5 - worst


@njit
def legal_mask(S, i, M, TB):
    """_legal_ids of game i into M[i] (all False once the game is over)."""
    n, me = TB[P_N], S[i, TP]
    for a in range(TB[P_A]):
        M[i, a] = False
    if S[i, WIN] >= 0 or S[i, TRUNC]:
        return
    st = S[i, STAGE]
    if st == TRANSPLANT_PICK:
        a, c = S[i, PA], S[i, PC]
        for b in range(n):
            for d in range(5):
                if _movable(S, i, b, d) and _transplant_ok(S, i, a, c, b, d):
                    M[i, TB[T_PICK + 5 * ((b - me) % n) + d]] = True
        return
    if st == CONTAGION_MOVE:
        # "as many viruses as you can": each move keeps the maximum matching of the rest
        adj = np.zeros(5, dtype=np.int64)
        rest = np.zeros(5, dtype=np.int64)
        _contagion_adj(S, i, TB, adj)
        best = _max_matching(adj)
        for c in range(5):
            for y in range(5, 5 * n):
                if adj[c] >> y & 1:
                    for e in range(5):
                        rest[e] = 0 if e == c else adj[e] & ~(np.int64(1) << y)
                    if 1 + _max_matching(rest) == best:
                        M[i, TB[T_MOVE + 30 * c + y]] = True
        return
    m = S[i, HANDN + me]
    for h in range(m):
        card = S[i, HAND + 3 * me + h]
        k = TB[T_KIND + card]
        col = TB[T_COL + card]
        if k == ORGAN:
            if S[i, ORG + 5 * me + col] < 0:
                M[i, TB[T_SLOT + 30 * h + col]] = True
        elif k == VIRUS or k == MEDICINE:
            if k == VIRUS:
                r0, r1 = (0 if TB[P_VIROWN] else 1), n
            else:
                r0, r1 = 0, (n if TB[P_MEDANY] else 1)
            for r in range(r0, r1):
                bits = _slot_targets(S, i, TB, k, col, (me + r) % n)
                for c in range(5):
                    if bits >> c & 1:
                        M[i, TB[T_SLOT + 30 * h + 5 * r + c]] = True
        else:
            tr = TB[T_TREAT + card]
            if tr == ORGAN_THIEF:
                for r in range(1, n):
                    t = (me + r) % n
                    for c in range(5):
                        if _movable(S, i, t, c) and S[i, ORG + 5 * me + c] < 0:
                            M[i, TB[T_SLOT + 30 * h + 5 * r + c]] = True
            elif tr == TRANSPLANT:
                for t in range(n):
                    for c in range(5):
                        if _transplant_first_ok(S, i, n, t, c):
                            M[i, TB[T_SLOT + 30 * h + 5 * ((t - me) % n) + c]] = True
            elif tr == CONTAGION:
                adj = np.zeros(5, dtype=np.int64)
                if _contagion_adj(S, i, TB, adj):
                    M[i, TB[T_PLAY + h]] = True
            elif tr == LATEX_GLOVE:
                M[i, TB[T_PLAY + h]] = True
            else:  # MEDICAL_ERROR
                for r in range(1, n):
                    M[i, TB[T_PLAYER + MAXP * h + r]] = True
    for bits in range(1, 8):                 # discard any non-empty subset of the hand
        if bits >> m == 0:
            M[i, TB[T_DISC + bits]] = True


# -- the rules (VirusCardsState._apply and what it calls) ----------------------------------------------
@njit
def _check_win(S, i, n):
    """ "If you place 4 different healthy organs on the table in front of you, you win!" — checked after
    every action, the acting player first, then in turn order."""
    for k in range(n):
        p = (S[i, TP] + k) % n
        if S[i, HC + p] >= 4:
            S[i, WIN] = p
            return True
    return False


@njit
def _draw(S, i, p):
    """_draw: up to 3 cards. "When the deck runs out, simply flip over the discard pile. It's not
    necessary to shuffle.\""""
    while S[i, HANDN + p] < 3:
        if S[i, DECKN] == 0:
            nd = S[i, DISCN]
            if nd == 0:
                return
            for k in range(nd):                  # discard.reverse(), which becomes the deck
                S[i, DECK + k] = S[i, DISC + nd - 1 - k]
            S[i, DECKN] = nd
            S[i, DISCN] = 0
            S[i, DPUB] = 1
        S[i, DECKN] -= 1
        card = S[i, DECK + S[i, DECKN]]
        if S[i, DPUB]:
            S[i, PUB + card] = 1
        S[i, HAND + 3 * p + S[i, HANDN + p]] = card
        S[i, HANDN + p] += 1


@njit
def _start_turn(S, i, TB, p):
    """_start_turn: a player without cards (Latex Glove) spends the turn drawing a new hand."""
    n = TB[P_N]
    idle = 0
    while True:
        if S[i, TURNS] >= TB[P_MAXTURNS]:
            S[i, TRUNC] = 1
            return
        if S[i, HANDN + p] > 0:
            # "Each player must have 3 cards in their hand at the beginning of each turn"
            if S[i, HANDN + p] < 3:
                _draw(S, i, p)
            S[i, TP] = p
            return
        _draw(S, i, p)
        S[i, TURNS] += 1
        idle = idle + 1 if S[i, HANDN + p] == 0 else 0
        if idle >= n:        # no card anywhere to draw and no hand: nobody can ever act again
            S[i, TRUNC] = 1
            return
        p = (p + 1) % n


@njit
def _end_action(S, i, TB):
    if _check_win(S, i, TB[P_N]):
        return
    me = S[i, TP]
    _draw(S, i, me)                                  # Phase 2: draw up to 3
    S[i, TURNS] += 1
    _start_turn(S, i, TB, (me + 1) % TB[P_N])        # Phase 3: pass the turn on


@njit
def _virus(S, i, TB, card, t, c):
    na = S[i, ATTN + 5 * t + c]
    organ = S[i, ORG + 5 * t + c]
    if na == 0:
        _set(S, i, TB, t, c, organ, 1, card, -1)                     # infect
        return
    a0 = S[i, ATT + 10 * t + 2 * c]
    if TB[T_KIND + a0] == VIRUS:
        # remove: "that organ is now destroyed and all three cards must be placed on the discard pile"
        _discard(S, i, card)
        _discard(S, i, organ)
        _discard(S, i, a0)
        _set(S, i, TB, t, c, -1, 0, -1, -1)
    else:                                    # neutralize: "both ... on the discard pile"
        _discard(S, i, card)
        _discard(S, i, a0)
        _set(S, i, TB, t, c, organ, 0, -1, -1)


@njit
def _medicine(S, i, TB, card, t, c):
    na = S[i, ATTN + 5 * t + c]
    organ = S[i, ORG + 5 * t + c]
    a0 = S[i, ATT + 10 * t + 2 * c]
    if na > 0 and TB[T_KIND + a0] == VIRUS:
        _discard(S, i, card)                 # cure: "both cards are then placed on the discard pile"
        _discard(S, i, a0)
        _set(S, i, TB, t, c, organ, 0, -1, -1)
    elif na == 0:
        _set(S, i, TB, t, c, organ, 1, card, -1)     # vaccinate
    else:
        _set(S, i, TB, t, c, organ, 2, a0, card)     # immunize with a second medicine


@njit
def _swap_slots(S, i, TB, a, c, b, d):
    oa, na_, a0, a1 = S[i, ORG + 5 * a + c], S[i, ATTN + 5 * a + c], S[i, ATT + 10 * a + 2 * c], S[i, ATT + 10 * a + 2 * c + 1]
    ob, nb, b0, b1 = S[i, ORG + 5 * b + d], S[i, ATTN + 5 * b + d], S[i, ATT + 10 * b + 2 * d], S[i, ATT + 10 * b + 2 * d + 1]
    _set(S, i, TB, a, c, -1, 0, -1, -1)
    _set(S, i, TB, b, d, -1, 0, -1, -1)
    _set(S, i, TB, a, d, ob, nb, b0, b1)
    _set(S, i, TB, b, c, oa, na_, a0, a1)


@njit(inline=True)
def _swap_cells(S, i, x, y):
    tmp = S[i, x]
    S[i, x] = S[i, y]
    S[i, y] = tmp


@njit
def apply_action(S, i, a, TB):
    """VirusCardsState._apply(a) for a legal a."""
    n, me = TB[P_N], S[i, TP]
    kind = TB[T_AK + a]
    x1, x2, x3 = TB[T_A1 + a], TB[T_A2 + a], TB[T_A3 + a]
    if kind == A_SLOT:
        h, t, c = x1, (me + x2) % n, x3
        card = _hand_pop(S, i, me, h)
        k = TB[T_KIND + card]
        if k == ORGAN:
            _set(S, i, TB, me, c, card, 0, -1, -1)
        elif k == VIRUS:
            _virus(S, i, TB, card, t, c)
        elif k == MEDICINE:
            _medicine(S, i, TB, card, t, c)
        elif TB[T_TREAT + card] == ORGAN_THIEF:
            _discard(S, i, card)
            # _move_slot(t, c, me, c)
            _set(S, i, TB, me, c, S[i, ORG + 5 * t + c], S[i, ATTN + 5 * t + c], S[i, ATT + 10 * t + 2 * c],
                 S[i, ATT + 10 * t + 2 * c + 1])
            _set(S, i, TB, t, c, -1, 0, -1, -1)
        else:  # TRANSPLANT: the second organ is the next decision
            _discard(S, i, card)
            S[i, STAGE] = TRANSPLANT_PICK
            S[i, PA] = t
            S[i, PC] = c
            return
    elif kind == A_PLAYER:       # Medical Error: "swap your entire body with another player"
        t = (me + x2) % n
        _discard(S, i, _hand_pop(S, i, me, x1))
        for c in range(5):
            _swap_cells(S, i, ORG + 5 * me + c, ORG + 5 * t + c)
            _swap_cells(S, i, ATTN + 5 * me + c, ATTN + 5 * t + c)
            _swap_cells(S, i, ATT + 10 * me + 2 * c, ATT + 10 * t + 2 * c)
            _swap_cells(S, i, ATT + 10 * me + 2 * c + 1, ATT + 10 * t + 2 * c + 1)
            _swap_cells(S, i, CODE + 5 * me + c, CODE + 5 * t + c)
        _swap_cells(S, i, HC + me, HC + t)
    elif kind == A_PLAY:
        card = _hand_pop(S, i, me, x1)
        _discard(S, i, card)
        if TB[T_TREAT + card] == LATEX_GLOVE:
            # "All players, except the one playing the latex glove card, discard their hand."
            for r in range(1, n):
                t = (me + r) % n
                for k in range(S[i, HANDN + t]):
                    _discard(S, i, S[i, HAND + 3 * t + k])
                    S[i, HAND + 3 * t + k] = -1
                S[i, HANDN + t] = 0
        else:  # CONTAGION: the moves are the next decisions
            S[i, STAGE] = CONTAGION_MOVE
            return
    elif kind == A_DISCARD:
        m = S[i, HANDN + me]
        kept = 0
        for k in range(m):
            card = S[i, HAND + 3 * me + k]
            if x1 >> k & 1:
                _discard(S, i, card)
            else:
                S[i, HAND + 3 * me + kept] = card
                kept += 1
        for k in range(kept, 3):
            S[i, HAND + 3 * me + k] = -1
        S[i, HANDN + me] = kept
    elif kind == A_PICK:
        _swap_slots(S, i, TB, S[i, PA], S[i, PC], (me + x1) % n, x2)
        S[i, STAGE] = PLAY
        S[i, PA] = -1
        S[i, PC] = -1
    else:  # A_MOVE: one virus of the Contagion
        c, t, d = x1, (me + x2) % n, x3
        _set(S, i, TB, t, d, S[i, ORG + 5 * t + d], 1, S[i, ATT + 10 * me + 2 * c], -1)
        _set(S, i, TB, me, c, S[i, ORG + 5 * me + c], 0, -1, -1)
        if _check_win(S, i, n):
            return
        adj = np.zeros(5, dtype=np.int64)
        if _contagion_adj(S, i, TB, adj):
            return
        S[i, STAGE] = PLAY
    _end_action(S, i, TB)


@njit
def init_game(S, RS, SEEDS, i, seed, TB):
    """VirusCardsGame.new_initial_state(seed): shuffle the deck and deal 3 cards to each player."""
    n, D = TB[P_N], TB[P_D]
    for k in range(ROW):
        S[i, k] = 0
    for k in range(HAND, CODE):
        S[i, k] = -1
    for k in range(ATTN, ATT):
        S[i, k] = 0
    S[i, PA] = -1
    S[i, PC] = -1
    S[i, WIN] = -1
    SEEDS[i] = seed
    pcg64.seed_row(RS, i, seed)
    for k in range(D):
        S[i, DECK + k] = k
    pcg64.shuffle(RS, i, S[i, DECK:DECK + D], D)          # rng.shuffle(deck)
    S[i, DECKN] = D
    for _ in range(3):
        for p in range(n):
            S[i, DECKN] -= 1
            S[i, HAND + 3 * p + S[i, HANDN + p]] = S[i, DECK + S[i, DECKN]]
            S[i, HANDN + p] += 1
    S[i, TP] = pcg64.bounded(RS, i, n) if TB[P_FIRST] < 0 else TB[P_FIRST]


# -- the observation (encoding.encode) ---------------------------------------------------------------
@njit
def observe(S, i, p, TB, TF, FD, o):
    """encoding.encode(state, p) of game i into o (float32), seat-relative; written only from what p sees:
    p's own hand, the cards of other hands drawn from a public deck, bodies, hand sizes, the discard pile,
    the deck's size (and, once turned over from the pile, its order)."""
    n = TB[P_N]
    for k in range(TB[P_OBS]):
        o[k] = 0.0
    base, ih = TB[O_HAND], TB[O_HPUB]
    for k in range(S[i, HANDN + p]):
        card = S[i, HAND + 3 * p + k]
        o[base + TB[T_CTYPE + card]] = 1.0
        if S[i, PUB + card]:
            o[ih] = 1.0
        base += NT
        ih += 1
    for r in range(1, n):                   # others' cards drawn from a turned-over pile: public
        q = (p + r) % n
        b = TB[O_KNOWN] + (r - 1) * 3 * NT
        for k in range(S[i, HANDN + q]):
            card = S[i, HAND + 3 * q + k]
            if S[i, PUB + card]:
                o[b + TB[T_CTYPE + card]] = 1.0
            b += NT
    for r in range(n):
        q = (p + r) % n
        for c in range(5):
            code = S[i, CODE + 5 * q + c]
            ob = TB[O_BODIES] + (5 * r + c) * SLOT_FEATURES
            for f in range(SLOT_FEATURES):
                o[ob + f] = TF[NT + code * SLOT_FEATURES + f]
        o[TB[O_HSIZES] + r] = S[i, HANDN + q] * (1.0 / 3.0)
    for k in range(S[i, DISCN]):            # counts added one card at a time, as encoding's float32 running sum
        t = TB[T_CTYPE + S[i, DISC + k]]
        o[TB[O_DISCARD] + t] += TF[t]
    L = S[i, DECKN]
    o[TB[O_DSIZE]] = L * FD[0]
    if S[i, DPUB]:
        # "simply flip over the discard pile": everyone saw its order, so the deck's is public
        o[TB[O_DPUB]] = 1.0
        for k in range(L):
            t = TB[T_CTYPE + S[i, DECK + k]]
            o[TB[O_DCOUNTS] + t] += TF[t]
        for k in range(min(DECK_TOP, L)):
            o[TB[O_DTOP] + NT * k + TB[T_CTYPE + S[i, DECK + L - 1 - k]]] = 1.0
    if not (S[i, WIN] >= 0 or S[i, TRUNC]):
        o[TB[O_PHASE] + S[i, STAGE]] = 1.0
        o[TB[O_TOACT] + (S[i, TP] - p) % n] = 1.0
    if S[i, PA] >= 0:
        o[TB[O_TFIRST] + ((S[i, PA] - p) % n) * 5 + S[i, PC]] = 1.0
    o[TB[O_TURN]] = min(1.0, S[i, TURNS] * FD[1])


# -- batch entry points ---------------------------------------------------------------------------------
@njit
def write_outcome(S, i, TB, scores_out, returns_out):
    """scores() (healthy organs) and returns() (+1 the winner, -1 the others; 0 if truncated) of game i."""
    n = TB[P_N]
    w = S[i, WIN]
    for p in range(n):
        scores_out[i, p] = S[i, HC + p]
        returns_out[i, p] = 0.0 if w < 0 else (1.0 if p == w else -1.0)


@njit
def reset_batch(S, RS, SEEDS, seeds, M, TB):
    for i in range(S.shape[0]):
        init_game(S, RS, SEEDS, i, seeds[i], TB)
        legal_mask(S, i, M, TB)


@njit
def step_batch(S, RS, SEEDS, actions, M, TB, done, fseed, fscores, freturns, ftrunc, partial):
    """One action per game (-1 for a finished game; with `partial`, -1 also lets a game wait). Returns the
    index of the first illegal action, or -1; nothing changes unless every action is legal. A game that
    ends has its seed, scores, returns and truncation written to the f* outputs and, with autoreset,
    starts its next game (seed pcg64.next_seed of the last)."""
    B = S.shape[0]
    A = TB[P_A]
    for i in range(B):
        a = actions[i]
        over = S[i, WIN] >= 0 or S[i, TRUNC]
        if over or (partial and a == -1):
            if a != -1:
                return i
        elif a < 0 or a >= A or not M[i, a]:
            return i
    for i in range(B):
        done[i] = False
        if S[i, WIN] >= 0 or S[i, TRUNC] or actions[i] == -1:
            continue
        apply_action(S, i, actions[i], TB)
        if S[i, WIN] >= 0 or S[i, TRUNC]:
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
def observe_batch(S, seats, TB, TF, FD, OUT):
    for i in range(S.shape[0]):
        observe(S, i, seats[i], TB, TF, FD, OUT[i])

