"""Special contents: Drifting rooms (config `drifting_rooms=True`).

"Drifting room* (2 cards). During the Lead player sub-phase, if any Creature or Hero is located in this room, the
new Lead player must move this room to a free adjacent space of his choice; repeat up to 4 times until the room is
separated from all other room."

The 2 cards (`data/rooms.yaml`, `special_rooms`, kind `drifting`; colours and doorways designed) are shuffled into
the Room deck. At the Lead player sub-phase (Turn End, after the new Lead is named) each Drifting room on the table,
face up (a trap side shows no special room, assumption 9), holding a Creature or a Hero, moves while it touches
another room card, at most 4 times: each time to a free (empty) space of the table next to it, chosen by the new
Lead player (`drift room <side>`, PH_DRIFT; a single free space is taken without asking); with no free space it
stays. The room keeps its turn; everything in it moves with it (Heroes, Creatures and Bosses, Action cubes,
Explosives, the Antidote); the Doors, Barriers and Breaches on its borders stay behind with the borders and go
back to the game reserve (assumption 50). Rooms are moved in cell order.
"""
from __future__ import annotations

from . import creatures as CR
from .flow import PH_DRIFT, PH_NONE

FIELDS = ("drift",)
MAX_MOVES = 4


def add_actions(t):
    for d in range(4):
        t.add(f"drift room {'NESW'[d]}", ("drift", d))


def rooms(s):
    ids = s.g.drift_ids
    return [c for c, x in enumerate(s.card) if x in ids and not s.trapside[c]]


def _occupied(s, cell):
    return CR.has_creatures(s, cell) or any(s.pos[q] == cell for q in range(s.n))


def _touches(s, cell):
    return any(y >= 0 and s.card[y] >= 0 for y in s.g.geo.NB[cell])


def free_sides(s, cell):
    return [d for d in range(4) if s.g.geo.NB[cell][d] >= 0 and s.card[s.g.geo.NB[cell][d]] < 0]


def begin(s):
    """The Lead player sub-phase: the occupied Drifting rooms, in cell order ([room, moves made, rooms to come])."""
    todo = [c for c in rooms(s) if _occupied(s, c)]
    s.drift = [todo[0], 0] + todo[1:] if todo else []
    run(s)


def run(s):
    """Move the rooms until done or the new Lead player must choose."""
    while s.drift:
        cell, k = s.drift[0], s.drift[1]
        sides = free_sides(s, cell)
        if k >= MAX_MOVES or not _touches(s, cell) or not sides:
            rest = s.drift[2:]
            s.drift = [rest[0], 0] + rest[1:] if rest else []
            continue
        if len(sides) > 1:
            s.ph, s.cur = PH_DRIFT, s.lead
            return
        _drift(s, sides[0])
    s.ph = PH_NONE


def mask(s, m):
    for d in free_sides(s, s.drift[0]):
        m[s.g.drift_base + d] = True


def apply(s, a):
    _drift(s, s.g.actions.payloads[a][1])
    s.ph = PH_NONE
    run(s)


def _drift(s, d):
    """Move the room of s.drift[0] one space to side d, with its contents."""
    geo, n = s.g.geo, s.n
    a = s.drift[0]
    b = geo.NB[a][d]
    for e in (geo.EDGE[a][x] for x in range(4)):     # the tiles on its borders go back to the reserve
        if e < 0:
            continue
        if s.barrier[e]:
            from .walls import return_barrier
            return_barrier(s, e)
        if s.door[e]:
            s.door[e] = 0
            s.door_pool += 1
        if s.breach[e]:
            s.breach[e] = 0
            s.breach_pool += 1
    for f in ("card", "rot", "explored", "searched", "expl_by", "slow_red"):
        v = getattr(s, f)
        v[b], v[a] = v[a], -1 if f in ("card", "explored", "searched", "expl_by") else 0
    # `labvert` is -1 on both sides and `labcells` never holds a drifting room: a special room card has no lab
    # symbol (components.py gives every `special_rooms` card room_lab -1; the file has no field for one)
    for f in ("doors", "trapside", "sp_uses", "flat", "expl", "armed", "labvert"):
        v = getattr(s, f)
        v[b], v[a] = v[a], (-1 if f == "labvert" else 0)
    for k in range(CR.NK):
        s.cre[b * CR.NK + k], s.cre[a * CR.NK + k] = s.cre[a * CR.NK + k], 0
    for q in range(n):
        s.cubes[b * n + q], s.cubes[a * n + q] = s.cubes[a * n + q], 0
        if s.pos[q] == a:
            s.pos[q] = b
    for rec in s.bosses:
        if rec[0] == a:
            rec[0] = b
    if s.antidote_cell == a:
        s.antidote_cell = b
    s.drift[0] = b
    s.drift[1] += 1


def encode(s, p, out):
    """Per table space: a Drifting room; per slot of the observer's Rooms display: a Drifting card; the room
    drifting now (per table space) and its moves made / 4."""
    N = s.g.geo.ncells
    for c in rooms(s):
        out[c] = 1
    ids = s.g.drift_ids
    for k, (c, up) in enumerate(s.disp[p]):
        out[N + k] = 1 if c in ids else 0
    if s.drift:
        out[N + 24 + s.drift[0]] = 1
        out[2 * N + 24] = s.drift[1] / MAX_MOVES


def obs_size(g):
    return 2 * g.geo.ncells + 25


def validate(g, d):
    from ..core.validate import check_ints, fail
    from .flow import PH_DRIFT as PH
    v = check_ints(g.env_id, "drift", d["drift"], None, 0)
    if v and (len(v) < 2 or any(c >= g.geo.ncells for c in v[:1] + v[2:]) or v[1] > MAX_MOVES):
        raise fail(g.env_id, "drift", "must be [] or [room, moves made 0..4, rooms to come...]")
    if d["ph"] == PH and not v:
        raise fail(g.env_id, "drift", "the drift choice needs a drifting room")
