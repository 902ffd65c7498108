"""Checks of a Virus & Co state dict before `state_from_dict` loads it (ValueError naming the field).

- the 49 pills, colour by colour, across supplies (`pills`), stakes (`stake`), the pharmacy
  (`pharm`) and the surplus in the box (`box`); no count below zero;
- every card exactly once across the stacks, displays (`vir`, `syr`), risk hands (`hand`), the
  unseen box (`rbox`), turned-over risk cards (`used`, `front`), the circulating cards (`circ`,
  `rc`) and a card being placed (`pend`), each in a place its kind can lie;
- one entry per seat in the per-seat lists; seats, phases, colours and card ids in range;
- the cross-references: syringes lie on a virus of their own display (`on`), `nsyr` counts them,
  `pub` counts the turned-over risk cards, Nurse / Diagnosis / Mr. Doctor lie before their keeper;
- what the rules never leave standing: nobody over 12 illness or with 3 syringes while the game
  goes on ("lands immediately in the INTENSIVE CARE UNIT"), stakes only while a card circulates,
  the fields of the decision being taken set, and the round and score history in step.
"""
from __future__ import annotations

from collections import Counter

from ..core.validate import check_bool, check_conserved, check_int, check_ints, check_list, fail
from . import tables as T
from .cards import (COLOURS, KIND_RISK, KIND_SYRINGE, NUM_RISK_TYPES, R_DIAGNOSIS, R_DOCTOR, R_INJECTION, R_NURSE,
                    R_PLAGUE2, R_PLAGUE3)

_FRONT = (R_DIAGNOSIS, R_NURSE, R_DOCTOR)          # "placed in front of the player who turns it over"
_NOT_USED = _FRONT + (R_INJECTION, R_PLAGUE2, R_PLAGUE3)   # these lie in a display or in front


