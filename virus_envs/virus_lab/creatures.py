"""The Slow phase: Creature movement ("They see you! They sniff you! They hear you!") and new Creatures.

The Lead player's choices are resolved by the documented default (config `auto_slow_phase`):
groups move in increasing cell order; ties between equally good sides go to the first side found
(N, E, S, W breadth-first); the Creatures that enter a partly full room are the biggest first;
a new Creature is the kind with most miniatures left in the reserve; option 1 takes the lowest
cell; option 2A is preferred to 2B. See docs/rules/virus_lab.md.

Creature kinds per room: `s.cre[cell * NK + k]`, k = 0 zombie, 1 dog, 2 blooder, 3 tricker,
4 desu, 5 mutant, 6 verduko, 7 executioner, 8 Boss (its card and Leader in `s.bosses`).
"""
from __future__ import annotations

from .board import ALERT, CAPACITY, DOOR_CLOSED, DOOR_OPEN, OPP, bfs
from .components import TR_LASERS, TR_MOVE3, TR_MOVE4

NK = 9
BOSS = 8
DESU, MUTANT, VERDUKO, EXECUTIONER = 4, 5, 6, 7
SIZE = (1, 1, 1, 1, 2, 2, 2, 2, 2)
VALUE = (1, 1, 1, 1, 2, 2, 2, 2, 2)     # "+1 for each Creature and +2 for each Leader/Boss"


def creature_space(s, cell):
    b = cell * NK
    cre = s.cre
    return sum(cre[b + k] * SIZE[k] for k in range(NK) if cre[b + k])


def has_creatures(s, cell):
    b = cell * NK
    return any(s.cre[b:b + NK])


def heroes_in(s, cell):
    return sum(1 for p in range(s.n) if s.pos[p] == cell)


def occupancy(s, cell):
    return creature_space(s, cell) + heroes_in(s, cell)


def group_value(s, cell):
    b = cell * NK
    return sum(s.cre[b + k] * VALUE[k] for k in range(NK))


def has_kind(s, cell, k):
    """True when the group has kind k; a Boss "possess[es] all of the Leader powers"."""
    b = cell * NK
    return s.cre[b + k] > 0 or (k >= DESU and s.cre[b + BOSS] > 0)


def hero_cells(s):
    return [s.pos[p] for p in range(s.n) if s.pos[p] >= 0]


def line_of_sight(s, cell, d):
    """Rooms seen from `cell` looking to side d, nearest first: the line stops at walls and closed
    Doors, and "full rooms" interrupt it (a full room itself is still seen)."""
    geo = s.g.geo
    out = []
    a = cell
    while True:
        y = geo.NB[a][d]
        if y < 0 or s.card[y] < 0:
            break
        e = geo.EDGE[a][d]
        if not s.breach[e] and not ((s.doors[a] >> d) & 1 and (s.doors[y] >> OPP[d]) & 1):
            break
        if s.door[e] == DOOR_CLOSED:
            break
        out.append(y)
        if occupancy(s, y) >= CAPACITY:
            break
        a = y
    return out


def target_side(s, cell, hear=True):
    """The side a group in `cell` moves to by "see, sniff, hear", or -1 (no target)."""
    heroes = set(hero_cells(s))
    if not heroes:
        return -1
    # 1. They see you!
    best, side = 99, -1
    for d in range(4):
        for k, y in enumerate(line_of_sight(s, cell, d)):
            if y in heroes:
                if k < best:
                    best, side = k, d
                break
    if side >= 0:
        return side
    g = s.g
    # 2. They sniff you! (Mutant: "Sniff the entire map. It sniffs behind doors and has unlimited range")
    mutant = has_kind(s, cell, MUTANT)
    dist, first = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, 999 if mutant else ALERT, mutant)
    best, side = 999, -1
    for y, k in dist.items():
        if k > 0 and y in heroes and k < best:
            best, side = k, first[y]
    if side >= 0:
        return side
    if not hear:
        return -1
    # 3. They hear you! (a closed Door on the way hides 1 cube, unless another way avoids it)
    open_d, open_f = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, False)
    all_d, all_f = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
    best_key, side = None, -1
    for y, k in all_d.items():
        if k == 0:
            continue
        cubes = sum(s.cubes[y * s.n + p] for p in range(s.n))
        if y in open_d:
            noise, k2, f = cubes, open_d[y], open_f[y]
        else:
            noise, k2, f = cubes - 1, k, all_f[y]
        if noise <= 0:
            continue
        key = (-noise, k2)
        if best_key is None or key < best_key:
            best_key, side = key, f
    return side


def _kill_one_hp(s, cell):
    """Lasers: "Creatures cannot take partial damage", so 1 Damage point kills only 1-HP Creatures."""
    b = cell * NK
    hp = s.g.comp.cre_hp
    for k in range(8):
        if s.cre[b + k] and hp[k] <= 1:
            s.pool[k] += s.cre[b + k]
            s.cre[b + k] = 0


