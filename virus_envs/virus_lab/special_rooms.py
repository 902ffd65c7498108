"""Special contents of the Heroes Expansion: the special room cards (Teleport, Multicolored, Drifting), their ids
and which of them a game deals (config `teleport_rooms`, `multicolored_rooms`, `drifting_rooms`).

The cards are data (`data/rooms.yaml`, `special_rooms`; ids from 147, after the grey cards START_CARD, EXIT_CARD, SCEN_CARD); each option shuffles
its cards into the Room deck with the 144 others. Their rules: teleport.py, drifting.py.
"""
from __future__ import annotations

from .components import RK_DRIFT, RK_MULTI, RK_TELEPORT


def configure(g):
    comp = g.comp
    g.teleport = bool(g.config["teleport_rooms"])
    g.drifting = bool(g.config["drifting_rooms"])
    g.multicolored = bool(g.config["multicolored_rooms"])
    g.teleport_ids = frozenset(comp.special_ids(RK_TELEPORT)) if g.teleport else frozenset()
    g.drift_ids = frozenset(comp.special_ids(RK_DRIFT)) if g.drifting else frozenset()
    g.multi_ids = frozenset(comp.special_ids(RK_MULTI)) if g.multicolored else frozenset()
    for key, ids, k in (("teleport_rooms", g.teleport_ids, 4), ("drifting_rooms", g.drift_ids, 2),
                        ("multicolored_rooms", g.multi_ids, 2)):
        if g.config[key] and len(ids) != k:
            raise ValueError(f"config key {key!r}: the component files hold {len(ids)} such cards, not {k}")
    g.room_cards = tuple(range(comp.num_rooms)) + tuple(sorted(g.teleport_ids | g.multi_ids | g.drift_ids))


def placing_colour(s):
    """The colour of a Multicolored room holding a player's Action cubes when his new Creatures are placed ("whatever
    color a player wants it to be"): without Legend tiles -1, any colour (the choice of colour is the choice of the
    room the Creature goes to, which the placing player makes); with Legend tiles the colour also picks the Creature
    group: the default is the colour whose group has the most miniatures in the reserve (ties: red, yellow, blue,
    green), so that a Creature of that colour can be placed (assumption 51)."""
    if not s.g.legend:
        return -1
    return max(range(4), key=lambda col: (sum(s.pool[k] for k in s.g.legend[col]), -col))
