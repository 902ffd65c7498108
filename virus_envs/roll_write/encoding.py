"""view(p) and observation(p): what a seat knows, as a dict and as one flat float32 vector.

Nothing is hidden in Virus!: Roll & Write except future rolls, so both carry the whole table and
every sheet. The observation is seat-relative: player blocks are ordered observer first, then
clockwise; owners and the priority holder are encoded as relative seats (0 = observer).

    field            shape        values
    grids            (n, 4, 12)   1 = box of value v (column v-1) crossed off, per disease colour
    lab_row          (n, Lr)      1 = laboratory-row box crossed off (sheet order of values)
    wildcards        (n, 2)       circled unused / tube size, crossed off / tube size
    virus_tube       (n, 1)       total contamination written so far / (rounds * dice * 6)
    cures            (n, 4, 2)    speed bonus marked, box crossed out (someone else found it first)
    reserve          (n, 6)       dice of each value still to place this round / dice per player
    contaminated     (n, 6)       dice of each value on the contaminated samples card this round / dice
    trial_cards      (4, 2, 6)    one-hot value of the die in each slot (blue, red, green, yellow)
    trial_owners     (4, 2, n)    relative seat of that die's owner
    lab_slots        (L, 6)       one-hot value of the die in each laboratory slot
    lab_owners       (L, n)       relative seat of that die's owner
    lab_cards        (2, K)       which laboratory card faces are in play (K faces in the card file)
    round            (R,)         one-hot current round
    priority         (n,)         relative seat of the priority access holder
    priority_taken   (1,)         someone already placed on a laboratory card this round
    decision         (4,)         place a die / place the changed die / extra cross-off / circle a wildcard
    extra_colour     (5,)         extra cross-off colour: blue, red, green, yellow, any (laboratory row)
    changed_die      (6,)         one-hot value of the die changed by a wildcard (to be placed now)
"""
from __future__ import annotations

import numpy as np

from ..core import ObsLayout
from .sheet import COLOURS


def build_tables(g) -> None:
    """Layout, per-observer permutations and offsets of game g (built once per game)."""
    n, L, R = g.num_players, g.num_lab_slots, g.rounds
    Lr = len(g.sheet.lab_values)
    K = len(g.all_lab_cards)
    g.layout = ObsLayout([
        ("grids", (n, 4, 12)), ("lab_row", (n, Lr)), ("wildcards", (n, 2)), ("virus_tube", (n, 1)),
        ("cures", (n, 4, 2)), ("reserve", (n, 6)), ("contaminated", (n, 6)),
        ("trial_cards", (4, 2, 6)), ("trial_owners", (4, 2, n)), ("lab_slots", (L, 6)), ("lab_owners", (L, n)),
        ("lab_cards", (2, K)),
        ("round", (R,)), ("priority", (n,)), ("priority_taken", (1,)), ("decision", (4,)),
        ("extra_colour", (5,)), ("changed_die", (6,)),
    ])
    g.observation_shape = g.layout.shape
    g.observation_high = 1.0
    sl = g.layout.slices
    for name, attr in (("grids", "o_grid"), ("lab_row", "o_lab"), ("wildcards", "o_wild"),
                       ("virus_tube", "o_virus"), ("cures", "o_cure"), ("reserve", "o_res"),
                       ("contaminated", "o_con"), ("trial_cards", "o_trial"), ("trial_owners", "o_trialown"),
                       ("lab_slots", "o_labslot"),
                       ("lab_owners", "o_labown"), ("lab_cards", "o_labcards"), ("round", "o_round"),
                       ("priority", "o_prio"), ("priority_taken", "o_ptaken"), ("decision", "o_dec"),
                       ("extra_colour", "o_xcol"), ("changed_die", "o_chg")):
        setattr(g, attr, sl[name].start)
    g.lab_pos = tuple(g.sheet.lab_values.index(v) if v in g.sheet.lab_values else -1 for v in range(13))
    # The state keeps a "board": this same layout in ABSOLUTE seats (player blocks in seat order,
    # owners and priority as absolute seats). observation(p) is one gather through _perm[p].
    perms = []
    for p in range(n):
        order = [(p + i) % n for i in range(n)]
        idx = np.arange(g.layout.size)
        parts = []
        for name, shape in g.layout.fields:
            a = idx[sl[name]]
            if name in ("grids", "lab_row", "wildcards", "virus_tube", "cures", "reserve", "contaminated",
                        "priority"):
                a = a.reshape(n, -1)[order].ravel()
            elif name == "lab_owners":
                a = a.reshape(L, n)[:, order].ravel()
            elif name == "trial_owners":
                a = a.reshape(8, n)[:, order].ravel()
            parts.append(a)
        perms.append(np.concatenate(parts).astype(np.intp))
    g._perm = tuple(perms)
    g._wild_scale = 1.0 / max(g.sheet.wildcard_boxes, 1)
    g._dice_scale = 1.0 / g.dice
    g._contam_scale = 1.0 / max(g.max_contam, 1)
    fb = g.layout.zeros()
    g.layout.view(fb, "lab_cards")[:] = 0.0
    for i, ci in enumerate(g.card_index):
        g.layout.view(fb, "lab_cards")[i, ci] = 1.0
    g.layout.view(fb, "wildcards")[:, 0] = g.sheet.wildcards_at_start * g._wild_scale
    g._fresh_board = fb


