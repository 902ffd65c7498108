"""The state contract of Virus & Co: what the loader refuses (each corruption names its field), what
determinize resamples and what hidden_facts names (docs/rules/virus_co.md, "Hidden information")."""
import copy
import json

import numpy as np
import pytest

import virus_envs
from virus_envs.virus_co.game import (PH_FEE, PH_GIVE_TO, PH_GUINEA, PH_PAY, PH_PLAGUE, PH_RETURN_PILL, PH_RISK_OFFER,
                                      PH_SYRINGE, PH_TURN, PH_WARD)
from virus_envs.virus_co.scenario import build, card_id, do, risk_id


def G(n=4, **cfg):
    return virus_envs.game("virus_co_v0", num_players=n, **cfg)


def _table():
    """Round 2 of 4 players: viruses and syringes in the displays, risk hands, Nurse, Mr. Doctor."""
    g = G()
    s = build(g, active=2, pills={0: (3, 2, 2), 1: (1, 0, 3), 2: (4, 1, 0), 3: (0, 2, 2)}, pharmacy=(2, 3, 1),
              displays={0: [("V16", 1), "V11"], 1: ["V26"], 2: [("V23", 2)], 3: ["Plague 2"]}, loose={3: 1},
              hands={0: ["Recall", "Infection"], 1: ["Plague 3"], 2: ["Guinea Pig", "Prescription"]},
              up=("V25", "S01"), history=[[5, -13, 7, 2]])
    nurse, doc = risk_id(g, "Nurse", ()), risk_id(g, "Mr. Doctor", ())
    for c in (nurse, doc):
        s.rbox.remove(c)
    s.front[1] = [nurse]
    s.nurse[1] = 3
    s.front[2] = [doc]
    s.doctor = 2
    s.pub[g.RTYPE[nurse]] += 1
    s.pub[g.RTYPE[doc]] += 1
    return g, s


def test_a_built_table_loads_and_plays_on():
    g, s = _table()
    t = g.state_from_dict(json.loads(json.dumps(s.to_dict())))
    assert t.to_dict() == s.to_dict() and np.array_equal(t.legal_action_mask(), s.legal_action_mask())


def _from_stack(g, d, name):
    c = card_id(g, name)
    for k in (0, 1):
        if c in d["stacks"][k]:
            d["stacks"][k].remove(c)
            return c
    raise AssertionError(name)


def _move(g, d, name, field, q=None):
    """Take a card from a stack into d[field] (or d[field][q]; a scalar field gets the card id)."""
    c = _from_stack(g, d, name)
    if isinstance(d[field], list):
        (d[field] if q is None else d[field][q]).append(c)
    else:
        d[field] = c


def _circulating(g, d, name="V25", ph=PH_WARD, req=2):
    """V25 circulating: seat 2 put it into circulation, seat 3 holds it."""
    _move(g, d, name, "circ")
    d.update(giver=2, req=req, cur=3, ph=ph)


def _finished(g, d):
    d.update(terminal=True, cur=-1, round=3, history=d["history"] + [[0, 0, 0, 0], [0, 0, 0, 0]])


def _edit(**kw):
    return lambda g, d: d.update(kw)


def _do(*steps):
    def f(g, d):
        for step in steps:
            step(g, d)
    return f


VANISHED = ("0 of 1 copies found in stacks[0], stacks[1], vir[0], vir[1], vir[2], vir[3], syr[0], syr[1], "
            "syr[2], syr[3], hand[0], hand[1], hand[2], hand[3], front[0], front[1], front[2], front[3], rbox, "
            "used, circ, rc, pend")
TURN = "0 ('turn: take, circulate or play a risk card')"

