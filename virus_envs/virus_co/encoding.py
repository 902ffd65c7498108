"""Observation and view of Virus & Co: what one seat may know, seat-relative (the observer first).

Hidden: the other players' risk hands (only their sizes are public), the face-down circulating
risk card (known to its issuer only), the two risk cards returned unseen, the order of the
face-down parts of both stacks. Everything else lies open on the table.

Observation fields (float32, all in [0, 1]; `n` players, seats relative: 0 = the observer,
k = k seats to the observer's left; NC cards that can lie in a display as a virus):

| field | shape | meaning |
|---|---|---|
| phase | 18 | one-hot of the decision being taken |
| round | rounds | one-hot of the round |
| decider, active | n, n | seat to decide now; holder of the referral slip |
| pills, stake | n x 3, n x 3 | supply / put-up stake per colour (/21, /14) |
| illness | n | recomputed illness (/30) |
| syringes, loose_syringes | n, n | syringes in display (incl. injections), those lying alone (/3) |
| risk_hand_size | n | risk cards in hand (/7) |
| total | n | (total score + 60) / 400, clipped |
| doctor | n | who is Mr. Doctor |
| nurse, diagnosis | n x n | row q: the patient of q's Nurse / the candidate of q's Diagnosis |
| virus_where | NC x (n+3) | each virus card: in seat k's display, face-up on stack A, on stack B, circulating |
| virus_syringes | NC | syringes on it (/2) |
| syringe_up | 3 | face-up card of A / of B / the circulating card is a syringe |
| stacks | 2 | cards left in each stack (/19) |
| pharmacy | 3 | pharmacy stock per colour (/21) |
| requirement | 1 | stake value the current holder must reach to pass the circulating card (/40) |
| giver | n | who handed the circulating card over |
| own_risk | 13 | own risk hand per type (/3) |
| public_risk | 13 | risk cards turned over this round per type (/3) |
| risk_circ | 13 | type of the face-down circulating risk card, for its issuer only |
| risk_issuer | n | issuer of the circulating risk card |
| payment | 4 | value still to pay in a payment in progress (/20), pills added per colour (/14) |
| pending_colour | 3 | colour being taken (Guinea Pig) or given (Pharmaceutical Trial) |
| last_icu | n | who landed in intensive care last round |
"""
from __future__ import annotations

import numpy as np

from ..core import ObsLayout
from .cards import COLOURS, KIND_RISK, KIND_SYRINGE, NUM_RISK_TYPES


def layout(game) -> ObsLayout:
    """The observation layout of a game (depends on the player count, rounds and preset)."""
    n = game.num_players
    from .game import NUM_PHASES
    nc = sum(1 for v in game.cat.value if v > 0)
    R = NUM_RISK_TYPES
    lay = ObsLayout([
        ("phase", NUM_PHASES), ("round", game.config["rounds"]), ("decider", n), ("active", n),
        ("pills", (n, 3)), ("stake", (n, 3)), ("illness", n), ("syringes", n), ("loose_syringes", n),
        ("risk_hand_size", n), ("total", n), ("doctor", n), ("nurse", (n, n)), ("diagnosis", (n, n)),
        ("virus_where", (nc, n + 3)), ("virus_syringes", nc), ("syringe_up", 3), ("stacks", 2),
        ("pharmacy", 3), ("requirement", 1), ("giver", n), ("own_risk", R), ("public_risk", R),
        ("risk_circ", R), ("risk_issuer", n), ("payment", 4), ("pending_colour", 3), ("last_icu", n),
    ])
    game._vidx = tuple(sum(1 for v in game.cat.value[:c] if v > 0) if game.cat.value[c] > 0 else -1
                       for c in range(game.cat.size))
    game._off = {name: lay.slices[name].start for name, _ in lay.fields}
    return lay


