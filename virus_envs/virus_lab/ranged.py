"""Advanced Combat, the ranged attack (config `advanced_combat="ranged"`).

"Ranged attack: Shooting from a distance. A Hero may perform a ranged attack if he is not directly involved in
combat. Roll using the same rules as for a normal attack.
- When a Hero makes a ranged attack is not involved in a Combat, so it's possible to make multiple Ranged attack
  in the same turn following the normal rules for each attack.
- After the roll, the player must remove 1 positive cube from his roll, plus one additional positive cube for
  each room of distance. ...
- The player does not suffer any Creature counter-attack.
- A direct sight line is required to shoot; the line is drawn from Room center and must be uninterrupted by
  walls, closed Doors, Barriers, or full rooms. Exception: It is possible to shoot through a Barrier if who is
  shooting is standing adjacent to the Barrier."

Actions (appended after the base table by `action_table`, so the base ids keep their meaning):
`ranged attack <side> distance <k>` for k = 1 .. the table's longest line; the roll is then built, thrown and its Successes spent with the normal
combat actions against the group of the target room (`state.ranged = [target cell, distance]` meanwhile).
Distance 0 needs the divided multi-player combat (not yet implemented), so it never arises here.
"""
from __future__ import annotations

from . import creatures as CR
from .actions import SIDE, build_actions

_TABLES = {}


def action_table(geo, ranged, smoke, resolution=False, spy=False, pvp=False, boss=False):
    """The base action table plus, in this order, `ranged attack <side> distance <k>` (k = 1 .. the longest line
    of the table; with `ranged`), `buy smoke bomb`, `use smoke bomb` (with `smoke`, smoke.py), the Resolution
    tokens' 10 actions (with `resolution`, resolution.py), `declare clue <c>` x 25 (with `spy`, spy.py), the
    6 Player vs Player actions (with `pvp`, pvp.py) and the Boss players' 8 actions (with `boss`,
    boss_actions.NAMES): (table, first ranged id, longest distance, first smoke id, first Resolution id, first
    declaration id, first PvP id, first Boss id)."""
    key = (geo.rows, geo.cols, ranged, smoke, resolution, spy, pvp, boss)
    if key not in _TABLES:
        t = build_actions()
        base = len(t)
        dmax = max(geo.rows, geo.cols) - 1
        if ranged:
            for d in range(4):
                for k in range(1, dmax + 1):
                    t.add(f"ranged attack {SIDE[d]} distance {k}", ("ranged", d, k))
        sm = len(t)
        if smoke:
            t.add("buy smoke bomb", ("buy_smoke",))
            t.add("use smoke bomb", ("smoke",))
        rs = len(t)
        if resolution:
            from .resolution import names
            for i, name in enumerate(names()):
                t.add(name, ("resolution", i))
        sb = len(t)
        if spy:
            for c in range(25):
                t.add(f"declare clue {c}", ("declare", c))
        pb = len(t)
        if pvp:
            from .pvp import names as pvp_names
            for i, name in enumerate(pvp_names()):
                t.add(name, ("pvp_attack", i) if i < 4 else ("pvp", i))
        bs = len(t)
        if boss:
            from .boss_actions import NAMES
            for i, name in enumerate(NAMES):
                t.add(name, ("boss", i))
        _TABLES[key] = (t, base, dmax, sm, rs, sb, pb, bs)
    return _TABLES[key]


def ranged_id(g, d, k):
    return g.ranged_base + d * g.ranged_dmax + (k - 1)


def sight_line(s, cell, d):
    """[(room, distance)] a Hero in `cell` may shoot at along side d, nearest first. The line runs through
    connected borders (doorways on both cards, or a Breach: "uninterrupted by walls") and no closed Door; a
    Barrier stops it unless it is on the shooter's own room ("standing adjacent to the Barrier"); a full room
    may be shot at but not beyond ("if there is a full Room in your Sight line you cannot shoot beyond it"); a
    Hero in between does not block ("Can I make a ranged attack if I have another Hero in the middle of my Sight
    line? YES")."""
    geo = s.g.geo
    out = []
    a = cell
    for k, y in enumerate(CR.line_of_sight(s, cell, d), 1):    # walls, closed Doors, full rooms: as the Creatures see
        if s.barrier[geo.EDGE[a][d]] and a != cell:
            break
        out.append((y, k))
        a = y
    return out


def mask(s, m, p):
    """Out of combat, with an Action cube to roll: every Creature group in sight."""
    if s.stock[p] < 1:
        return
    g = s.g
    for d in range(4):
        for y, k in sight_line(s, s.pos[p], d):
            if CR.has_creatures(s, y) and y not in s.smoked:     # "Smoke bombs also prevent ... ranged combat"
                m[ranged_id(g, d, k)] = True


def start(s, a, p):
    """Declare the shot: the Boss cards of the target room are revealed ("Keep the Boss card hidden until a Hero
    interacts with the Boss (moves up its room or performs a ranged attack)"); then the roll is built as for a
    normal attack ("The player must roll at least 1 Action cube")."""
    from .flow import PH_ROLL
    _, d, k = s.g.actions.payloads[a]
    y = sight_line(s, s.pos[p], d)[k - 1][0]
    s._reveal_bosses(y)
    s.ranged = [y, k]
    s.team = []
    s.dodged[p] = [0] * CR.NK      # out of combat: nothing Dodged; the shot's Successes only kill (no counter-attack)
    s.stock[p] -= 1
    s.roll = [1, 0, 0, 0, 0, 0, 0, 0]
    s.ph = PH_ROLL


def penalty(rr, k):
    """ "remove 1 positive cube from his roll, plus one additional positive cube for each room of distance"
    (k + 1 cubes; Action cubes or bullets). "The Player may choose which cubes are removed": a positive cube does
    nothing but enter Successes = positive bullets x positive Action cubes (Books and Hearts multiply the two
    factors alike), so taking each cube from the larger factor keeps the most Successes, which no other choice
    beats (the same argument as `combat.major_cubes`). rr = [pos cubes, neg cubes, pos bullets, neg bullets, ...]:
    the removed cubes leave the result (neither positive nor negative, so no Advantage brings them back); the
    penalty comes "After the roll", before the Advantages, and again after a Four-leaf re-roll."""
    for _ in range(k + 1):
        if rr[0] == 0 and rr[2] == 0:
            break
        rr[0 if rr[0] >= rr[2] else 2] -= 1