# (what is corrupted, the edit, the message after "state dict for virus_co_v0: ")
CORRUPTIONS = [
    # progress of the game
    ("truncated but not over", _edit(truncated=True), "field 'truncated' is true but the game is not over "
                                                      "('terminal' is false)"),
    ("max_turns reached, not truncated", _edit(turns=400), "field 'turns' is 400: a game is truncated exactly "
                                                           "when it reaches max_turns (400), and 'truncated' is False"),
    ("truncated before max_turns", _edit(truncated=True, terminal=True, cur=-1),
     "field 'turns' is 0: a game is truncated exactly when it reaches max_turns (400), and 'truncated' is True"),
    ("over after one of three rounds", _edit(terminal=True, cur=-1),
     "field 'round' is 1: a game over without truncation has scored all 3 rounds"),
    ("round 3 of 3 while the game goes on", _edit(round=3),
     "field 'round' is 3, but a game of 3 rounds that goes on is in round 0..2"),
    ("nobody to decide in a game that goes on", _edit(cur=-1), "field 'cur' is -1: -1 exactly when the game is over"),
    ("a decider in a finished game", _do(_finished, _edit(cur=2)), "field 'cur' is 2: -1 exactly when the game is over"),
    # pills
    ("a blue pill too many in the pharmacy", lambda g, d: d["pharm"].__setitem__(0, d["pharm"][0] + 1),
     "field 'pills' and 'stake', 'pharm', 'box' together hold 22 blue pills; the game has 21"),
    ("a yellow pill put up out of nowhere", lambda g, d: d["stake"][1].__setitem__(1, 1),
     "field 'pills' and 'stake', 'pharm', 'box' together hold 15 yellow pills; the game has 14"),
    ("a red pill gone from a supply", lambda g, d: d["pills"][0].__setitem__(2, 1),
     "field 'pills' and 'stake', 'pharm', 'box' together hold 13 red pills; the game has 14"),
    ("a blue pill gone from the box", lambda g, d: d["box"].__setitem__(0, d["box"][0] - 1),
     "field 'pills' and 'stake', 'pharm', 'box' together hold 20 blue pills; the game has 21"),
    # cards
    ("a card duplicated into a display", lambda g, d: d["vir"][1].append(d["stacks"][0][0]),
     "field 'vir[1]' holds card 'V01' once too often: 2 copies in stacks[0], vir[1], the game has 1"),
    ("a stack emptied", lambda g, d: d["stacks"].__setitem__(0, []), "card 'V01' has vanished: " + VANISHED),
    ("a risk card dropped from a hand", lambda g, d: d["hand"][0].pop(), "card 'Recall' has vanished: " + VANISHED),
    ("a syringe in the viruses of a display", lambda g, d: _move(g, d, "S01", "vir", 2),
     "field 'vir[2]' holds 'S01', which is not a virus (a virus card or a Plague card)"),
    ("a virus among the syringes", lambda g, d: _move(g, d, "V25", "syr", 1),
     "field 'syr[1]' holds 'V25', which is not a syringe or an Injection"),
    ("a virus card in a risk hand", lambda g, d: _move(g, d, "V25", "hand", 3),
     "field 'hand[3]' holds 'V25', which is not a risk card"),
    ("a Recall in front of a player", lambda g, d: d["front"][0].append(d["hand"][0].pop()),
     "field 'front[0]' holds 'Recall', which is not a Nurse, Diagnosis or Mr. Doctor card"),
    ("a virus card in the unseen box", lambda g, d: _move(g, d, "V25", "rbox"),
     "field 'rbox' holds 'V25', which is not a risk card"),
    ("a virus card among the spent risk cards", lambda g, d: _move(g, d, "V25", "used"),
     "field 'used' holds 'V25', which is not a risk card whose effect is spent"),
    ("a Nurse among the spent risk cards", lambda g, d: d["used"].append(d["front"][1].pop()),
     "field 'used' holds 'Nurse', which is not a risk card whose effect is spent"),
    ("a virus as the face-down risk card", _do(lambda g, d: _move(g, d, "V25", "rc"), _edit(issuer=0)),
     "field 'rc' holds 'V25', which is not a risk card"),
    # syringes
    ("a syringe on a virus of another display", lambda g, d: _syringe_on(g, d, "V26"),
     "field 'on' says S07 lies on V26, which is not in the same display"),
    ("a stack's syringe said to lie on a virus", lambda g, d: d["on"].__setitem__(card_id(g, "S01"), card_id(g, "V11")),
     "field 'on' says S01 lies on V11, but S01 is in no display's syringes"),
    ("a syringe count on a virus that has none", lambda g, d: d["nsyr"].__setitem__(card_id(g, "V11"), 1),
     "field 'nsyr' says 1 syringes lie on V11; 'on' puts 0 there"),
    ("a third syringe in a game that goes on", lambda g, d: _move(g, d, "S01", "syr", 2),
     "field 'syr[2]' holds 3 syringes in a game that goes on"),
    ("16 illness in a game that goes on", _do(lambda g, d: _move(g, d, "V25", "vir", 1),
                                              lambda g, d: _move(g, d, "V20", "vir", 1)),
     "field 'vir[1]' gives illness 16, more than 12, in a game that goes on"),
    ("13 illness", _do(lambda g, d: _move(g, d, "V25", "vir", 1), lambda g, d: _move(g, d, "V04", "vir", 1)),
     "field 'vir[1]' gives illness 13, more than 12, in a game that goes on"),
    ("15 illness, a virus halved by its syringe", _do(lambda g, d: _move(g, d, "V25", "vir", 0),
                                                      lambda g, d: _move(g, d, "V20", "vir", 0)),
     "field 'vir[0]' gives illness 15, more than 12, in a game that goes on"),    # V16 under a syringe: 2
    ("10 illness beside a killed virus loads", _do(lambda g, d: _move(g, d, "V25", "vir", 2),
                                                   lambda g, d: _move(g, d, "V20", "vir", 2)), None),
    ("3 syringes in a finished game", _do(_finished, lambda g, d: _move(g, d, "S01", "syr", 2)), None),
    ("16 illness in a finished game", _do(_finished, lambda g, d: _move(g, d, "V25", "vir", 1),
                                          lambda g, d: _move(g, d, "V20", "vir", 1)), None),
    # risk cards turned over
    ("a turned-over count that does not match the table", lambda g, d: d["pub"].__setitem__(0, 1),
     "field 'pub' counts [1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0] turned-over risk cards per type; "
     "the table shows [0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]"),
    ("a nurse of herself", lambda g, d: d["nurse"].__setitem__(1, 1),
     "field 'nurse[1]' names the keeper's own seat (\"may not\" nurse / diagnose oneself)"),
    ("a diagnosis of oneself", lambda g, d: d["diag"].__setitem__(3, 3),
     "field 'diag[3]' names the keeper's own seat (\"may not\" nurse / diagnose oneself)"),
    ("a nurse without the card", lambda g, d: d["nurse"].__setitem__(2, 0),
     "field 'nurse[2]' is set, but seat 2 has no Nurse card in front"),
    ("a diagnosis without the card", lambda g, d: d["diag"].__setitem__(0, 2),
     "field 'diag[0]' is set, but seat 0 has no Diagnosis card in front"),
    ("Mr. Doctor without the card", _edit(doctor=0), "field 'doctor' is seat 0, who has no Mr. Doctor card in front"),
    # scores
    ("two scored rounds in round 1", lambda g, d: d["history"].append([0, 0, 0, 0]),
     "field 'history' holds 2 scored rounds, but 'round' is 1"),
    ("totals that are not the rounds' sums", lambda g, d: d["totals"].__setitem__(0, 6),
     "field 'totals' are not the sums of the scored rounds in 'history'"),
    ("a finished game's totals", _do(_finished, lambda g, d: d["totals"].__setitem__(3, 0)),
     "field 'totals' are not the sums of the scored rounds in 'history'"),
    # the decision being taken
    ("stakes with nothing circulating", lambda g, d: _stake(d, 0), "field 'stake' holds pills while no card circulates"),
    ("a giver with nothing circulating", _edit(giver=0), "field 'giver' is 0 while no card circulates"),
    ("a requirement with nothing circulating", _edit(req=2), "field 'req' is 2 while no card circulates"),
    ("a circulating card requiring nothing", lambda g, d: _circulating(g, d, req=0),
     "field 'req' is 0; a circulating card requires a stake of 1 or more"),
    ("a circulating card in the ward-off phase loads", lambda g, d: _circulating(g, d), None),
    ("a risk card without an issuer", lambda g, d: d.update(rc=d["hand"][0].pop()),
     "field 'issuer' is -1, but 'rc' is 53: a face-down risk card has exactly one issuer"),
    ("an issuer without a risk card", _edit(issuer=1), "field 'issuer' is 1, but 'rc' is -1: a face-down risk "
                                                        "card has exactly one issuer"),
    ("a card circulating in a finished game", _do(_finished, lambda g, d: _circulating(g, d), _edit(cur=-1)),
     "field 'circ' holds a card in a game that is over"),
    ("a face-down risk card in a finished game", _do(_finished, lambda g, d: d.update(rc=d["hand"][0].pop(), issuer=0)),
     "field 'rc' holds a card in a game that is over"),
    ("a syringe being laid in a finished game", _do(_finished, lambda g, d: _move(g, d, "S01", "pend")),
     "field 'pend' holds a card in a game that is over"),
    ("a risk card's keeper in a finished game", _do(_finished, _edit(keeper=1)),
     "field 'keeper' is 1: nobody keeps a risk card in a game that is over"),
    ("a finished game loads", _finished, None),
    ("Mr. Doctor's fee with nobody to pay", _edit(ph=PH_FEE), f"field 'fee_to' is unset in phase 18 "
                                                             f"('Mr. Doctor: pay him a pill')"),
    ("a fee receiver in a turn", _edit(fee_to=1), f"field 'fee_to' is set in phase {TURN}"),
    ("a card circulating in a turn", lambda g, d: _circulating(g, d, ph=PH_TURN), f"field 'circ' is set in phase {TURN}"),
    ("a ward-off phase with no card", _edit(ph=PH_WARD),
     "field 'circ' is unset in phase 2 ('circulation: keep or ward off')"),
    ("Mr. Doctor's fee for a card that is gone", _edit(ph=PH_FEE, fee_to=1, fee_ph=PH_WARD),
     "field 'circ' is unset in phase 18 ('Mr. Doctor: pay him a pill')"),
    ("Mr. Doctor's fee for a circulating card loads",
     _do(lambda g, d: _circulating(g, d), _edit(ph=PH_FEE, fee_to=3, fee_ph=PH_WARD, cur=2)), None),
    ("a face-down risk card in a turn", lambda g, d: d.update(rc=d["hand"][0].pop(), issuer=0),
     f"field 'rc' is set in phase {TURN}"),
    ("a risk decision with no risk card", _edit(ph=PH_RISK_OFFER),
     "field 'rc' is unset in phase 6 ('risk card: keep or pay one pill')"),
    ("a card being placed in a turn", lambda g, d: _move(g, d, "S01", "pend"), f"field 'pend' is set in phase {TURN}"),
    ("a syringe decision with no syringe", _edit(ph=PH_SYRINGE),
     "field 'pend' is unset in phase 4 ('syringe: choose the virus')"),
    ("a virus laid as a syringe", _do(lambda g, d: _move(g, d, "V25", "pend"), _edit(ph=PH_SYRINGE)),
     "field 'pend' holds 'V25' while a syringe is being laid"),
    ("an Injection being laid loads", lambda g, d: _turned_over(g, d, "Injection", ph=PH_SYRINGE), None),
    ("a Plague 3 being placed loads", lambda g, d: _turned_over(g, d, "Plague 3", ph=PH_PLAGUE), None),
    ("a Plague 2 placed as Plague 3", lambda g, d: _turned_over(g, d, "Plague 2", ph=PH_PLAGUE),
     "field 'pend' holds 'Plague 2 #2' while a Plague 3 card is being placed"),
    ("a syringe placed as Plague 3", _do(lambda g, d: _move(g, d, "S01", "pend"), _edit(ph=PH_PLAGUE)),
     "field 'pend' holds 'S01' while a Plague 3 card is being placed"),
    ("a payment in a turn", _edit(pay_need=2), f"field 'pay_need' is set in phase {TURN}"),
    ("a payment of nothing", lambda g, d: _circulating(g, d, ph=PH_PAY),
     "field 'pay_need' is unset in phase 3 ('circulation: put up pills')"),
    ("pill returns queued in a turn", _edit(queue=[1]), f"field 'queue' is set in phase {TURN}"),
    ("nobody queued to return a pill", _edit(ph=PH_RETURN_PILL),
     "field 'queue' is unset in phase 16 ('return a pill to the pharmacy')"),
    ("another seat first in the queue", _edit(ph=PH_RETURN_PILL, queue=[3, 2]),
     "field 'queue' starts with seat 3, but seat 2 is returning a pill"),
    ("Guinea Pig pills in a turn", _edit(qcol=[0]), f"field 'qcol' is set in phase {TURN}"),
    ("Guinea Pig with no pill to take", _edit(ph=PH_GUINEA),
     "field 'qcol' is unset in phase 17 ('guinea pig: choose whom to take the pill from')"),
    ("a pill to give in a turn", _edit(give_col=1), f"field 'give_col' is set in phase {TURN}"),
    # a payment's record (the pills at its start, those laid) is empty when no payment is under way, as a fresh
    # deal leaves it
    ("pills recorded at the start of no payment", _edit(pay_start=[0, 0, 1]),
     f"field 'pay_start' is [0, 0, 1] in phase {TURN}, with no payment under way"),
    ("pills laid in no payment", _edit(pay_add=[1, 0, 0]),
     f"field 'pay_add' is [1, 0, 0] in phase {TURN}, with no payment under way"),
    ("a Pharmaceutical Trial with no pill", _edit(ph=PH_GIVE_TO),
     "field 'give_col' is unset in phase 15 ('pharmaceutical trial: choose a player')"),
]