def validate_state_dict(game, d: dict) -> None:
    env = game.env_id
    n = game.num_players
    cat = game.cat
    cfg = game.config
    size, nv = cat.size, cat.num_virus_cards
    seat = n - 1

    def card_list(field, v, length=None):
        check_list(env, field, v, length)
        return v

    # -- progress of the game --------------------------------------------------------------------
    terminal = check_bool(env, "terminal", d["terminal"])
    truncated = check_bool(env, "truncated", d["truncated"])
    rounds = cfg["rounds"]
    rnd = check_int(env, "round", d["round"], 0, rounds)
    turns = check_int(env, "turns", d["turns"], 0, cfg["max_turns"])
    if truncated and not terminal:
        raise fail(env, "truncated", "is true but the game is not over ('terminal' is false)")
    if truncated != (turns >= cfg["max_turns"]):
        raise fail(env, "turns", f"is {turns}: a game is truncated exactly when it reaches max_turns "
                                 f"({cfg['max_turns']}), and 'truncated' is {truncated}")
    if terminal and not truncated and rnd != rounds:
        raise fail(env, "round", f"is {rnd}: a game over without truncation has scored all {rounds} rounds")
    if not terminal and rnd >= rounds:
        raise fail(env, "round", f"is {rnd}, but a game of {rounds} rounds that goes on is in round 0..{rounds - 1}")
    check_int(env, "active", d["active"], 0, seat)
    cur = check_int(env, "cur", d["cur"], -1, seat)
    if (cur < 0) != terminal:
        raise fail(env, "cur", f"is {cur}: -1 exactly when the game is over")
    ph = check_int(env, "ph", d["ph"], 0, T.NUM_PHASES - 1)

    # -- pills -------------------------------------------------------------------------------------
    totals = [0, 0, 0]
    for f in ("pills", "stake"):
        check_list(env, f, d[f], n)
        for q in range(n):
            for c, k in enumerate(check_ints(env, f"{f}[{q}]", d[f][q], 3, 0)):
                totals[c] += k
    for f in ("pharm", "box"):
        for c, k in enumerate(check_ints(env, f, d[f], 3, 0)):
            totals[c] += k
    for c in range(3):
        if totals[c] != cat.pill_total[c]:
            raise fail(env, "pills", f"and 'stake', 'pharm', 'box' together hold {totals[c]} {COLOURS[c]} pills; "
                                     f"the game has {cat.pill_total[c]}")

    # -- cards: each in one place, in a place of its kind -----------------------------------------------
    stacks = card_list("stacks", d["stacks"], 2)
    where = {}
    for k in (0, 1):
        where[f"stacks[{k}]"] = check_ints(env, f"stacks[{k}]", stacks[k], None, 0, nv - 1)
    for f in ("vir", "syr", "hand", "front"):
        check_list(env, f, d[f], n)
        for q in range(n):
            where[f"{f}[{q}]"] = check_ints(env, f"{f}[{q}]", d[f][q], None, 0, size - 1)
    for f in ("rbox", "used"):
        where[f] = check_ints(env, f, d[f], None, 0, size - 1)
    circ = check_int(env, "circ", d["circ"], -1, nv - 1)
    rc = check_int(env, "rc", d["rc"], -1, size - 1)
    pend = check_int(env, "pend", d["pend"], -1, size - 1)
    for f, c in (("circ", circ), ("rc", rc), ("pend", pend)):
        where[f] = [c] if c >= 0 else []
    check_conserved(env, "card", where, {c: 1 for c in range(size)})

    RT = cat.rtype
    name = cat.name

    def kinds(field, ok, what):
        for c in where[field]:
            if not ok(c):
                raise fail(env, field, f"holds {name[c]!r}, which is not {what}")

    is_risk = lambda c: cat.kind[c] == KIND_RISK   # noqa: E731
    for q in range(n):
        kinds(f"vir[{q}]", lambda c: cat.value[c] > 0, "a virus (a virus card or a Plague card)")
        kinds(f"syr[{q}]", lambda c: cat.kind[c] == KIND_SYRINGE or RT[c] == R_INJECTION, "a syringe or an Injection")
        kinds(f"hand[{q}]", is_risk, "a risk card")
        kinds(f"front[{q}]", lambda c: RT[c] in _FRONT, "a Nurse, Diagnosis or Mr. Doctor card")
    kinds("rbox", is_risk, "a risk card")
    kinds("used", lambda c: is_risk(c) and RT[c] not in _NOT_USED, "a risk card whose effect is spent")
    kinds("rc", is_risk, "a risk card")

    # -- syringes: where they lie, how many on each virus ------------------------------------------------
    on = check_ints(env, "on", d["on"], size, -1, size - 1)
    nsyr = check_ints(env, "nsyr", d["nsyr"], size, 0, 2)
    count = Counter()
    laid = set()
    for q in range(n):
        for x in d["syr"][q]:
            laid.add(x)
            if on[x] >= 0:
                if on[x] not in d["vir"][q]:
                    raise fail(env, "on", f"says {name[x]} lies on {name[on[x]]}, which is not in the same display")
                count[on[x]] += 1
    for c in range(size):
        if on[c] >= 0 and c not in laid:
            raise fail(env, "on", f"says {name[c]} lies on {name[on[c]]}, but {name[c]} is in no display's syringes")
        if nsyr[c] != count[c]:
            raise fail(env, "nsyr", f"says {nsyr[c]} syringes lie on {name[c]}; 'on' puts {count[c]} there")
    if not terminal:
        for q in range(n):
            ill = sum(T.EFF[cat.value[v]][nsyr[v]] for v in d["vir"][q])
            if ill > T.ICU_ILLNESS:
                raise fail(env, f"vir[{q}]", f"gives illness {ill}, more than 12, in a game that goes on")
            if len(d["syr"][q]) >= T.ICU_SYRINGES:
                raise fail(env, f"syr[{q}]", "holds 3 syringes in a game that goes on")

    # -- risk cards turned over ------------------------------------------------------------------------------
    pub = check_ints(env, "pub", d["pub"], NUM_RISK_TYPES, 0)
    seen = [0] * NUM_RISK_TYPES
    for field, ids in where.items():
        if field.startswith(("vir", "syr", "front", "used", "pend")):
            for c in ids:
                if RT[c] >= 0:
                    seen[RT[c]] += 1
    if list(pub) != seen:
        raise fail(env, "pub", f"counts {list(pub)} turned-over risk cards per type; the table shows {seen}")
    for f, t in (("nurse", R_NURSE), ("diag", R_DIAGNOSIS)):
        for q, x in enumerate(check_ints(env, f, d[f], n, -1, seat)):
            if x == q:
                raise fail(env, f, f"[{q}] names the keeper's own seat (\"may not\" nurse / diagnose oneself)")
            if x >= 0 and not any(RT[c] == t for c in d["front"][q]):
                raise fail(env, f, f"[{q}] is set, but seat {q} has no {cat.risk_names[t]} card in front")
    doctor = check_int(env, "doctor", d["doctor"], -1, seat)
    if doctor >= 0 and not any(RT[c] == R_DOCTOR for c in d["front"][doctor]):
        raise fail(env, "doctor", f"is seat {doctor}, who has no Mr. Doctor card in front")

    # -- the decision being taken -------------------------------------------------------------------------------
    giver = check_int(env, "giver", d["giver"], -1, seat)
    req = check_int(env, "req", d["req"], 0)
    issuer = check_int(env, "issuer", d["issuer"], -1, seat)
    check_int(env, "keeper", d["keeper"], -1, seat)
    pay_need = check_int(env, "pay_need", d["pay_need"], 0)
    check_ints(env, "pay_start", d["pay_start"], 3, 0)
    check_ints(env, "pay_add", d["pay_add"], 3, 0)
    queue = check_ints(env, "queue", d["queue"], None, 0, seat)
    qcol = check_ints(env, "qcol", d["qcol"], None, 0, 2)
    give_col = check_int(env, "give_col", d["give_col"], -1, 2)
    fee_to = check_int(env, "fee_to", d["fee_to"], -1, seat)
    fee_ph = check_int(env, "fee_ph", d["fee_ph"], -1, T.NUM_PHASES - 1)
    if circ < 0:
        if any(any(st) for st in d["stake"]):
            raise fail(env, "stake", "holds pills while no card circulates")
        if giver >= 0 or req:
            raise fail(env, "giver" if giver >= 0 else "req", "is set while no card circulates")
    elif req < 1:
        raise fail(env, "req", f"is {req}; a circulating card requires a stake of 1 or more")
    if (rc >= 0) != (issuer >= 0):
        raise fail(env, "issuer", f"is {issuer}, but 'rc' is {rc}: a face-down risk card has exactly one issuer")
    if not terminal:
        doing = fee_ph if ph == T.PH_FEE else ph
        expect = (
            ("fee_to", fee_to >= 0, ph == T.PH_FEE),
            ("circ", circ >= 0, doing in (T.PH_PASS, T.PH_WARD, T.PH_PAY)),
            ("rc", rc >= 0, doing in (T.PH_RISK_TARGET, T.PH_RISK_OFFER, T.PH_RISK_BACK, T.PH_PAY_PHARM,
                                      T.PH_RISK_PASS)),
            ("pend", pend >= 0, ph in (T.PH_SYRINGE, T.PH_PLAGUE)),
            ("pay_need", pay_need > 0, ph in (T.PH_PAY, T.PH_PAY_PHARM)),
            ("queue", bool(queue), ph == T.PH_RETURN_PILL),
            ("qcol", bool(qcol), ph == T.PH_GUINEA),
            ("give_col", give_col >= 0, ph == T.PH_GIVE_TO),
        )
        for field, is_set, needed in expect:
            if is_set != needed:
                raise fail(env, field, f"is {'set' if is_set else 'unset'} in phase {ph} ({T.PHASES[ph]!r})")
        if ph == T.PH_RETURN_PILL and queue[0] != cur:
            raise fail(env, "queue", f"starts with seat {queue[0]}, but seat {cur} is returning a pill")
        if ph == T.PH_SYRINGE and not (cat.kind[pend] == KIND_SYRINGE or RT[pend] == R_INJECTION):
            raise fail(env, "pend", f"holds {name[pend]!r} while a syringe is being laid")
        if ph == T.PH_PLAGUE and RT[pend] != R_PLAGUE3:
            raise fail(env, "pend", f"holds {name[pend]!r} while a Plague 3 card is being placed")
    elif circ >= 0 or rc >= 0 or pend >= 0:
        raise fail(env, "circ" if circ >= 0 else ("rc" if rc >= 0 else "pend"), "holds a card in a game that is over")

    # -- scores ----------------------------------------------------------------------------------------------------
    check_int(env, "icu", d["icu"], -1, seat)
    tot = check_ints(env, "totals", d["totals"], n)
    hist = check_list(env, "history", d["history"])
    if len(hist) != rnd:
        raise fail(env, "history", f"holds {len(hist)} scored rounds, but 'round' is {rnd}")
    for i, h in enumerate(hist):
        check_ints(env, f"history[{i}]", h, n)
    if list(tot) != [sum(h[q] for h in hist) for q in range(n)]:
        raise fail(env, "totals", "are not the sums of the scored rounds in 'history'")
