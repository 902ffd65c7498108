"""The state contract of Virus & Co: what the loader refuses (each corruption names its field), what
determinize resamples and what hidden_facts names (docs/rules/virus_co.md, "Hidden information")."""
import copy
import json

import numpy as np
import pytest

import virus_envs
from virus_envs.virus_co.game import PH_SYRINGE, PH_WARD
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


def _ids(g, *names):
    return [card_id(g, nm) for nm in names]


# (what is corrupted, the edit, the field the error must name)
CORRUPTIONS = [
    ("a card duplicated into a display", lambda g, d: d["vir"][1].append(d["stacks"][0][0]), "vir[1]"),
    ("a stack emptied", lambda g, d: d["stacks"].__setitem__(0, []), "vanished"),
    ("a risk card dropped from a hand", lambda g, d: d["hand"][0].pop(), "vanished"),
    ("a negative pill count", lambda g, d: d["pills"][2].__setitem__(1, -1), "pills[2][1]"),
    ("a blue pill too many in the pharmacy", lambda g, d: d["pharm"].__setitem__(0, d["pharm"][0] + 1), "'pharm'"),
    ("a red pill vanished from a stake", lambda g, d: d["pills"][0].__setitem__(2, 1), "red pills"),
    ("pills of 3 seats in a 4-player game", lambda g, d: d["pills"].pop(), "'pills'"),
    ("a fifth display", lambda g, d: d["vir"].append([]), "'vir'"),
    ("stakes of 5 seats", lambda g, d: d["stake"].append([0, 0, 0]), "'stake'"),
    ("a nurse list too short", lambda g, d: d["nurse"].pop(), "'nurse'"),
    ("'on' shorter than the card list", lambda g, d: d["on"].pop(), "'on'"),
    ("totals of 3 seats", lambda g, d: d["totals"].pop(), "'totals'"),
    ("a pill colour missing", lambda g, d: d["pharm"].pop(), "'pharm'"),
    ("the slip with seat 4", lambda g, d: d.__setitem__("active", 4), "'active'"),
    ("the decider seat 7", lambda g, d: d.__setitem__("cur", 7), "'cur'"),
    ("an unknown phase", lambda g, d: d.__setitem__("ph", 99), "'ph'"),
    ("round 3 of 3 while the game goes on", lambda g, d: d.__setitem__("round", 3), "'round'"),
    ("a negative turn count", lambda g, d: d.__setitem__("turns", -1), "'turns'"),
    ("'terminal' as an int", lambda g, d: d.__setitem__("terminal", 0), "'terminal'"),
    ("truncated but not over", lambda g, d: d.__setitem__("truncated", True), "'truncated'"),
    ("a card id past the deck", lambda g, d: d["used"].append(g.cat.size), "'used[0]'"),
    ("a risk card in a stack", lambda g, d: _swap(d, ("stacks", 0, 0), ("hand", 0, 0)), "'stacks[0][0]'"),
    ("a syringe in the viruses of a display", lambda g, d: _move_top(g, d, "S01", ("vir", 2)), "'vir[2]'"),
    ("a virus among the syringes", lambda g, d: _move_top(g, d, "V25", ("syr", 1)), "'syr[1]'"),
    ("a virus card in a risk hand", lambda g, d: _move_top(g, d, "V25", ("hand", 3)), "'hand[3]'"),
    ("a spent card that stays in front", lambda g, d: _move(d, ("front", 1), ("used",)), "'used'"),
    ("a Recall in front of a player", lambda g, d: _move(d, ("hand", 0), ("front", 0)), "'front[0]'"),
    ("a virus as the face-down risk card", lambda g, d: _move_top(g, d, "V25", ("rc",)), "'rc'"),
    ("a syringe on a virus of another display", lambda g, d: _syringe_on(g, d, "V26"), "'on'"),
    ("a syringe count on a virus that has none", lambda g, d: d["nsyr"].__setitem__(card_id(g, "V11"), 1), "'nsyr'"),
    ("three syringes on one virus", lambda g, d: d["nsyr"].__setitem__(card_id(g, "V23"), 3), "'nsyr[" ),
    ("a third syringe in a game that goes on", lambda g, d: _move_top(g, d, "S01", ("syr", 2)), "'syr[2]'"),
    ("16 illness in a game that goes on", lambda g, d: [_move_top(g, d, nm, ("vir", 1)) for nm in ("V25", "V20")],
     "'vir[1]'"),
    ("a turned-over count that does not match the table", lambda g, d: d["pub"].__setitem__(0, 1), "'pub'"),
    ("a nurse of herself", lambda g, d: d["nurse"].__setitem__(1, 1), "'nurse'"),
    ("a diagnosis without the card", lambda g, d: d["diag"].__setitem__(0, 2), "'diag'"),
    ("Mr. Doctor without the card", lambda g, d: d.__setitem__("doctor", 0), "'doctor'"),
    ("stakes with nothing circulating", lambda g, d: _stake(d, 0), "'stake'"),
    ("a requirement with nothing circulating", lambda g, d: d.__setitem__("req", 2), "'req'"),
    ("a risk card without an issuer", lambda g, d: _move(d, ("hand", 0), ("rc",)), "'issuer'"),
    ("a ward-off phase with no card", lambda g, d: d.__setitem__("ph", PH_WARD), "'circ'"),
    ("a syringe decision with no syringe", lambda g, d: d.__setitem__("ph", PH_SYRINGE), "'pend'"),
    ("a pill colour 3 to give", lambda g, d: d.__setitem__("give_col", 3), "'give_col'"),
    ("two scored rounds in round 1", lambda g, d: d["history"].append([0, 0, 0, 0]), "'history'"),
    ("totals that are not the rounds' sums", lambda g, d: d["totals"].__setitem__(0, 6), "'totals'"),
    ("a score of 3 seats", lambda g, d: d["history"][0].pop(), "'history[0]'"),
]


def _swap(d, a, b):
    (fa, ia, ja), (fb, ib, jb) = a, b
    d[fa][ia][ja], d[fb][ib][jb] = d[fb][ib][jb], d[fa][ia][ja]


def _take(d, c):
    for k in (0, 1):
        if c in d["stacks"][k]:
            d["stacks"][k].remove(c)
            return
    raise AssertionError(c)


def _put(d, c, dest):
    if dest == ("rc",):
        d["rc"] = c
        d["issuer"] = 0
    elif len(dest) == 1:
        d[dest[0]].append(c)
    else:
        d[dest[0]][dest[1]].append(c)


def _move_top(g, d, name, dest):
    c = card_id(g, name)
    _take(d, c)
    _put(d, c, dest)


def _move(d, src, dest):
    c = d[src[0]][src[1]].pop()
    if dest == ("rc",):
        d["rc"] = c
        return
    _put(d, c, dest)


def _syringe_on(g, d, name):
    x = next(x for x in d["syr"][3] if d["on"][x] < 0)          # seat 3's loose syringe
    d["on"][x] = card_id(g, name)                                # V26 lies in seat 1's display
    d["nsyr"][card_id(g, name)] += 1


def _stake(d, q):
    d["pills"][q][0] -= 1
    d["stake"][q][0] += 1


@pytest.mark.parametrize("what,edit,field", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_loader_refuses_a_corrupted_dict_naming_the_field(what, edit, field):
    g, s = _table()
    d = copy.deepcopy(s.to_dict())
    edit(g, d)
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    msg = str(e.value)
    assert field in msg, msg
    assert "\n" not in msg
    assert json.dumps(s.to_dict(), sort_keys=True) != json.dumps(d, sort_keys=True)   # the edit changed it
    g.state_from_dict(s.to_dict())


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
