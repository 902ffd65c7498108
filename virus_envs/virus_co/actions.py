"""The action table of Virus & Co: the one place where action ids meet their meaning.

| ids | name | meaning (by phase) |
|---|---|---|
| 0, 1 | `take A`, `take B` | turn: take the face-up card of stack A/B and keep it |
| 2, 3 | `circulate A`, `circulate B` | turn: take the face-up card of stack A/B to put it into circulation |
| 4..16 | `risk <type>` | turn: put a risk card of that type into circulation (illness 4 or more) |
| 17 | `keep` | keep the circulating virus card, or keep (turn over) the risk card in front of you |
| 18 | `pass` | ward off a circulating card whose requirement your stake already meets |
| 19..21 | `blue`, `yellow`, `red` | one pill of that colour: a stake pill, the pill that declines a risk card, a pill paid to the pharmacy, returned or given |
| 22..22+n-2 | `seat+k` | the player k seats to the left of the decider: pass to, place before, nurse, diagnose, take a pill from ... |
| then | `card <id>` | a virus in a display: put a syringe on it (own display) or take it with Infection |
"""
from __future__ import annotations

from ..core import ActionTable
from .cards import COLOURS, NUM_RISK_TYPES

A_TAKE, A_CIRC, A_RISK0 = 0, 2, 4
A_KEEP = A_RISK0 + NUM_RISK_TYPES      # 17
A_PASS = A_KEEP + 1                    # 18
A_PILL0 = A_PASS + 1                   # 19
A_SEAT0 = A_PILL0 + 3                  # 22
A_CARD0 = None  # depends on the player count: see build_actions


def build_actions(n: int, cat):
    """(ActionTable, card id -> action id (or -1), action id -> card id (or -1))."""
    t = ActionTable()
    for s in "AB":
        t.add(f"take {s}", ("take", s))
    for s in "AB":
        t.add(f"circulate {s}", ("circulate", s))
    for k in range(NUM_RISK_TYPES):
        t.add(f"risk {cat.risk_names[k]}", ("risk", k))
    t.add("keep", ("keep",))
    t.add("pass", ("pass",))
    for c in COLOURS:
        t.add(c, ("pill", c))
    for k in range(1, n):
        t.add(f"seat+{k}", ("seat", k))
    card_action = [-1] * cat.size
    for c in range(cat.size):
        if cat.value[c] > 0:   # a card that lies in a display as a virus
            card_action[c] = t.add(f"card {cat.name[c]}", ("card", c))
    action_card = [-1] * len(t)
    for c, a in enumerate(card_action):
        if a >= 0:
            action_card[a] = c
    return t, tuple(card_action), tuple(action_card)
