"""Observation and view of Virus & Co: what one seat may know, seat-relative (the observer first).

Hidden: the other players' risk hands (only their sizes are public), the face-down circulating
risk card (known to its issuer only), the two risk cards returned unseen, the order of the
face-down parts of both stacks. Everything else lies open on the table.

Observation fields (float32, all in [0, 1]; `n` players, seats relative: 0 = the observer,
k = k seats to the observer's left; NC cards that can lie in a display as a virus):

| field | shape | meaning |
|---|---|---|
| phase | 19 | one-hot of the decision being taken |
| round | rounds | one-hot of the round |
| decider, active | n, n | seat to decide now; holder of the referral slip |
| pills, stake | n x 3, n x 3 | supply / put-up stake per colour (/21) |
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
| payment | 4 | value still to pay in a payment in progress (/20), pills added per colour (/21) |
| pending_colour | 3 | colour being taken (Guinea Pig) or given (Pharmaceutical Trial) |
| last_icu | n | who landed in intensive care last round |
"""
from __future__ import annotations

from array import array

import numpy as np

from ..core import ObsLayout
from .cards import COLOURS, KIND_RISK, KIND_SYRINGE, NUM_RISK_TYPES
from .tables import NUM_PHASES


def layout(game) -> ObsLayout:
    """The observation layout of a game (depends on the player count, rounds and preset)."""
    n = game.num_players
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
    game._offs = tuple(lay.slices[name].start for name, _ in lay.fields)
    game._obs_size = lay.size
    game._obs_zero_bytes = bytes(4 * lay.size)
    game._rounds = game.config["rounds"]
    game._is_risk = tuple(k == KIND_RISK for k in game.cat.kind)
    return lay


def observe(s, p: int) -> np.ndarray:
    """The observation vector of seat p (see the module table)."""
    g = s.game
    n = g.num_players
    (o_phase, o_round, o_decider, o_active, op, ost, oil, osy, ols, orh, otot, o_doctor, o_nurse, o_diag,
     ovw, ovs, osu, o_stacks, oph, o_req, o_giver, oor, opr, o_rc, o_iss, opy, o_pc, o_icu) = g._offs
    vec = array("f", g._obs_zero_bytes)
    vec[o_phase + s.ph] = 1.0
    vec[o_active + (s.active - p) % n] = 1.0
    if s.round < g._rounds:
        vec[o_round + s.round] = 1.0
    if s.cur >= 0:
        vec[o_decider + (s.cur - p) % n] = 1.0
    VAL = g.VALUE
    vidx = g._vidx
    ns = s.nsyr
    on = s.on
    w = n + 3
    for q in range(n):
        r = (q - p) % n
        pl = s.pills[q]
        b = op + 3 * r
        vec[b] = pl[0] / 21.0
        vec[b + 1] = pl[1] / 21.0
        vec[b + 2] = pl[2] / 21.0
        st = s.stake[q]
        if st[0] or st[1] or st[2]:
            b = ost + 3 * r
            vec[b] = st[0] / 21.0
            vec[b + 1] = st[1] / 21.0
            vec[b + 2] = st[2] / 21.0
        vs = s.vir[q]
        if vs:
            ill = 0
            for v in vs:
                k = ns[v]
                vv = VAL[v]
                if k == 0:
                    ill += vv
                else:
                    if k == 1:
                        ill += (vv + 1) // 2
                    vec[ovs + vidx[v]] = k * 0.5
                vec[ovw + vidx[v] * w + r] = 1.0
            vec[oil + r] = ill / 30.0 if ill < 30 else 1.0
        sy = s.syr[q]
        if sy:
            vec[osy + r] = len(sy) / 3.0 if len(sy) < 3 else 1.0
            loose = 0
            for x in sy:
                if on[x] < 0:
                    loose += 1
            if loose:
                vec[ols + r] = loose / 3.0 if loose < 3 else 1.0
        h = s.hand[q]
        if h:
            vec[orh + r] = len(h) / 7.0
        tt = (s.totals[q] + 60) / 400.0
        vec[otot + r] = 0.0 if tt < 0.0 else (1.0 if tt > 1.0 else tt)
        if s.nurse[q] >= 0:
            vec[o_nurse + r * n + (s.nurse[q] - p) % n] = 1.0
        if s.diag[q] >= 0:
            vec[o_diag + r * n + (s.diag[q] - p) % n] = 1.0
    if s.doctor >= 0:
        vec[o_doctor + (s.doctor - p) % n] = 1.0
    KIND = g.KIND
    for k in (0, 1):
        st = s.stacks[k]
        if st:
            c = st[-1]
            if KIND[c] == KIND_SYRINGE:
                vec[osu + k] = 1.0
            else:
                vec[ovw + vidx[c] * w + n + k] = 1.0
            vec[o_stacks + k] = len(st) / 19.0
    if s.circ >= 0:
        c = s.circ
        if KIND[c] == KIND_SYRINGE:
            vec[osu + 2] = 1.0
        else:
            vec[ovw + vidx[c] * w + n + 2] = 1.0
        vec[o_req] = s.req / 40.0 if s.req < 40 else 1.0
        if s.giver >= 0:
            vec[o_giver + (s.giver - p) % n] = 1.0
    ph = s.pharm
    vec[oph] = ph[0] / 21.0
    vec[oph + 1] = ph[1] / 21.0
    vec[oph + 2] = ph[2] / 21.0
    RT = g.RTYPE
    own = [0] * NUM_RISK_TYPES
    for c in s.hand[p]:
        own[RT[c]] += 1
    pub = s.pub
    for t in range(NUM_RISK_TYPES):
        if own[t]:
            vec[oor + t] = own[t] / 3.0 if own[t] < 3 else 1.0
        if pub[t]:
            vec[opr + t] = pub[t] / 3.0 if pub[t] < 3 else 1.0
    if s.rc >= 0:
        if s.issuer == p:
            vec[o_rc + RT[s.rc]] = 1.0
        vec[o_iss + (s.issuer - p) % n] = 1.0
    if s.pay_need:
        pa = s.pay_add
        rest = (s.pay_need - pa[0] - 2 * pa[1] - 3 * pa[2]) / 20.0
        vec[opy] = rest if rest < 1.0 else 1.0
        vec[opy + 1] = pa[0] / 21.0
        vec[opy + 2] = pa[1] / 21.0
        vec[opy + 3] = pa[2] / 21.0
    col = s.qcol[0] if s.qcol else s.give_col
    if col >= 0:
        vec[o_pc + col] = 1.0
    if s.icu >= 0:
        vec[o_icu + (s.icu - p) % n] = 1.0
    return np.frombuffer(vec, dtype=np.float32)


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
        "doctor_fee_for_card_to": s.fee_to,   # during "Mr. Doctor: pay him a pill": the receiver
        "circulating": circ,
        "risk_card": risk,
        "payment": {"need": s.pay_need, "added": dict(zip(COLOURS, s.pay_add))} if s.pay_need else None,
        "pending_colour": (COLOURS[s.qcol[0]] if s.qcol else (COLOURS[s.give_col] if s.give_col >= 0 else None)),
        "last_intensive_care": s.icu,
        "round_scores": [list(h) for h in s.history],
        "terminal": s.terminal,
    }
