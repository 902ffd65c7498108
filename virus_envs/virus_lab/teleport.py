"""Special contents: Teleport rooms (config `teleport_rooms=True`).

"Teleport room card* (4 cards). If 2 or more Teleport room cards are on the table, players may use them to move from
one Teleport room to another Teleport room of their choice. A player must spend 1 Action cube to activate a Teleport
room. Creatures will automatically teleport to another Teleport room when they enter a Teleport room. If several
Teleport rooms are available, the player who moved the Creatures selects which Teleport room to move the Creatures
to. Note: it's not possible to see, sniff, or hear through the connections between Teleport rooms."

The 4 cards (`data/rooms.yaml`, `special_rooms`, kind `teleport`; their colours and doorways are designed) are
shuffled into the Room deck. A Teleport room works face up (a card placed trap side up shows no special room,
assumption 9) and, like the other special rooms, not during a "lockdown" Event.
- Heroes: `teleport to room <i>` (i = the i-th Teleport room on the table in cell order, not his own, with space):
  activating a room costs 1 Action cube, 2 in combat (ACTION COSTS TABLE "Activate a room"), placed on the room left;
  leaving a combat so is a flight; the Hero enters the other room (traps, Bosses, Explosives) as by a move.
- Creatures: a group that enters a Teleport room where no Hero stands ("If Creatures reach a Hero, they stop")
  goes on to another Teleport room with space for it and ends its movement there. The choice belongs to "the
  player who moved the Creatures" (the Lead player): it is made by the documented default, the room farthest from
  the nearest Hero (table steps; ties: cell order), and not asked even with `auto_slow_phase=False` (assumption 49).
- The sight lines, sniffing and hearing of `creatures.py` follow doorways only, so nothing is sensed through the
  link between Teleport rooms.
"""
from __future__ import annotations

from . import creatures as CR
from .components import EF_LOCKDOWN, RK_TELEPORT

MAX_TELEPORTS = 4


def add_actions(t):
    for i in range(MAX_TELEPORTS):
        t.add(f"teleport to room {i}", ("teleport", i))


def rooms(s):
    """Cells holding a working Teleport room (face up), in cell order."""
    ids = s.g.teleport_ids
    return [c for c, x in enumerate(s.card) if x in ids and not s.trapside[c]]


def _lockdown(s):
    return s.event >= 0 and s.g.comp.event_effect[s.event] == EF_LOCKDOWN


def mask(s, m, p, stock, combat):
    """ "If 2 or more Teleport room cards are on the table, players may use them" """
    cell = s.pos[p]
    if stock < (2 if combat else 1) or _lockdown(s):
        return
    tp = rooms(s)
    if cell not in tp or len(tp) < 2:
        return
    for i, y in enumerate(tp):
        if y != cell and CR.occupancy(s, y) < CR.CAPACITY:
            m[s.g.teleport_base + i] = True


def apply(s, a, p):
    """The Hero goes to the chosen Teleport room; returns (room left, room entered)."""
    i = s.g.actions.payloads[a][1]
    return s.pos[p], rooms(s)[i]


def creatures_arrive(s, y):
    """Creatures entered Teleport room y: on to another Teleport room (the Lead player's choice, by default the
    farthest from the Heroes). Returns the room they reach, or -1."""
    tp = rooms(s)
    if y not in tp or len(tp) < 2 or CR.heroes_in(s, y) or _lockdown(s):
        return -1
    need = CR.creature_space(s, y)
    geo = s.g.geo
    heroes = [geo.rc(s.pos[q]) for q in range(s.n) if s.pos[q] >= 0]

    def far(z):
        r, c = geo.rc(z)
        return min((abs(r - a) + abs(c - b) for a, b in heroes), default=0)

    dests = [z for z in tp if z != y and CR.occupancy(s, z) + need <= CR.CAPACITY]
    if not dests:
        return -1
    z = max(dests, key=lambda x: (far(x), -x))
    b, bz = y * CR.NK, z * CR.NK
    for k in range(CR.NK):
        s.cre[bz + k] += s.cre[b + k]
        s.cre[b + k] = 0
    CR._move_bosses(s, y, z, None)
    CR.arrive(s, y, z)
    return z


def encode(s, p, out):
    """Per table space: a working Teleport room; per slot of the observer's Rooms display: a Teleport card."""
    N = s.g.geo.ncells
    for c in rooms(s):
        out[c] = 1
    kind = s.g.comp.room_kind
    for k, (c, up) in enumerate(s.disp[p]):
        out[N + k] = 1 if kind[c] == RK_TELEPORT else 0


def obs_size(g):
    return g.geo.ncells + 24