def move_step(s, cell, d):
    """Move the group of `cell` one room to side d. Returns the room entered (-1: it stands still)."""
    g = s.g
    geo = g.geo
    y = geo.NB[cell][d]
    if y < 0 or s.card[y] < 0:
        return -1
    e = geo.EDGE[cell][d]
    val = group_value(s, cell)
    # "As long as the barrier value is equal to or higher than an adjacent Creature group value, the group cannot move"
    if s.barrier[e]:
        bv = 2 * (s.barrier[e] - 1)
        if bv >= val:
            return -1
        for t in range(s.barrier[e]):          # destroyed: "Return the Barrier to the game reserve"
            s.bar_pool[t] += 1
        s.barrier[e] = 0
    if s.door[e] == DOOR_CLOSED:
        # "A closed Door works like a Barrier of value 1 + X, where X is the number of Heroes behind the Door"
        if 1 + heroes_in(s, y) >= val:
            return -1
        s.door[e] = DOOR_OPEN                   # ASSUMPTION: a door forced by Creatures is left open
    free = CAPACITY - occupancy(s, y)
    b, by = cell * NK, y * NK
    desu = has_kind(s, cell, DESU)
    need = creature_space(s, cell)
    if need <= free:
        for k in range(NK):
            s.cre[by + k] += s.cre[b + k]
            s.cre[b + k] = 0
        _move_bosses(s, cell, y, None)
    elif desu and free + sum(s.cre[by + k] for k in range(4)) >= 2:
        # Trample: "When it moves into a full room, move two other normal Creatures (size 1) back to the
        # room Desu entered from". Desu (or a Boss, which has every Leader power) goes in alone.
        k = DESU if s.cre[b + DESU] else BOSS
        s.cre[b + k] -= 1
        s.cre[by + k] += 1
        if k == BOSS:
            _move_bosses(s, cell, y, 1)
        over = occupancy(s, y) - CAPACITY
        for j in range(4):
            while over > 0 and s.cre[by + j] > 0:
                s.cre[by + j] -= 1
                s.cre[b + j] += 1
                over -= 1
    else:
        if free <= 0:
            return -1                            # "a full room stops it"
        # "move Creatures of the player's choice into the room until the room is full": biggest first
        moved = 0
        for k in (BOSS, DESU, MUTANT, VERDUKO, EXECUTIONER, 0, 1, 2, 3):
            while s.cre[b + k] and SIZE[k] <= free:
                s.cre[b + k] -= 1
                s.cre[by + k] += 1
                free -= SIZE[k]
                moved += 1
                if k == BOSS:
                    _move_bosses(s, cell, y, 1)
        if not moved:
            return -1
    s.flat[y] = 0
    if not has_creatures(s, cell):
        s.flat[cell] = 0
    if s.trapside[y] and s.g.comp.room_trap[s.card[y]] == TR_LASERS:
        _kill_one_hp(s, y)
    if s.armed[y]:
        s.explode(y)
    return y


def _move_bosses(s, src, dst, count):
    k = 0
    for rec in s.bosses:
        if rec[0] == src and (count is None or k < count):
            rec[0] = dst
            k += 1


def _bonus(s, cell):
    comp = s.g.comp
    c = s.card[cell]
    if c < 0 or c >= comp.num_rooms:
        return 0
    if s.trapside[cell]:
        t = comp.room_trap[c]
        return 3 if t == TR_MOVE3 else 4 if t == TR_MOVE4 else 0
    return comp.room_bonus[c]


def slow_movement(s, base_move, reduce=None):
    """Move every Creature group (CREATURE MOVEMENT). Returns the Verduko Damage events [(seat, 1)]."""
    ncells = s.g.geo.ncells
    rem = [0] * ncells
    moved = [False] * ncells
    cells = [c for c in range(ncells) if has_creatures(s, c)]
    for c in cells:
        rem[c] = base_move + (1 if has_kind(s, c, 1) else 0)   # "Dogs have a +1 bonus on Movement"
        if reduce:
            rem[c] = max(0, rem[c] - reduce[c])                 # Four-leaf tokens
    bonus_used = set()
    events = []
    done = set()
    guard = 0
    while True:
        guard += 1
        todo = [c for c in range(ncells) if rem[c] > 0 and has_creatures(s, c)]
        if not todo or guard > 10 * ncells:
            break
        cell = todo[0]
        heroes = set(hero_cells(s))
        if cell in heroes:                      # "If Creatures reach a Hero, they stop."
            rem[cell] = 0
            done.add(cell)
            continue
        d = target_side(s, cell)
        if d < 0:
            if not moved[cell]:
                # "Lay the Creatures flat ... If the Creature group is already lying flat, return them"
                if s.flat[cell] and not s.cre[cell * NK + BOSS]:
                    for k in range(8):
                        s.pool[k] += s.cre[cell * NK + k]
                        s.cre[cell * NK + k] = 0
                else:
                    s.flat[cell] = 1
            rem[cell] = 0
            continue
        y = move_step(s, cell, d)
        if y < 0:
            rem[cell] = 0                       # "cannot move and stands still"
            done.add(cell)
            continue
        r = rem[cell] - 1
        if y not in bonus_used:
            b = _bonus(s, y)
            if b:
                bonus_used.add(y)
                r += b
        if not has_creatures(s, cell):
            rem[cell] = 0
            moved[cell] = False
        else:
            rem[cell] = 0                       # the part left behind stays
        if y in heroes:
            r = 0
        rem[y] = max(rem[y], r)
        moved[y] = True
        if r == 0:
            done.add(y)
    for cell in sorted(done):
        if has_creatures(s, cell) and not s.flat[cell]:
            events.extend(end_of_move_powers(s, cell))
    return events


