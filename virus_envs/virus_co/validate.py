"""Checks of a Virus & Co state dict before `state_from_dict` loads it (ValueError naming the field).

- every field's type, length (one entry per seat, per colour, per card, per risk type) and range;
- the 49 pills, colour by colour, across supplies (`pills`), stakes (`stake`), the pharmacy
  (`pharm`) and the surplus in the box (`box`);
- every card exactly once across the stacks, displays (`vir`, `syr`), risk hands (`hand`), the
  unseen box (`rbox`), turned-over risk cards (`used`, `front`), the circulating cards (`circ`,
  `rc`) and a card being placed (`pend`), each in a place its kind can lie;
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

_FRONT = (R_DIAGNOSIS, R_NURSE, R_DOCTOR)   # "placed in front of the player who turns it over"
_NOT_USED = _FRONT + (R_INJECTION, R_PLAGUE2, R_PLAGUE3)   # these lie in a display or in front
# the phases of a decision about the circulating virus card, about the face-down risk card
_CIRC_PHASES = (T.PH_PASS, T.PH_WARD, T.PH_PAY)
_RISK_PHASES = (T.PH_RISK_TARGET, T.PH_RISK_OFFER, T.PH_RISK_BACK, T.PH_PAY_PHARM, T.PH_RISK_PASS)


def validate_state_dict(game, d: dict) -> None:
    """Raise ValueError naming the first field of d that no position of this game can hold."""
    env = game.env_id
    n = game.num_players
    cat = game.cat
    cfg = game.config
    size, nv, seat, last_ph = cat.size, cat.num_virus_cards, n - 1, T.NUM_PHASES - 1
    RT, name = cat.rtype, cat.name

    # -- types, lengths, ranges --------------------------------------------------------------------
    terminal = check_bool(env, "terminal", d["terminal"])
    truncated = check_bool(env, "truncated", d["truncated"])
    v = {}
    for field, lo, hi in (("round", 0, cfg["rounds"]), ("turns", 0, cfg["max_turns"]), ("active", 0, seat),
                          ("cur", -1, seat), ("ph", 0, last_ph), ("circ", -1, nv - 1), ("rc", -1, size - 1),
                          ("pend", -1, size - 1), ("doctor", -1, seat), ("giver", -1, seat), ("req", 0, None),
                          ("issuer", -1, seat), ("keeper", -1, seat), ("pay_need", 0, None), ("give_col", -1, 2),
                          ("fee_to", -1, seat), ("fee_ph", -1, last_ph), ("icu", -1, seat)):
        v[field] = check_int(env, field, d[field], lo, hi)
    for field, length, lo, hi in (("pharm", 3, 0, None), ("box", 3, 0, None), ("pay_start", 3, 0, None),
                                  ("pay_add", 3, 0, None), ("rbox", None, 0, size - 1), ("used", None, 0, size - 1),
                                  ("on", size, -1, size - 1), ("nsyr", size, 0, 2), ("pub", NUM_RISK_TYPES, 0, None),
                                  ("nurse", n, -1, seat), ("diag", n, -1, seat), ("queue", None, 0, seat),
                                  ("qcol", None, 0, 2), ("totals", n, None, None)):
        check_ints(env, field, d[field], length, lo, hi)
    for field, count, length, hi in (("pills", n, 3, None), ("stake", n, 3, None), ("vir", n, None, size - 1),
                                     ("syr", n, None, size - 1), ("hand", n, None, size - 1),
                                     ("front", n, None, size - 1), ("stacks", 2, None, nv - 1)):
        for q, x in enumerate(check_list(env, field, d[field], count)):
            check_ints(env, f"{field}[{q}]", x, length, 0, hi)
    for i, h in enumerate(check_list(env, "history", d["history"])):
        check_ints(env, f"history[{i}]", h, n)

    # -- progress of the game ----------------------------------------------------------------------
    rnd, turns, rounds, max_turns = v["round"], v["turns"], cfg["rounds"], cfg["max_turns"]
    if truncated and not terminal:
        raise fail(env, "truncated", "is true but the game is not over ('terminal' is false)")
    if truncated != (turns == max_turns):
        raise fail(env, "turns", f"is {turns}: a game is truncated exactly when it reaches max_turns "
                                 f"({max_turns}), and 'truncated' is {truncated}")
    if terminal and not truncated and rnd != rounds:
        raise fail(env, "round", f"is {rnd}: a game over without truncation has scored all {rounds} rounds")
    if not terminal and rnd == rounds:
        raise fail(env, "round", f"is {rnd}, but a game of {rounds} rounds that goes on is in round 0..{rounds - 1}")
    if (v["cur"] < 0) != terminal:
        raise fail(env, "cur", f"is {v['cur']}: -1 exactly when the game is over")

    # -- pills -------------------------------------------------------------------------------------
    for c in range(3):
        total = sum(d["pills"][q][c] + d["stake"][q][c] for q in range(n)) + d["pharm"][c] + d["box"][c]
        if total != cat.pill_total[c]:
            raise fail(env, "pills", f"and 'stake', 'pharm', 'box' together hold {total} {COLOURS[c]} pills; "
                                     f"the game has {cat.pill_total[c]}")

    # -- cards: each in one place, in a place of its kind ------------------------------------------
    where = {f"stacks[{k}]": d["stacks"][k] for k in (0, 1)}
    for field in ("vir", "syr", "hand", "front"):
        where.update((f"{field}[{q}]", d[field][q]) for q in range(n))
    where.update(rbox=d["rbox"], used=d["used"])
    where.update((field, [v[field]] if v[field] >= 0 else []) for field in ("circ", "rc", "pend"))
    check_conserved(env, "card", {f: [name[c] for c in ids] for f, ids in where.items()}, dict.fromkeys(name, 1))

    def place(field, ok, what):
        for c in where[field]:
            if not ok(c):
                raise fail(env, field, f"holds {name[c]!r}, which is not {what}")

    def is_risk(c):
        return cat.kind[c] == KIND_RISK

    def is_syringe(c):
        return cat.kind[c] == KIND_SYRINGE or RT[c] == R_INJECTION

    for q in range(n):
        place(f"vir[{q}]", lambda c: cat.value[c] > 0, "a virus (a virus card or a Plague card)")
        place(f"syr[{q}]", is_syringe, "a syringe or an Injection")
        place(f"hand[{q}]", is_risk, "a risk card")
        place(f"front[{q}]", lambda c: RT[c] in _FRONT, "a Nurse, Diagnosis or Mr. Doctor card")
    place("rbox", is_risk, "a risk card")
    # Infection, Medicare Patient, Pharmaceutical Trial, Recall, Prescription, Guinea Pig, Use-by Date
    place("used", lambda c: is_risk(c) and RT[c] not in _NOT_USED, "a risk card whose effect is spent")
    place("rc", is_risk, "a risk card")

    # -- syringes: where they lie, how many on each virus ------------------------------------------
    on, nsyr = d["on"], d["nsyr"]
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
            ill = sum(T.EFF[cat.value[x]][nsyr[x]] for x in d["vir"][q])
            if ill > T.ICU_ILLNESS:
                raise fail(env, f"vir[{q}]", f"gives illness {ill}, more than 12, in a game that goes on")
            if len(d["syr"][q]) >= T.ICU_SYRINGES:
                raise fail(env, f"syr[{q}]", "holds 3 syringes in a game that goes on")

    # -- risk cards turned over --------------------------------------------------------------------
    seen = [0] * NUM_RISK_TYPES
    for field, ids in where.items():
        if field.startswith(("vir", "syr", "front", "used", "pend")):
            for c in ids:
                if RT[c] >= 0:
                    seen[RT[c]] += 1
    if d["pub"] != seen:
        raise fail(env, "pub", f"counts {d['pub']} turned-over risk cards per type; the table shows {seen}")
    for field, t in (("nurse", R_NURSE), ("diag", R_DIAGNOSIS)):
        for q, x in enumerate(d[field]):
            if x == q:
                raise fail(env, f"{field}[{q}]", "names the keeper's own seat (\"may not\" nurse / diagnose oneself)")
            if x >= 0 and not any(RT[c] == t for c in d["front"][q]):
                raise fail(env, f"{field}[{q}]", f"is set, but seat {q} has no {cat.risk_names[t]} card in front")
    if v["doctor"] >= 0 and not any(RT[c] == R_DOCTOR for c in d["front"][v["doctor"]]):
        raise fail(env, "doctor", f"is seat {v['doctor']}, who has no Mr. Doctor card in front")

    # -- scores ------------------------------------------------------------------------------------
    hist = d["history"]
    if len(hist) != rnd:
        raise fail(env, "history", f"holds {len(hist)} scored rounds, but 'round' is {rnd}")
    if d["totals"] != [sum(h[q] for h in hist) for q in range(n)]:
        raise fail(env, "totals", "are not the sums of the scored rounds in 'history'")

    # -- the decision being taken ------------------------------------------------------------------
    circ, rc, pend, ph = v["circ"], v["rc"], v["pend"], v["ph"]
    if circ < 0:
        if any(any(st) for st in d["stake"]):
            raise fail(env, "stake", "holds pills while no card circulates")
        if v["giver"] >= 0:
            raise fail(env, "giver", f"is {v['giver']} while no card circulates")
        if v["req"] > 0:
            raise fail(env, "req", f"is {v['req']} while no card circulates")
    elif v["req"] == 0:
        raise fail(env, "req", "is 0; a circulating card requires a stake of 1 or more")
    if (rc >= 0) != (v["issuer"] >= 0):
        raise fail(env, "issuer", f"is {v['issuer']}, but 'rc' is {rc}: a face-down risk card has exactly one issuer")
    if terminal:
        for field in ("circ", "rc", "pend"):
            if v[field] >= 0:
                raise fail(env, field, "holds a card in a game that is over")
        if v["keeper"] >= 0:
            raise fail(env, "keeper", f"is {v['keeper']}: nobody keeps a risk card in a game that is over")
        return
    doing = v["fee_ph"] if ph == T.PH_FEE else ph
    for field, is_set, needed in (
            ("fee_to", v["fee_to"] >= 0, ph == T.PH_FEE),
            ("circ", circ >= 0, doing in _CIRC_PHASES),
            ("rc", rc >= 0, doing in _RISK_PHASES),
            ("pend", pend >= 0, ph in (T.PH_SYRINGE, T.PH_PLAGUE)),
            ("pay_need", v["pay_need"] > 0, ph in (T.PH_PAY, T.PH_PAY_PHARM)),
            ("queue", bool(d["queue"]), ph == T.PH_RETURN_PILL),
            ("qcol", bool(d["qcol"]), ph == T.PH_GUINEA),
            ("give_col", v["give_col"] >= 0, ph == T.PH_GIVE_TO)):
        if is_set != needed:
            raise fail(env, field, f"is {'set' if is_set else 'unset'} in phase {ph} ({T.PHASES[ph]!r})")
    paying = ph in (T.PH_PAY, T.PH_PAY_PHARM)
    for field in ("pay_start", "pay_add"):     # a payment's record: the pills held at its start, those laid so far
        if not paying and any(d[field]):
            raise fail(env, field, f"is {d[field]} in phase {ph} ({T.PHASES[ph]!r}), with no payment under way")
    if ph == T.PH_RETURN_PILL and d["queue"][0] != v["cur"]:
        raise fail(env, "queue", f"starts with seat {d['queue'][0]}, but seat {v['cur']} is returning a pill")
    if ph == T.PH_SYRINGE and not is_syringe(pend):
        raise fail(env, "pend", f"holds {name[pend]!r} while a syringe is being laid")
    if ph == T.PH_PLAGUE and RT[pend] != R_PLAGUE3:
        raise fail(env, "pend", f"holds {name[pend]!r} while a Plague 3 card is being placed")