def fresh_board(s) -> np.ndarray:
    """The board of a new game before the first roll: only the cards in play and the start wildcards."""
    g = s.game
    b = g._fresh_board.copy()
    return b


def encode_full(s) -> np.ndarray:
    """The board (absolute-seat encoding) computed from scratch; the rules keep it up to date incrementally."""
    g = s.game
    n = s.n
    b = g.layout.zeros()
    lay = g.layout
    gr = lay.view(b, "grids")
    lr = lay.view(b, "lab_row")
    for q in range(n):
        for c in range(4):
            for v in range(1, 13):
                if s.grid[q][c] >> v & 1:
                    gr[q, c, v - 1] = 1.0
        for i, v in enumerate(g.sheet.lab_values):
            if s.labrow[q] >> v & 1:
                lr[q, i] = 1.0
        lay.view(b, "wildcards")[q] = (s.wild[q] * g._wild_scale, s.wused[q] * g._wild_scale)
        lay.view(b, "virus_tube")[q, 0] = sum(s.virus[q]) * g._contam_scale
        for c in range(4):
            if s.cure[q][c]:
                lay.view(b, "cures")[q, c, s.cure[q][c] - 1] = 1.0
        for v in range(1, 7):
            lay.view(b, "reserve")[q, v - 1] = s.reserve[q][v] * g._dice_scale
            lay.view(b, "contaminated")[q, v - 1] = s.contam[q][v] * g._dice_scale
    tc = lay.view(b, "trial_cards")
    to = lay.view(b, "trial_owners")
    for i, v in enumerate(s.trial):
        if v:
            tc[i // 2, i % 2, v - 1] = 1.0
            to[i // 2, i % 2, s.trial_own[i]] = 1.0
    for j, v in enumerate(s.lab):
        if v:
            lay.view(b, "lab_slots")[j, v - 1] = 1.0
            lay.view(b, "lab_owners")[j, s.lab_own[j]] = 1.0
    lc = lay.view(b, "lab_cards")
    for i, ci in enumerate(g.card_index):
        lc[i, ci] = 1.0
    sync_turn(s, b)
    return b


def sync_turn(s, b) -> None:
    """Round, priority and the current decision: rewritten after every action (a few slots)."""
    g = s.game
    b[g.o_round:g.o_round + g.rounds] = 0.0
    b[g.o_prio:g.o_prio + s.n] = 0.0
    b[g.o_prio + s.priority] = 1.0
    b[g.o_ptaken] = 1.0 if s.prio_taken else 0.0
    b[g.o_dec:g.o_chg + 6] = 0.0
    if s.terminal:
        return
    b[g.o_round + s.rnd] = 1.0
    pend = s.pending
    if pend:
        q, kind, col = pend[0]
        if kind == 0:
            b[g.o_dec + 2] = 1.0
            b[g.o_xcol + (4 if col < 0 else col)] = 1.0
        else:
            b[g.o_dec + 3] = 1.0
    elif s.wild_die:
        b[g.o_dec + 1] = 1.0
        b[g.o_chg + s.wild_die - 1] = 1.0
    else:
        b[g.o_dec] = 1.0


def observation(s, p: int) -> np.ndarray:
    """The flat float32 observation of seat p: the board gathered into seat-relative order."""
    return s.board.take(s.game._perm[p])


def view(s, p: int) -> dict:
    """JSON-safe dict of everything seat p may know (all of it is public)."""
    g = s.game
    sh = g.sheet
    sheets = []
    for q in range(s.n):
        sheets.append({
            "grids": {COLOURS[c]: [v for v in sh.values[c] if s.grid[q][c] >> v & 1] for c in range(4)},
            "lab_row": [v for v in sh.lab_values if s.labrow[q] >> v & 1],
            "wildcards": s.wild[q],
            "wildcards_used": s.wused[q],
            "virus_tube": list(s.virus[q]),
            "cures": {COLOURS[c]: ("open", "speed bonus", "crossed out")[s.cure[q][c]] for c in range(4)},
            "reserve": [v for v in range(1, 7) for _ in range(s.reserve[q][v])],
            "contaminated": [v for v in range(1, 7) for _ in range(s.contam[q][v])],
            "score": s.score_of(q),
        })
    pend = None
    if s.pending:
        q, kind, col = s.pending[0]
        pend = {"seat": q, "kind": PHASE_KIND[kind],
                "colour": ("any" if col < 0 else COLOURS[col]) if kind == 0 else None}
    labs = []
    for k, name in enumerate(g.lab_names):
        sl = range(k * g.slots, (k + 1) * g.slots)
        labs.append({"card": name, "slots": [[s.lab[j], s.lab_own[j]] for j in sl]})
    return {
        "seat": p,
        "num_players": s.n,
        "round": s.rnd + 1 if not s.terminal else g.rounds,
        "rounds": g.rounds,
        "phase": s.phase(),
        "current_player": s.current_player(),
        "priority": s.priority,
        "priority_taken": s.prio_taken,
        "round_starter": s.starter,
        "dice_placed_this_round": s.placed,
        "trial_cards": {COLOURS[c]: [[s.trial[2 * c], s.trial_own[2 * c]], [s.trial[2 * c + 1], s.trial_own[2 * c + 1]]]
                        for c in range(4)},
        "lab_cards": labs,
        "pending": pend,
        "changed_die": s.wild_die,
        "sheets": sheets,
        "terminal": s.terminal,
    }


PHASE_KIND = ("extra cross-off", "circle a wildcard")