def end_of_move_powers(s, cell):
    """Verduko: 1 Damage point to the nearest visible Hero in its Alerted Area; Executioner: each Hero in
    its Alerted Area loses 1 Action cube."""
    out = []
    g = s.g
    if has_kind(s, cell, VERDUKO):
        best = None
        for d in range(4):
            for k, y in enumerate(line_of_sight(s, cell, d)[:ALERT]):
                ps = [p for p in range(s.n) if s.pos[p] == y]
                if ps:
                    if best is None or k < best[0]:
                        best = (k, ps[0])
                    break
        here = [p for p in range(s.n) if s.pos[p] == cell]
        if here:
            best = (0, here[0])
        if best is not None:
            out.append((best[1], 1))
    if has_kind(s, cell, EXECUTIONER):
        dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
        for p in range(s.n):
            if s.pos[p] >= 0 and s.pos[p] in dist and s.stock[p] > 0:
                s.stock[p] -= 1
                s.reserve[p] += 1
    return out


def in_hero_alert(s, cell):
    g = s.g
    dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
    return any(s.pos[p] >= 0 and s.pos[p] in dist for p in range(s.n))


def pick_kind(s, leader):
    """The Creature taken from the reserve: the kind with most miniatures left (ties: first)."""
    ks = range(4, 8) if leader else range(4)
    best = max(ks, key=lambda k: (s.pool[k], -k))
    if s.pool[best] > 0:
        return best
    if leader:
        return pick_kind(s, False)
    best = max(range(4, 8), key=lambda k: (s.pool[k], -k))
    return best if s.pool[best] > 0 else -1


def place_creature(s, colour, leader, ignore_colour=False, option1=True):
    """Place one new Creature for a room of `colour` (PLACE NEW CREATURES, options 1 / 2A / 2B).
    Returns the option used: 1, 2 ('A'), 3 ('B') or 0 (nothing possible)."""
    comp = s.g.comp
    ncells = s.g.geo.ncells
    k = pick_kind(s, leader)

    def col_ok(cell):
        c = s.card[cell]
        if c < 0 or c >= comp.num_rooms:
            return False
        return ignore_colour or comp.room_colour[c] == colour

    if k >= 0 and option1:
        # 1. "an empty room of the correct color containing 1 or more Action cubes (any color)"
        for cell in range(ncells):
            if col_ok(cell) and not has_creatures(s, cell) and heroes_in(s, cell) == 0 \
                    and any(s.cubes[cell * s.n:(cell + 1) * s.n]):
                s.cre[cell * NK + k] += 1
                s.pool[k] -= 1
                s.flat[cell] = 0
                if s.armed[cell]:
                    s.explode(cell)
                return 1
    # 2A. add to a room with non-lying Creatures in a Hero Alerted Area
    if k >= 0:
        for cell in range(ncells):
            if col_ok(cell) and has_creatures(s, cell) and not s.flat[cell] \
                    and occupancy(s, cell) + SIZE[k] <= CAPACITY and in_hero_alert(s, cell):
                s.cre[cell * NK + k] += 1
                s.pool[k] -= 1
                if s.armed[cell]:
                    s.explode(cell)
                return 2
    # 2B. move a group in a room of the colour, in a Hero Alerted Area, by 1 movement
    for cell in range(ncells):
        if col_ok(cell) and has_creatures(s, cell) and in_hero_alert(s, cell) \
                and cell not in hero_cells(s):
            d = target_side(s, cell)
            if d >= 0 and move_step(s, cell, d) >= 0:
                return 3
    return 0


def place_for_rooms(s, colours, ignore_colour=False):
    """Place one Creature per entry of `colours`; "For every 4 Creatures ... 1 must be a Leader and is
    placed first" (when a Leader is left in the reserve)."""
    nlead = len(colours) // 4
    for i, col in enumerate(colours):
        leader = i < nlead and any(s.pool[k] for k in range(4, 8))
        place_creature(s, col, leader, ignore_colour, option1=not ignore_colour)
