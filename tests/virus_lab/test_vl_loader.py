"""Virus (virus_lab_v0): `state_from_dict` refuses a corrupted dict with a ValueError naming the field (issue 12).

Each case edits one thing of a real position's `to_dict()`: a card duplicated or vanished, a count negative or out
of range, a list of the wrong length for the players, a supply that no longer adds up to the box.
"""
from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

from virus_envs.virus_lab.game import VirusLabGame

N_PLAYERS = 2


@pytest.fixture(scope="module")
def position():
    """A mid-game position of 2 Heroes (random play), with cards in displays, decks, piles and hands."""
    g = VirusLabGame(num_players=N_PLAYERS, difficulty=2)
    s = g.new_initial_state(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(400):
        if s.is_terminal() or (s.turn >= 3 and any(s.wounds) and s.event_pile):
            break
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert not s.is_terminal() and any(s.wounds) and s.event_pile and s.bosses
    return g, json.loads(json.dumps(s.to_dict()))


def _refused(g, d, field):
    """Refused, the message naming the field (`'stock[1]'` for a bad entry of `stock`; a vanished card names the
    fields searched)."""
    with pytest.raises(ValueError, match=re.escape(field)):
        g.state_from_dict(d)


def test_the_position_itself_loads(position):
    g, d = position
    assert g.state_from_dict(copy.deepcopy(d)).to_dict() == d


def _edit(d, f):
    d = copy.deepcopy(d)
    f(d)
    return d


def _dup_display_card(d):
    d["room_deck"].append(d["disp"][0][0][0])


def _lose_room_card(d):
    d["room_deck"].pop()


def _room_card_twice_on_map(d):
    d["room_discard"].append(next(c for c in d["card"] if 0 <= c < 144))


def _dup_event(d):
    d["event_deck"].append(d["event_pile"][0])


def _lose_wound(d):
    d["wound_deck"].pop()


def _dup_clue(d):
    d["clues"].append(d["clue_deck"][0])


def _dup_boss(d):
    d["boss_deck"].append(d["bosses"][0][2])


CASES = [
    # conservation of cards
    ("a display card also in the deck", _dup_display_card, "room_deck"),
    ("a Room card vanished", _lose_room_card, "room_deck"),
    ("a map card also discarded", _room_card_twice_on_map, "room_discard"),
    ("an Event card twice", _dup_event, "event_deck"),
    ("a Wound card vanished", _lose_wound, "wound_deck"),
    ("a Clue twice", _dup_clue, "clues"),
    ("a Boss card twice", _dup_boss, "boss_deck"),
    # conservation of miniatures, cubes, tokens, tiles
    ("a Creature more in the reserve", lambda d: d["pool"].__setitem__(0, d["pool"][0] + 1), "pool"),
    ("an Action cube more in a stock", lambda d: d["stock"].__setitem__(0, d["stock"][0] + 1), "stock"),
    ("a Bullet cube less in the reserve", lambda d: d.__setitem__("bullet_pool", d["bullet_pool"] - 1),
     "bullet_pool"),
    ("a token more in the reserve", lambda d: d["tok_pool"].__setitem__(2, d["tok_pool"][2] + 1), "tok_pool"),
    ("a Door tile more", lambda d: d.__setitem__("door_pool", d["door_pool"] + 1), "door_pool"),
    ("a Breach tile less", lambda d: d.__setitem__("breach_pool", d["breach_pool"] - 1), "breach_pool"),
    ("a Barrier tile more", lambda d: d["bar_pool"].__setitem__(1, d["bar_pool"][1] + 1), "bar_pool"),
    # negative counts
    ("negative stock", lambda d: d["stock"].__setitem__(1, -1), "stock"),
    ("negative bullets", lambda d: d["bullets"].__setitem__(0, -3), "bullets"),
    ("negative tokens", lambda d: d["tok"][0].__setitem__(4, -1), "tok[0]"),
    ("negative resources", lambda d: d["res"].__setitem__(0, -1), "res"),
    # lengths against the players
    ("one stock too many", lambda d: d["stock"].append(0), "stock"),
    ("a display missing", lambda d: d["disp"].pop(), "disp"),
    ("a seat's position missing", lambda d: d["pos"].pop(), "pos"),
    ("wounds of a third seat", lambda d: d["wounds"].append([]), "wounds"),
    ("cubes per room and seat", lambda d: d["cubes"].pop(), "cubes"),
    # ranges
    ("turn 10", lambda d: d.__setitem__("turn", 10), "turn"),
    ("the Lead a third seat", lambda d: d.__setitem__("lead", N_PLAYERS), "lead"),
    ("a phase that does not exist", lambda d: d.__setitem__("ph", 99), "ph"),
    ("31 resources", lambda d: d["res"].__setitem__(1, 31), "res"),
    ("7 Explosive tokens in a room", lambda d: d["expl"].__setitem__(3, 7), "expl"),
    ("a Hero off the table", lambda d: d["pos"].__setitem__(0, 10 ** 4), "pos"),
    ("a display card id that does not exist", lambda d: d["disp"][0][0].__setitem__(0, 150), "disp[0][0]"),
    ("a wound without its deep flag", lambda d: d["wounds"][0].insert(0, [1, True]), "wounds[0][0]"),
    ("a queue step that does not exist", lambda d: d["queue"].insert(0, [42]), "queue[0]"),
    ("the Starting Room moved", lambda d: d["card"].__setitem__(d["card"].index(144), -1), "card"),
    ("more known bottom cards than the deck", lambda d: d.__setitem__("room_known", len(d["room_deck"]) + 1),
     "room_known"),
    ("an Event known by seat 5", lambda d: d.__setitem__("event_known", [5]), "event_known"),
    ("a Boss met twice", lambda d: d.__setitem__("boss_seen", [0, 0]), "boss_seen"),
    ("Damage pending for seat 7", lambda d: d.__setitem__("rt_dmg", [[7, 1, 0, 1, 1]]), "rt_dmg[0]"),
    ("more Major Advantages than cards", lambda d: d.__setitem__("majors", [20] * N_PLAYERS), "majors"),
    # the room of a 2B move waiting for the Lead player's choice of side, with no such choice pending
    ("a 2B move with no choice of side pending", lambda d: d.__setitem__("pl_move", 3), "pl_move"),
    ("a colour order chosen with no Creature queued", lambda d: d.__setitem__("pl_ord", 1), "pl_ord"),
    ("a Creature on an unexplored space", lambda d: d["cre"].__setitem__(d["card"].index(-1) * 9, 1), "cre"),
]


@pytest.mark.parametrize("what, edit, field", CASES, ids=[c[0] for c in CASES])
def test_a_corrupted_dict_names_the_field(position, what, edit, field):
    g, d = position
    _refused(g, _edit(d, edit), field)


def test_a_room_over_capacity(position):
    """ "Rooms have a maximum capacity of 7" """
    g, d = position
    bad = copy.deepcopy(d)
    c = d["pos"][0]
    bad["cre"][c * 9 + 0] += 7                 # 7 Zombies more, taken from the reserve
    bad["pool"][0] -= 7
    _refused(g, bad, "cre")


def _on_the_table(d, cards):
    """The Clue cards `cards` moved onto the table from wherever they are (deck or table), the rest unchanged."""
    d = copy.deepcopy(d)
    d["clue_deck"] = [c for c in d["clue_deck"] if c not in cards]
    d["clue_known"] = 0
    d["clues"] = [c for c in d["clues"] if c not in cards] + list(cards)
    return d


def test_the_table_never_holds_two_incompatible_clues(position):
    """ "All incompatible Clue cards on the table must be immediately discarded and placed on the bottom of the deck.
    For example, the clue "A room with 4 doorways" is not compatible with another clue "A room with 3 doorways" and
    both must be discarded." So no position has both on the table (C01 and C02, ids 0 and 1), while "A room with 4
    doorways" and "A room in a group of 3 or more adjacent red rooms" (C05, id 4) can stay together. One consequence:
    of the four doorway clues (a room has one number of doorways) at most one is on the table, and a draw holds one
    card at a time, so the Clue deck never runs dry while a Hero draws."""
    g, d = position
    d = _on_the_table(d, [])
    d["clues"] = []
    d["clue_deck"] = sorted(set(range(25)) - set(d["clue_pending"][2:]))
    assert g.state_from_dict(_on_the_table(d, [0, 4])).clues[-2:] == [0, 4]
    _refused(g, _on_the_table(d, [0, 1]), "clues")
    _refused(g, _on_the_table(d, [1, 4, 0]), "clues")


def test_a_clue_draw_holds_one_card_at_a_time(position):
    """A Hero draws his Clue cards one at a time (each may be redrawn with 2 Advantages before the next): the record of
    a draw is [seat, Clues still to draw, the card being drawn], never two cards."""
    g, d = position
    d = copy.deepcopy(d)
    d["clue_deck"] = sorted(set(range(25)) - set(d["clues"]))
    d["clue_known"] = 0
    top = d["clue_deck"].pop()
    d["clue_pending"] = [0, 1, top]
    g.state_from_dict(copy.deepcopy(d))
    d["clue_pending"].append(d["clue_deck"].pop())
    _refused(g, d, "clue_pending")


def test_an_event_decision_needs_an_advantage_to_spend():
    """ "The Lead player draws an Event card and secretly reads it. If the Lead player does not like the Event card,
    he may spend 1 Advantage to return it to the bottom of the Event deck and draw the next Event card": the Lead
    with an Advantage decides; with every display card used (face down) there is nothing to decide, the Event is
    applied at once, and no position waits for his choice."""
    from vl_helpers import empty_state
    from virus_envs.virus_lab.game import PH_EVENT, PH_NONE, Q_EVENT
    s = empty_state(2)
    s.queue, s.ph = [[Q_EVENT]], PH_NONE
    s._advance()
    assert s.ph == PH_EVENT and s.cur == s.lead == 0
    g, d = s.g, json.loads(json.dumps(s.to_dict()))
    g.state_from_dict(copy.deepcopy(d))
    _refused(g, _edit(d, lambda x: x["disp"][0].__setitem__(slice(None), [[c, False] for c, _ in x["disp"][0]])), "ph")
    _refused(g, _edit(d, lambda x: x.__setitem__("cur", 1)), "ph")