def _turned_over(g, d, type_name, ph):
    """A risk card of that type from the unseen box, turned over and being placed (`pend`)."""
    c = next(c for c in d["rbox"] if g.cat.risk_names[g.RTYPE[c]] == type_name)
    d["rbox"].remove(c)
    d["pub"][g.RTYPE[c]] += 1
    d.update(pend=c, ph=ph)


def _syringe_on(g, d, name):
    x = next(x for x in d["syr"][3] if d["on"][x] < 0)          # seat 3's loose syringe
    d["on"][x] = card_id(g, name)                                # V26 lies in seat 1's display
    d["nsyr"][card_id(g, name)] += 1


def _stake(d, q):
    d["pills"][q][0] -= 1
    d["stake"][q][0] += 1


@pytest.mark.parametrize("what,edit,message", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_loader_refuses_a_corrupted_dict_naming_the_field(what, edit, message):
    """Each check of validate.py on its own: the edit breaks one rule of the state; message None: the
    edited dict is a position the game can hold, and loads."""
    g, s = _table()
    d = copy.deepcopy(s.to_dict())
    edit(g, d)
    assert json.dumps(s.to_dict(), sort_keys=True) != json.dumps(d, sort_keys=True)   # the edit changed it
    if message is None:
        g.state_from_dict(d)
        return
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == "state dict for virus_co_v0: " + message


# -- every field's type, length and range, with the exact message ------------------------------------------
# 4 players: 58 cards (ids 0..37 virus cards, 38..57 risk cards), 19 phases, 3 rounds, max_turns 400
P = "state dict for virus_co_v0: field "
SCALARS = [("round", 0, 3), ("turns", 0, 400), ("active", 0, 3), ("cur", -1, 3), ("ph", 0, 18), ("circ", -1, 37),
           ("rc", -1, 57), ("pend", -1, 57), ("doctor", -1, 3), ("giver", -1, 3), ("req", 0, None),
           ("issuer", -1, 3), ("keeper", -1, 3), ("pay_need", 0, None), ("give_col", -1, 2), ("fee_to", -1, 3),
           ("fee_ph", -1, 18), ("icu", -1, 3)]
# (field, entries, lowest, highest); None: any number of entries / no bound
LISTS = [("pharm", 3, 0, None), ("box", 3, 0, None), ("pay_start", 3, 0, None), ("pay_add", 3, 0, None),
         ("rbox", None, 0, 57), ("used", None, 0, 57), ("on", 58, -1, 57), ("nsyr", 58, 0, 2), ("pub", 13, 0, None),
         ("nurse", 4, -1, 3), ("diag", 4, -1, 3), ("queue", None, 0, 3), ("qcol", None, 0, 2), ("totals", 4, None, None)]
NESTED = [("pills", 4, 3, None), ("stake", 4, 3, None), ("vir", 4, None, 57), ("syr", 4, None, 57),
          ("hand", 4, None, 57), ("front", 4, None, 57), ("stacks", 2, None, 37), ("history", None, 4, None)]


def _span(lo, hi):
    return f"{'-inf' if lo is None else lo}..{'inf' if hi is None else hi}"


def _range_cases():
    cases = []
    for f, lo, hi in SCALARS:
        for bad in [lo - 1] + ([hi + 1] if hi is not None else []):
            cases.append((f"{f}={bad}", (f,), bad, f"{P}'{f}' must be in {_span(lo, hi)}, got {bad}"))
        cases.append((f"{f}='1'", (f,), "1", f"{P}'{f}' must be an int, got '1'"))
    for f in ("terminal", "truncated"):
        cases.append((f"{f}=0", (f,), 0, f"{P}'{f}' must be a bool, got 0"))
    for f, length, lo, hi in LISTS:
        for bad in ([lo - 1] if lo is not None else []) + ([hi + 1] if hi is not None else []) + [1.5]:
            what = "an int" if bad == 1.5 else f"in {_span(lo, hi)}"
            cases.append((f"{f}[0]={bad}", (f, 0), bad, f"{P}'{f}[0]' must be {what}, got {bad}"))
        if length is not None:
            cases.append((f"{f} +1", (f, "append"), 0, f"{P}'{f}' must have {length} entries (one per seat or slot), "
                                                        f"got {length + 1}"))
        cases.append((f"{f} not a list", (f,), 7, f"{P}'{f}' must be a list, got int"))
    for f, count, length, hi in NESTED:
        if count is not None:
            cases.append((f"{f} +1", (f, "append"), [], f"{P}'{f}' must have {count} entries (one per seat or slot), "
                                                         f"got {count + 1}"))
        cases.append((f"{f} not a list", (f,), {}, f"{P}'{f}' must be a list, got dict"))
        cases.append((f"{f}[0] not a list", (f, 0), 3, f"{P}'{f}[0]' must be a list, got int"))
        if length is not None:
            cases.append((f"{f}[0] +1", (f, 0, "append"), 0, f"{P}'{f}[0]' must have {length} entries "
                                                              f"(one per seat or slot), got {length + 1}"))
        lo = 0 if f != "history" else None
        for bad in ([lo - 1] if lo is not None else []) + ([hi + 1] if hi is not None else []) + ["x"]:
            what = "an int" if bad == "x" else f"in {_span(lo, hi)}"
            cases.append((f"{f}[0][0]={bad}", (f, 0, 0), bad, f"{P}'{f}[0][0]' must be {what}, got {bad!r}"))
    return cases


RANGE_CASES = _range_cases()


def _set(d, path, value):
    """d[path] = value; 'append' as the last step, or index 0 of an empty list, appends."""
    *head, last = path
    x = d
    for k in head:
        x = x[k]
    if last == "append" or (last == 0 and x == []):
        x.append(value)
    else:
        x[last] = value


@pytest.mark.parametrize("what,path,bad,message", RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_loader_checks_every_fields_type_length_and_range(what, path, bad, message):
    g, s = _table()
    d = copy.deepcopy(s.to_dict())
    _set(d, path, bad)
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == message


# -- hidden information ------------------------------------------------------------------------------
def test_determinize_reshuffles_the_face_down_stacks_and_keeps_the_face_up_cards():
    """"shuffle the virus cards and form two face-down stacks. Turn over the top card of each stack."
    Nobody knows the order of the face-down cards, nor which stack holds which: determinize deals
    them anew (both stacks together), and keeps the face-up cards and the stack sizes."""
    g = G()
    s = g.new_initial_state(11)
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    down = sorted(s.stacks[0][:-1] + s.stacks[1][:-1])
    orders, crossed = set(), False
    for k in range(20):
        t = s.determinize(k % 4, np.random.default_rng(k))
        assert [st[-1] for st in t.stacks] == [st[-1] for st in s.stacks]         # face-up cards kept
        assert [len(st) for st in t.stacks] == [len(st) for st in s.stacks]
        assert sorted(t.stacks[0][:-1] + t.stacks[1][:-1]) == down
        orders.add(tuple(t.stacks[0][:-1]) + (-1,) + tuple(t.stacks[1][:-1]))
        crossed |= bool(set(t.stacks[0][:-1]) & set(s.stacks[1][:-1]))
    assert len(orders) == 20          # 30-odd face-down cards: every sample a different order
    assert crossed                    # a card of stack B's face-down part can lie in stack A


def test_hidden_facts_name_what_the_seat_cannot_see():
    g = G(3)
    s = g.new_initial_state(4)
    facts = s.hidden_facts(0)
    assert set(facts) == {"future chance", "other risk hands", "risk cards returned unseen",
                          "face-down stack cards"}
    assert [q for q, _ in facts["other risk hands"]] == [1, 2]
    assert len(facts["risk cards returned unseen"]) == 2              # "two cards remain" with 3 players
    assert [len(x) for x in facts["face-down stack cards"]] == [18, 18]
    # a risk card placed face down before seat 1: hidden from seats 1 and 2, not from its issuer
    g4, t = _table()
    t.active = t.cur = 0                                # seat 0: illness 2 + 3, may play a risk card
    do(t, "risk Recall", "seat+1")
    assert "face-down circulating risk card" not in t.hidden_facts(0)
    assert t.hidden_facts(1)["face-down circulating risk card"] == "Recall"
    assert "face-down circulating risk card" in t.hidden_facts(2)
    # a stack of one face-down card and an empty one: nothing left to reorder
    t.stacks = [[card_id(g4, "V01"), card_id(g4, "V02")], []]
    assert "face-down stack cards" not in t.hidden_facts(2)


def test_hidden_risk_facts_only_when_they_can_differ():
    """A hidden place is a fact only when its content can differ: with every unknown risk card in one
    place, or all of one type, determinize has nothing to resample."""
    g = G()
    s = build(g, active=0, pills={q: (3, 2, 2) for q in range(4)}, hands={1: ["Injection"] * 3}, up=("V01", "V02"))
    assert len(s.rbox) == 17
    assert "other risk hands" in s.hidden_facts(0)     # which cards seat 1 holds, which lie in the box
    hand1 = s.hand[1]
    s.hand[1] = sorted(hand1 + s.rbox)
    s.rbox = []
    assert "other risk hands" not in s.hidden_facts(0)  # every card seat 0 cannot see lies with seat 1
    assert set(s.hidden_facts(1)) == {"future chance", "face-down stack cards"}   # nothing unknown to seat 1
    s.hand[0] = [c for c in s.hand[1] if c not in hand1]
    s.hand[1], s.hand[2] = hand1[:2], hand1[2:]
    assert "other risk hands" not in s.hidden_facts(0)  # three Injections in two hands: only one way


def test_determinize_deals_the_unknown_risk_cards_anew():
    """"Shuffle the risk cards well, then deal them out completely ... When playing with three or six
    players, two cards remain; return these to the box without looking at them." Seat 0 knows its own
    hand only: every other hand and the two boxed cards are dealt anew from the cards it cannot see."""
    g = G(3)
    s = g.new_initial_state(9)
    unknown = sorted(s.hand[1] + s.hand[2] + s.rbox)
    moved = {"hand 1": False, "hand 2": False, "box": False}
    for k in range(20):
        t = s.determinize(0, np.random.default_rng(k))
        assert t.hand[0] == s.hand[0]
        assert [len(h) for h in t.hand] == [6, 6, 6] and len(t.rbox) == 2
        assert sorted(t.hand[1] + t.hand[2] + t.rbox) == unknown
        moved["hand 1"] |= t.hand[1] != s.hand[1]
        moved["hand 2"] |= t.hand[2] != s.hand[2]
        moved["box"] |= t.rbox != s.rbox
    assert all(moved.values()), moved