def observe(s, p: int) -> np.ndarray:
    """The observation vector of seat p (see the module table)."""
    g = s.game
    n = g.num_players
    o = g._off
    vec = np.zeros(g.layout.size, dtype=np.float32)
    idx = []
    val = []
    ai = idx.append
    av = val.append
    ai(o["phase"] + s.ph); av(1.0)
    if s.round < g.config["rounds"]:
        ai(o["round"] + s.round); av(1.0)
    if s.cur >= 0:
        ai(o["decider"] + (s.cur - p) % n); av(1.0)
    ai(o["active"] + (s.active - p) % n); av(1.0)
    VAL = g.VALUE
    vidx = g._vidx
    ns = s.nsyr
    on = s.on
    op, ost, oil, osy, ols, orh, otot = (o["pills"], o["stake"], o["illness"], o["syringes"], o["loose_syringes"],
                                         o["risk_hand_size"], o["total"])
    ovw, ovs = o["virus_where"], o["virus_syringes"]
    w = n + 3
    for q in range(n):
        r = (q - p) % n
        pl = s.pills[q]
        st = s.stake[q]
        b = op + 3 * r
        idx += (b, b + 1, b + 2)
        val += (pl[0] / 21.0, pl[1] / 21.0, pl[2] / 21.0)
        if st[0] or st[1] or st[2]:
            b = ost + 3 * r
            idx += (b, b + 1, b + 2)
            val += (st[0] / 14.0, st[1] / 14.0, st[2] / 14.0)
        ill = 0
        for v in s.vir[q]:
            k = ns[v]
            vv = VAL[v]
            ill += vv if k == 0 else ((vv + 1) // 2 if k == 1 else 0)
            j = vidx[v]
            ai(ovw + j * w + r); av(1.0)
            if k:
                ai(ovs + j); av(k / 2.0)
        ai(oil + r); av(min(ill / 30.0, 1.0))
        sy = s.syr[q]
        if sy:
            ai(osy + r); av(min(len(sy) / 3.0, 1.0))
            loose = sum(1 for x in sy if on[x] < 0)
            if loose:
                ai(ols + r); av(min(loose / 3.0, 1.0))
        ai(orh + r); av(len(s.hand[q]) / 7.0)
        ai(otot + r); av(min(max((s.totals[q] + 60) / 400.0, 0.0), 1.0))
        if s.nurse[q] >= 0:
            ai(o["nurse"] + r * n + (s.nurse[q] - p) % n); av(1.0)
        if s.diag[q] >= 0:
            ai(o["diagnosis"] + r * n + (s.diag[q] - p) % n); av(1.0)
    if s.doctor >= 0:
        ai(o["doctor"] + (s.doctor - p) % n); av(1.0)
    KIND = g.KIND
    osu = o["syringe_up"]
    for k in (0, 1):
        st = s.stacks[k]
        if st:
            c = st[-1]
            if KIND[c] == KIND_SYRINGE:
                ai(osu + k); av(1.0)
            else:
                ai(ovw + vidx[c] * w + n + k); av(1.0)
            ai(o["stacks"] + k); av(len(st) / 19.0)
    if s.circ >= 0:
        c = s.circ
        if KIND[c] == KIND_SYRINGE:
            ai(osu + 2); av(1.0)
        else:
            ai(ovw + vidx[c] * w + n + 2); av(1.0)
        ai(o["requirement"]); av(min(s.req / 40.0, 1.0))
        if s.giver >= 0:
            ai(o["giver"] + (s.giver - p) % n); av(1.0)
    oph = o["pharmacy"]
    ph = s.pharm
    idx += (oph, oph + 1, oph + 2)
    val += (ph[0] / 21.0, ph[1] / 21.0, ph[2] / 21.0)
    RT = g.RTYPE
    own = [0] * NUM_RISK_TYPES
    for c in s.hand[p]:
        own[RT[c]] += 1
    pub = [0] * NUM_RISK_TYPES
    for c in s.used:
        pub[RT[c]] += 1
    for q in range(n):
        for c in s.front[q]:
            pub[RT[c]] += 1
        for c in s.vir[q]:
            if KIND[c] == KIND_RISK:
                pub[RT[c]] += 1
        for c in s.syr[q]:
            if KIND[c] == KIND_RISK:
                pub[RT[c]] += 1
    oor, opr = o["own_risk"], o["public_risk"]
    for t in range(NUM_RISK_TYPES):
        if own[t]:
            ai(oor + t); av(min(own[t] / 3.0, 1.0))
        if pub[t]:
            ai(opr + t); av(min(pub[t] / 3.0, 1.0))
    if s.rc >= 0:
        if s.issuer == p:
            ai(o["risk_circ"] + RT[s.rc]); av(1.0)
        ai(o["risk_issuer"] + (s.issuer - p) % n); av(1.0)
    if s.pay_need:
        opy = o["payment"]
        pa = s.pay_add
        idx += (opy, opy + 1, opy + 2, opy + 3)
        val += (min((s.pay_need - pa[0] - 2 * pa[1] - 3 * pa[2]) / 20.0, 1.0), pa[0] / 14.0, pa[1] / 14.0, pa[2] / 14.0)
    col = s.qcol[0] if s.qcol else s.give_col
    if col >= 0:
        ai(o["pending_colour"] + col); av(1.0)
    if s.icu >= 0:
        ai(o["last_icu"] + (s.icu - p) % n); av(1.0)
    vec[idx] = val
    return vec


def _card(cat, c):
    return None if c < 0 else cat.name[c]


def view(s, p: int) -> dict:
    """JSON-safe dict of exactly what seat p may know (absolute seat numbers)."""
    g = s.game
    cat = g.cat
    n = g.num_players
    nm = cat.name
    players = []
    for q in range(n):
        players.append({
            "seat": q,
            "pills": dict(zip(COLOURS, s.pills[q])),
            "stake": dict(zip(COLOURS, s.stake[q])),
            "viruses": [{"card": nm[v], "value": cat.value[v], "syringes": s.nsyr[v], "cross": cat.cross[v]}
                        for v in s.vir[q]],
            "syringes": [{"card": nm[x], "on": _card(cat, s.on[x])} for x in s.syr[q]],
            "illness": s.illness(q),
            "risk_hand_size": len(s.hand[q]),
            "in_front": [nm[c] for c in s.front[q]],
            "nurse_patient": s.nurse[q],
            "diagnosis_candidate": s.diag[q],
            "total": s.totals[q],
        })

    def up(k):
        st = s.stacks[k]
        if not st:
            return None
        c = st[-1]
        return {"card": nm[c], "value": cat.value[c], "pills": dict(zip(COLOURS, cat.pills[c])),
                "cross": cat.cross[c], "syringe": cat.kind[c] == KIND_SYRINGE}

    circ = None
    if s.circ >= 0:
        c = s.circ
        circ = {"card": nm[c], "value": cat.value[c], "cross": cat.cross[c],
                "syringe": cat.kind[c] == KIND_SYRINGE, "holder": s.cur, "giver": s.giver,
                "requirement": s.req}
    risk = None
    if s.rc >= 0:
        risk = {"issuer": s.issuer, "holder": s.cur,
                "card": cat.risk_names[cat.rtype[s.rc]] if s.issuer == p else None}
    return {
        "seat": p,
        "num_players": n,
        "round": s.round,
        "rounds": g.config["rounds"],
        "phase": s.phase(),
        "phase_id": s.ph,
        "current_player": s.current_player(),
        "referral_slip": s.active,
        "players": players,
        "stacks": [{"face_up": up(k), "size": len(s.stacks[k])} for k in (0, 1)],
        "pharmacy": dict(zip(COLOURS, s.pharm)),
        "my_risk_cards": sorted(cat.risk_names[cat.rtype[c]] for c in s.hand[p]),
        "risk_cards_turned_over": sorted(nm[c] for c in s.used),
        "risk_cards_unseen_in_box": len(s.rbox),
        "mr_doctor": s.doctor,
        "circulating": circ,
        "risk_card": risk,
        "payment": {"need": s.pay_need, "added": dict(zip(COLOURS, s.pay_add))} if s.pay_need else None,
        "pending_colour": (COLOURS[s.qcol[0]] if s.qcol else (COLOURS[s.give_col] if s.give_col >= 0 else None)),
        "last_intensive_care": s.icu,
        "round_scores": [list(h) for h in s.history],
        "terminal": s.terminal,
    }
