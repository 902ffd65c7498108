"""The action table of Virus!: Roll & Write: the one place where ids meet their meaning.

    id range                         name                          meaning
    place  (v-1)*T + t               "place 4 on red trial"        put a die showing v on target t
                                     "place 4 on B2 left"          (2/4 players: each laboratory slot)
                                     "place 4 on A3"               (3 players: one slot per card)
                                     "place 4 on contaminated samples"
    wildcard  W0 + k                 "wildcard 1->5"               cross off a circled wildcard: a die
                                                                   showing 1 now shows 5 (then place it)
    cross off X0 + 12*c + (v-1)      "cross off red 7"             an extra cross-off: the box v of colour c
    circle    C0                     "circle a wildcard"           laboratory-row advantage "wildcard"

Targets t: 0..3 trial cards (blue, red, green, yellow), then the laboratory slots (card-major),
then the contaminated samples card (last).
"""
from __future__ import annotations

from ..core import ActionTable
from .sheet import COLOURS

PLACE, WILD, CROSS, CIRCLE = 0, 1, 2, 3


def build_actions(lab_names, slots: int):
    """(table, kind[], arg1[], arg2[], dict of bases) for two laboratory cards with `slots` slots each."""
    t = ActionTable()
    kind, a1, a2 = [], [], []
    targets = [f"{c} trial" for c in COLOURS]
    for name in lab_names:
        if slots == 1:
            targets.append(name)
        else:
            targets += [f"{name} left", f"{name} right"]
    targets.append("contaminated samples")
    for v in range(1, 7):
        for i, tn in enumerate(targets):
            t.add(f"place {v} on {tn}", (PLACE, v, i))
            kind.append(PLACE), a1.append(v), a2.append(i)
    wild0 = len(t)
    wild_id = [[-1] * 7 for _ in range(7)]
    for x in range(1, 7):
        for y in range(1, 7):
            if x != y:
                wild_id[x][y] = t.add(f"wildcard {x}->{y}", (WILD, x, y))
                kind.append(WILD), a1.append(x), a2.append(y)
    cross0 = len(t)
    for c, cn in enumerate(COLOURS):
        for v in range(1, 13):
            t.add(f"cross off {cn} {v}", (CROSS, c, v))
            kind.append(CROSS), a1.append(c), a2.append(v)
    circle = t.add("circle a wildcard", (CIRCLE, 0, 0))
    kind.append(CIRCLE), a1.append(0), a2.append(0)
    bases = {"targets": len(targets), "wild0": wild0, "wild_id": wild_id, "cross0": cross0,
             "circle": circle, "target_names": tuple(targets)}
    return t, tuple(kind), tuple(a1), tuple(a2), bases
